// The local documents pack constraints may read (`doc()`, `doc-available()`, `resolve-profile()`): files named on the
// command line, never the network. Each thread reads a file the first time a constraint asks for it and keeps it for
// the run: as cheap as handing a parsed copy to every worker (structured clone costs what parsing does), and a file
// that no document refers to is never read. A file of the package that is validated too is parsed once for both.
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseBody, type ParsedBody } from "../core/body.js";
import { parseYamlBytes } from "../core/yaml.js";
import { fileInside, fileLoader, isInside, readDocumentFile } from "../resolve/file-loader.js";
import type { LoadedDocument, Unavailable } from "../resolve/loader.js";
import { NOT_SUPPLIED } from "../packs/engine.js";
import { asResolvedCatalog } from "../resolve/pack-documents.js";
import { asFileDetail, inputFormatOf } from "./input-format.js";
import { describeFailure } from "./read-file.js";

/** What --documents and --document name: plain data, so that it reaches worker threads. */
export interface DocumentSettings {
  /** --documents: an href that is a relative reference is looked up inside this directory (a real, absolute path). */
  dir?: string;
  /** --document: href exactly as a document writes it → file (absolute). Wins over `dir`. */
  files: Readonly<Record<string, string>>;
  /**
   * Without --documents, the package the inputs form: the directories named on the command line (for a file, its
   * directory; real, absolute paths). A relative href is looked up beside the document that writes it, inside the one
   * of them that holds the document, so an SSP, its baseline and its catalog checked together find one another.
   */
  roots?: readonly string[];
}

/** A document file that cannot be read or parsed; the message names it. */
export class DocumentError extends Error {}

/** A document file's parse: a JSON file's as the core's (its text findings with it), a YAML file's as the YAML reader's. */
type FileParse = ParsedBody | ReturnType<typeof parseYamlBytes>;

/** Parses kept for the thread by real path: documents read for other documents, and files of a package validated. */
const keptParses = new Map<string, FileParse>();
/** Validated files are kept while their bytes add up to this at most: a walk of a large tree need not hold them all. */
const KEPT_VALIDATED_BYTES = 32 * 1024 * 1024;
let keptValidatedBytes = 0;
let parses = 0;

/** How many document files this thread has parsed: the tests count with it that a package's files are parsed once. */
export const filesParsed = (): number => parses;

function parseFile(file: string, bytes: Uint8Array): FileParse {
  parses++;
  return inputFormatOf(file) === "yaml" ? parseYamlBytes(bytes) : parseBody(bytes);
}

/** A file's key among the kept parses: its real path, the one a package's hrefs resolve to. */
function keyOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The parsed content of a document file (JSON, or YAML by its extension), read once per thread. */
export function readDocument(file: string): unknown {
  const key = keyOf(file);
  let parsed = keptParses.get(key);
  if (parsed === undefined) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      throw new DocumentError(`cannot read the document: ${describeFailure(file, error as NodeJS.ErrnoException).replace(/\.$/, "")}`);
    }
    parsed = parseFile(file, bytes);
    if (!parsed.ok) throw new DocumentError(`the document ${file} cannot be used: ${parsed.error.code}: ${asFileDetail(parsed.error.detail)}`);
    keptParses.set(key, parsed);
  }
  return (parsed as { document: unknown }).document;
}

/**
 * The parse of a JSON file validated in a package run, for the core: the one kept when a document validated before it
 * imported it, or made now and kept for the documents validated after it that import it.
 */
export function packageFileParse(file: string): (bytes: Uint8Array) => ParsedBody {
  return (bytes) => {
    const key = keyOf(file);
    const known = keptParses.get(key);
    if (known !== undefined) return known as ParsedBody;
    const parsed = parseFile(file, bytes) as ParsedBody;
    if (parsed.ok && keptValidatedBytes + bytes.length <= KEPT_VALIDATED_BYTES) {
      keptParses.set(key, parsed);
      keptValidatedBytes += bytes.length;
    }
    return parsed;
  };
}

/** A file a profile's resolution imports, through the kept parses; one that cannot be used says why as the loader does. */
function loadDocumentFile(file: string): LoadedDocument | Unavailable {
  try {
    return { uri: pathToFileURL(file).href, document: readDocument(file) };
  } catch (error) {
    if (error instanceof DocumentError) return readDocumentFile(file);
    throw error;
  }
}

/**
 * The file inside `dir` an href names, or undefined: a URL of another scheme than file:, a path that leaves `dir`
 * (by `..`, as an absolute path or through a symbolic link) and a file that does not exist are not available.
 */
export function fileInDirectory(dir: string, href: string): string | undefined {
  const found = fileInside(dir, href, pathToFileURL(`${dir}${path.sep}`).href);
  return "file" in found ? found.file : undefined;
}

/** Documents as the packs read them, by file: a profile as the catalog it resolves to, resolved once per thread. */
const resolvedFiles = new Map<string, unknown>();

/**
 * The `documents` option of the core for these settings: undefined means "not available". A profile is read as the
 * catalog it resolves to, its imports resolved against its own location inside --documents (or its own directory)
 * and --document mappings, as `oscal-validate resolve` does.
 */
export function documentSource(settings: DocumentSettings, validated?: string): (href: string) => unknown {
  const beside = validated === undefined || settings.dir !== undefined ? undefined : packageOf(settings.roots ?? [], validated);
  return (href) => {
    let file = Object.hasOwn(settings.files, href) ? settings.files[href] : undefined;
    if (file === undefined && settings.dir !== undefined) file = fileInDirectory(settings.dir, href);
    if (file === undefined && beside !== undefined) {
      const found = fileInside(beside.root, href, beside.base);
      // Only a missing file inside the package is known not to exist; what lies outside it was not looked at.
      if (!("file" in found)) return found.refused === "missing" ? undefined : NOT_SUPPLIED;
      file = found.file;
    }
    if (file === undefined) return undefined;
    if (!resolvedFiles.has(file)) {
      const loader = fileLoader({ allowedDir: settings.dir ?? beside?.root ?? path.dirname(file), files: settings.files, read: loadDocumentFile });
      resolvedFiles.set(file, asResolvedCatalog(readDocument(file), { loader, uri: pathToFileURL(file).href, sourceProfile: href }));
    }
    return resolvedFiles.get(file);
  };
}

/** A validated file's package: the innermost root holding it, and the file's own URL, which its relative hrefs take. */
function packageOf(roots: readonly string[], validated: string): { root: string; base: string } | undefined {
  let real: string;
  try {
    real = realpathSync(validated);
  } catch {
    return undefined;
  }
  const root = roots.filter((candidate) => isInside(candidate, real)).sort((a, b) => b.length - a.length)[0];
  return root === undefined ? undefined : { root, base: pathToFileURL(real).href };
}
