// Turns command-line inputs into the list of files to validate: files as given, directories walked, globs expanded,
// excluded paths dropped. The order is the arguments' order, and sorted by name within each directory, so output is
// the same on every run. A walk never fails: an entry it cannot read (a directory without permission, a symbolic link
// that loops) takes its place in the list as an unreadable input, and the rest of the tree is still walked.
import { readdirSync, statSync, type Dirent, type Stats } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type Picomatch from "picomatch";
import { DISCOVERED_EXTENSIONS } from "./input-format.js";
import { STDIN } from "./file-outcome.js";
import { describeFailure } from "./read-file.js";

/** The glob matcher, loaded only for patterns: most runs name files and directories. */
const picomatch = (): typeof Picomatch => createRequire(import.meta.url)("picomatch") as typeof Picomatch;

/** What the inputs stand for, in output order. */
export type Discovered =
  /** A file to validate, once however often found; `walked`: found by a walk or glob, so validated only if it is an OSCAL document. */
  | { kind: "file"; file: string; walked: boolean }
  /** An entry a walk found and could not read. */
  | { kind: "unreadable"; file: string; detail: string }
  /** Closes a directory or glob input: every file it found (some may be listed under an earlier input). */
  | { kind: "search"; input: string; pattern: boolean; files: string[] };

/** Entries a walk never visits: hidden files and directories (tool and VCS state), and dependencies. */
function skippedEntry(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}

function toPosix(file: string): string {
  return file.split(path.sep).join("/");
}

/** A file a walk found, or an entry it could not read, with the reason. */
type Found = { file: string; unreadable?: string };

/**
 * Every file under `dir` (hidden entries and node_modules skipped) that `keep` accepts, depth first, sorted by name.
 * Symbolic links to directories are not followed, so a cycle of directories cannot trap the walk; a link that loops
 * on itself is reported whatever its name, as it may stand for anything; links to anything else are kept by name, and
 * reading them says what they are (a dangling link, a device).
 */
function walk(dir: string, keep: (file: string) => boolean, excluded: (file: string) => boolean, into: Found[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    // A directory gone since it was listed (or a glob's base that does not exist) holds nothing to report.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") into.push({ file: dir, unreadable: describeFailure(dir, error as NodeJS.ErrnoException) });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (skippedEntry(entry.name)) continue;
    const file = toPosix(path.join(dir, entry.name));
    if (excluded(file)) continue;
    if (entry.isDirectory()) walk(file, keep, excluded, into);
    else if (!entry.isSymbolicLink()) {
      if (keep(file)) into.push({ file });
    } else {
      const target = resolveLink(file);
      if (target instanceof Error) into.push({ file, unreadable: describeFailure(file, target) });
      else if (keep(file) && !target?.isDirectory()) into.push({ file });
    }
  }
}

/** What a link leads to: undefined when nothing (dangling: its reader says so), an error when it loops. */
function resolveLink(file: string): Stats | NodeJS.ErrnoException | undefined {
  try {
    return statSync(file);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ELOOP" ? (error as NodeJS.ErrnoException) : undefined;
  }
}

/** A path that does not resolve (missing, a loop, a dangling link) is not a directory; reading it reports why. */
function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Walked paths are normalized (`dir/a.json`, never `./dir/a.json`); patterns and inputs are brought to that form. */
function withoutDotSlash(file: string): string {
  return file.replace(/^(\.\/)+/, "");
}

function hasDiscoveredExtension(file: string): boolean {
  const lower = file.toLowerCase();
  return DISCOVERED_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/** Patterns with a slash match the whole path; without one, a file or directory name at any depth, as in .gitignore. */
function exclusion(patterns: readonly string[]): (file: string) => boolean {
  const byPath = patterns.filter((pattern) => pattern.includes("/")).map(withoutDotSlash);
  const byName = patterns.filter((pattern) => !pattern.includes("/"));
  const matchesPath = byPath.length > 0 ? picomatch()(byPath, { dot: true }) : () => false;
  const matchesName = byName.length > 0 ? picomatch()(byName, { dot: true }) : () => false;
  return (file) => matchesPath(withoutDotSlash(file)) || matchesName(path.posix.basename(file));
}

export function discoverFiles(inputs: readonly string[], excludePatterns: readonly string[]): Discovered[] {
  const excluded = exclusion(excludePatterns);
  const discovered: Discovered[] = [];
  const listed = new Map<string, Extract<Discovered, { kind: "file" }>>();
  const addFile = (file: string, walked: boolean) => {
    const earlier = listed.get(file);
    // A file named explicitly is validated whatever it holds, even where a walk found it first.
    if (earlier !== undefined) earlier.walked &&= walked;
    else {
      const item = { kind: "file" as const, file, walked };
      listed.set(file, item);
      discovered.push(item);
    }
  };
  const search = (input: string, pattern: boolean, base: string, keep: (file: string) => boolean) => {
    const found: Found[] = [];
    walk(base, keep, excluded, found);
    for (const { file, unreadable } of found) {
      if (unreadable === undefined) addFile(file, true);
      else discovered.push({ kind: "unreadable", file, detail: unreadable });
    }
    discovered.push({ kind: "search", input, pattern, files: found.filter((entry) => entry.unreadable === undefined).map((entry) => entry.file) });
  };
  for (const input of inputs) {
    const stats = input === STDIN ? undefined : statOrUndefined(input);
    if (stats?.isDirectory()) {
      search(input, false, toPosix(input), hasDiscoveredExtension);
      continue;
    }
    const scan = stats === undefined && input !== STDIN ? picomatch().scan(input) : undefined;
    if (scan === undefined || !scan.isGlob) {
      addFile(input, false);
      continue;
    }
    // A pattern the shell did not expand (quoted, or no shell at all): walk its literal base and match the rest.
    search(input, true, scan.base === "" ? "." : scan.base, picomatch()(withoutDotSlash(input)));
  }
  return discovered;
}
