// Turns command-line inputs into the list of files to validate: files as given, directories walked, globs expanded,
// excluded paths dropped. The order is the arguments' order, and sorted by name within each directory, so output is
// the same on every run.
import { readdirSync, statSync, type Dirent } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type Picomatch from "picomatch";
import { DISCOVERED_EXTENSIONS } from "./input-format.js";
import { STDIN } from "./file-outcome.js";

/** The glob matcher, loaded only for patterns: most runs name files and directories. */
const picomatch = (): typeof Picomatch => createRequire(import.meta.url)("picomatch") as typeof Picomatch;

export interface Discovery {
  /** Files to validate, each once; inputs that name nothing readable stay in place, so reading them reports why. */
  files: string[];
  /** Glob patterns that matched no file (also in `files`, where they fail to read). */
  unmatched: Set<string>;
}

/** Entries a walk never visits: hidden files and directories (tool and VCS state), and dependencies. */
function skippedEntry(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}

function toPosix(file: string): string {
  return file.split(path.sep).join("/");
}

/** Every file under `dir` (hidden entries and node_modules skipped) that `keep` accepts, depth first, sorted by name. */
function walk(dir: string, keep: (file: string) => boolean, excluded: (file: string) => boolean, into: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (skippedEntry(entry.name)) continue;
    const file = toPosix(path.join(dir, entry.name));
    if (excluded(file)) continue;
    // Symbolic links to directories are not followed, so a link cycle cannot trap the walk.
    const isFile = entry.isFile() || (entry.isSymbolicLink() && statSync(file, { throwIfNoEntry: false })?.isFile() === true);
    if (entry.isDirectory()) walk(file, keep, excluded, into);
    else if (isFile && keep(file)) into.push(file);
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

export function discoverFiles(inputs: readonly string[], excludePatterns: readonly string[]): Discovery {
  const excluded = exclusion(excludePatterns);
  const found: string[] = [];
  const unmatched = new Set<string>();
  for (const input of inputs) {
    const stats = input === STDIN ? undefined : statSync(input, { throwIfNoEntry: false });
    if (stats?.isDirectory()) {
      walk(toPosix(input), hasDiscoveredExtension, excluded, found);
      continue;
    }
    const scan = stats === undefined && input !== STDIN ? picomatch().scan(input) : undefined;
    if (scan === undefined || !scan.isGlob) {
      found.push(input);
      continue;
    }
    // A pattern the shell did not expand (quoted, or no shell at all): walk its literal base and match the rest.
    const matches = picomatch()(withoutDotSlash(input));
    const before = found.length;
    walk(scan.base === "" ? "." : scan.base, matches, excluded, found);
    if (found.length === before) {
      unmatched.add(input);
      found.push(input);
    }
  }
  return { files: [...new Set(found)], unmatched };
}
