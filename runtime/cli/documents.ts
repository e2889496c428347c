// The local documents pack constraints may read (`doc()`, `doc-available()`, `resolve-profile()`): files named on the
// command line, never the network. Each thread reads a file the first time a constraint asks for it and keeps it for
// the run: as cheap as handing a parsed copy to every worker (structured clone costs what parsing does), and a file
// that no document refers to is never read.
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseBody } from "../core/body.js";
import { parseYamlBytes } from "../core/yaml.js";
import { fileInside, fileLoader, isInside } from "../resolve/file-loader.js";
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

const parsedFiles = new Map<string, unknown>();

/** The parsed content of a document file (JSON, or YAML by its extension), read once per thread. */
export function readDocument(file: string): unknown {
  if (parsedFiles.has(file)) return parsedFiles.get(file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new DocumentError(`cannot read the document: ${describeFailure(file, error as NodeJS.ErrnoException).replace(/\.$/, "")}`);
  }
  const parsed = inputFormatOf(file) === "yaml" ? parseYamlBytes(bytes) : parseBody(bytes);
  if (!parsed.ok) throw new DocumentError(`the document ${file} cannot be used: ${parsed.error.code}: ${asFileDetail(parsed.error.detail)}`);
  parsedFiles.set(file, parsed.document);
  return parsed.document;
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
      const loader = fileLoader({ allowedDir: settings.dir ?? beside?.root ?? path.dirname(file), files: settings.files });
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
