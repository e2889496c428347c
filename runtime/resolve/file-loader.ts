// Documents from local files: an href is resolved against the location of the document that writes it (RFC 3986, as
// the specification asks) and read only inside the allowed directory; any other href (https:, a path elsewhere) is read
// only when it is mapped to a file. The network is never used.
import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseBody } from "../core/body.js";
import { parseYamlBytes } from "../core/yaml.js";
import type { DocumentLoader, LoadedDocument, Unavailable } from "./loader.js";

export interface FileLoaderSettings {
  /** Relative hrefs may name files inside this directory only (symbolic links are followed before the check). */
  allowedDir: string;
  /** Href exactly as a document writes it → file. Wins over resolution against the document's location. */
  files?: Readonly<Record<string, string>>;
  /** Reads and parses a file: readDocumentFile when absent (the CLI's keeps what it parsed for other uses). */
  read?: (file: string) => LoadedDocument | Unavailable;
}

/** Whether `file` lies below `dir` (both absolute). */
export function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== "" && !relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative);
}

export const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Why `fileInside` names no file; the caller words it (the CLI names its directory, the service never does). */
export type Refusal = "not-local" | "not-a-file" | "leaves" | "leaves-by-link" | "missing";

/**
 * The file inside `dir` that `href` names, resolved against the uri `base`, or why there is none: a URL of another
 * scheme than file:, a path that leaves `dir` (by `..`, as an absolute path or through a symbolic link), no such file.
 */
export function fileInside(dir: string, href: string, base: string): { file: string } | { refused: Refusal; path?: string } {
  if (HAS_SCHEME.test(href) && !/^file:/i.test(href)) return { refused: "not-local" };
  let file: string;
  try {
    file = fileURLToPath(new URL(href, base));
  } catch {
    return { refused: "not-a-file" };
  }
  // An encoded NUL decodes into the path, which no file system call takes (they throw).
  if (file.includes("\0")) return { refused: "not-a-file" };
  if (!isInside(dir, file)) return { refused: "leaves" };
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return { refused: "missing", path: file };
  const real = realpathSync(file);
  if (!isInside(dir, real)) return { refused: "leaves-by-link" };
  return { file: real };
}

function refusalMessage(found: { refused: Refusal; path?: string }, dir: string): string {
  switch (found.refused) {
    case "not-local":
      return "it is not a local file and is not mapped to one (the network is never used)";
    case "not-a-file":
      return "it does not name a local file";
    case "leaves":
      return `it leaves the allowed directory ${dir}`;
    case "leaves-by-link":
      return `it leaves the allowed directory ${dir} through a symbolic link`;
    case "missing":
      return `there is no file ${found.path}`;
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A document's value. Resolution needs the value only: the strict pass (duplicate member names, excluded characters)
 * is validation's business. Text that is not JSON goes through the core's parser, which says why (its error code).
 */
export function parseDocumentBytes(file: string, bytes: Uint8Array): { ok: true; document: unknown } | { ok: false; error: { code: string } } {
  if (/\.ya?ml$/i.test(file)) return parseYamlBytes(bytes);
  try {
    return { ok: true, document: JSON.parse(utf8.decode(bytes)) };
  } catch {
    return parseBody(bytes);
  }
}

/** Reads and parses a document file: JSON, or YAML by its extension. */
export function readDocumentFile(file: string): LoadedDocument | Unavailable {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { unavailable: `the file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? "read error"})` };
  }
  const parsed = parseDocumentBytes(file, bytes);
  return parsed.ok ? { uri: pathToFileURL(file).href, document: parsed.document } : { unavailable: `the file ${file} is not a JSON or YAML document (${parsed.error.code})` };
}

export function fileLoader(settings: FileLoaderSettings): DocumentLoader {
  const allowedDir = realpathSync(settings.allowedDir);
  const files = settings.files ?? {};
  const read = settings.read ?? readDocumentFile;
  return {
    load(href, base) {
      if (Object.hasOwn(files, href)) return read(path.resolve(files[href]!));
      const found = fileInside(allowedDir, href, base);
      return "refused" in found ? { unavailable: refusalMessage(found, allowedDir) } : read(found.file);
    },
  };
}
