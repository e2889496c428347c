// The service's document library: a read-only directory the operator configures, holding the catalogs and profiles
// that submitted profiles may import and that rule packs may read (`doc()`). An href names a library document through
// the library's index (canonical URLs, such as NIST's and FedRAMP's published ones, mapped to files) or as a relative
// name inside the directory; nothing outside it is ever read, and nothing is fetched from the network. Each thread
// parses a document at its first use and keeps it: the library is shared by every request.
import { lstatSync, opendirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { asResolvedCatalog } from "./pack-documents.js";
import { fileInside, HAS_SCHEME, isInside, parseDocumentBytes, type Refusal } from "./file-loader.js";
import type { DocumentLoader, LoadedDocument, Unavailable } from "./loader.js";
import { isObject } from "./model.js";

/** The index file, in the library's directory: `{ "documents": { "<href>": "<file name relative to the directory>" } }`. */
export const LIBRARY_INDEX = "index.json";

export interface LibraryLimits {
  /** Largest file the library reads (the index included). */
  maxFileBytes: number;
  /** Most files the directory may hold (at any depth, the index included). */
  maxDocuments: number;
}

/** A library checked at start-up. Plain data, so that worker threads open the same library. */
export interface LibrarySettings {
  /** The directory's real path. */
  dir: string;
  /** Href, exactly as documents write it → real path of a file inside `dir`. */
  index: Readonly<Record<string, string>>;
  maxFileBytes: number;
}

/** Whether the tree under `dir` holds more than `max` files (symbolic links count; stops counting past `max`). */
function holdsMoreFilesThan(dir: string, max: number): boolean {
  let count = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const directory = opendirSync(current);
    try {
      for (let entry = directory.readSync(); entry !== null; entry = directory.readSync()) {
        if (entry.isDirectory()) pending.push(path.join(current, entry.name));
        else if (++count > max) return true;
      }
    } finally {
      directory.closeSync();
    }
  }
  return false;
}

/** The index's entries, or what is wrong with it (each problem names the entry). */
function readIndex(dir: string, limits: LibraryLimits, problems: string[]): Record<string, string> {
  const file = path.join(dir, LIBRARY_INDEX);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return {};
  const where = `${LIBRARY_INDEX} of the document library ${dir}`;
  if (!stat.isFile() || stat.size > limits.maxFileBytes) {
    problems.push(`${where}: expected a file of at most ${limits.maxFileBytes} bytes`);
    return {};
  }
  let index: unknown;
  try {
    index = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    problems.push(`${where}: not JSON (${(error as Error).message})`);
    return {};
  }
  const extra = isObject(index) ? Object.keys(index).filter((key) => key !== "documents") : [];
  if (!isObject(index) || !isObject(index.documents) || extra.length > 0) {
    problems.push(`${where}: expected an object with one member, "documents", mapping hrefs to file names`);
    return {};
  }
  const entries: Record<string, string> = {};
  for (const [href, name] of Object.entries(index.documents)) {
    const entry = `${where}: "${href}"`;
    if (href === "") problems.push(`${where}: an empty href`);
    else if (typeof name !== "string" || name === "" || path.isAbsolute(name) || HAS_SCHEME.test(name)) problems.push(`${entry}: expected a file name relative to the library`);
    else if (!isInside(dir, path.resolve(dir, name))) problems.push(`${entry}: "${name}" leaves the library`);
    else {
      const target = path.resolve(dir, name);
      const targetStat = statSync(target, { throwIfNoEntry: false });
      if (targetStat === undefined || !targetStat.isFile()) problems.push(`${entry}: there is no file "${name}" in the library`);
      else if (!isInside(dir, realpathSync(target))) problems.push(`${entry}: "${name}" leaves the library through a symbolic link`);
      else if (targetStat.size > limits.maxFileBytes) problems.push(`${entry}: "${name}" is larger than ${limits.maxFileBytes} bytes`);
      else entries[href] = realpathSync(target);
    }
  }
  return entries;
}

/**
 * Checks the library directory and reads its index, at start-up: every problem is listed (an index entry naming no
 * file, a file outside the directory or over the size limit, a directory holding more files than allowed).
 */
export function checkLibrary(dir: string, limits: LibraryLimits): { ok: true; settings: LibrarySettings } | { ok: false; problems: string[] } {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isDirectory()) return { ok: false, problems: [`the document library ${dir} is not a directory`] };
  const realDir = realpathSync(dir);
  const problems: string[] = [];
  if (holdsMoreFilesThan(realDir, limits.maxDocuments)) problems.push(`the document library ${dir} holds more than ${limits.maxDocuments} files`);
  const index = readIndex(realDir, limits, problems);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, settings: { dir: realDir, index, maxFileBytes: limits.maxFileBytes } };
}

/** Why the library has no document for an href, as the client is told it: never a path of the server's. */
const REFUSALS: Readonly<Record<Refusal, string>> = {
  "not-local": "it is not in the document library (the service fetches nothing from the network)",
  "not-a-file": "it is not in the document library",
  leaves: "it leaves the document library",
  "leaves-by-link": "it leaves the document library",
  missing: "it is not in the document library",
};

/** Answers every href with "no library": a service without one still resolves profiles that embed what they import. */
export const NO_LIBRARY: DocumentLoader = { load: () => ({ unavailable: "the operator has configured no document library" }) };

export class DocumentLibrary implements DocumentLoader {
  /** What a document submitted to the service has as its location: its relative hrefs name library files. */
  readonly rootUri: string;
  /** Parsed documents (or why one cannot be), by real path: read once, never changed. */
  private readonly parsed = new Map<string, LoadedDocument | Unavailable>();
  /** The catalogs library profiles resolve to, by uri, for rule packs (their `resolve-profile()` reads catalogs only). */
  private readonly resolvedProfiles = new Map<string, unknown>();

  constructor(private readonly settings: LibrarySettings) {
    this.rootUri = pathToFileURL(`${settings.dir}${path.sep}`).href;
  }

  /** The library document `href` names, as written in the document whose uri is `base`. */
  load(href: string, base: string = this.rootUri): LoadedDocument | Unavailable {
    const { index, dir } = this.settings;
    if (Object.hasOwn(index, href)) return this.read(index[href]!);
    const found = fileInside(dir, href, base);
    return "refused" in found ? { unavailable: REFUSALS[found.refused] } : this.read(found.file);
  }

  /**
   * The `documents` rule packs read, by href as the validated document writes it (relative hrefs name library files):
   * a profile is handed over as the catalog it resolves to, which is what the packs' `resolve-profile()` reads.
   */
  readonly documents = (href: string): unknown => {
    const loaded = this.load(href);
    if ("unavailable" in loaded) return undefined;
    if (!isObject(loaded.document) || !isObject(loaded.document.profile)) return loaded.document;
    if (!this.resolvedProfiles.has(loaded.uri)) {
      this.resolvedProfiles.set(loaded.uri, asResolvedCatalog(loaded.document, { loader: this, uri: loaded.uri, sourceProfile: href }));
    }
    return this.resolvedProfiles.get(loaded.uri);
  };

  private read(file: string): LoadedDocument | Unavailable {
    let document = this.parsed.get(file);
    if (document === undefined) this.parsed.set(file, (document = this.parse(file)));
    return document;
  }

  private parse(file: string): LoadedDocument | Unavailable {
    // Only files under a symbolic link may have changed kind or size since start-up: the check is cheap, so always made.
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isFile()) return { unavailable: "it is not in the document library" };
    if (stat.size > this.settings.maxFileBytes) return { unavailable: "the document library's copy of it is larger than the library may read" };
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return { unavailable: "the document library's copy of it cannot be read" };
    }
    const parsed = parseDocumentBytes(file, bytes);
    return parsed.ok ? { uri: pathToFileURL(file).href, document: parsed.document } : { unavailable: "the document library's copy of it is not a JSON or YAML document" };
  }
}
