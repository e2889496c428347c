// Reads an input for validation, never more than a stated bound, and never from something that is not a file unless
// it was asked for: a device or FIFO a walk finds is refused unopened (opening a FIFO waits for a writer, and a device
// such as /dev/zero never ends), and any input larger than the bound is refused once the bound is passed, so no input
// can make the CLI read without end. A JSON file is read straight into the memory the core validates it from
// (documentBuffer): a large document is then neither copied again nor held twice, which in a cold process saves the
// first touches of as many fresh pages as the file is large.
import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { documentBuffer } from "../core/validate.js";
import type { InputFormat } from "./input-format.js";
import { oscalSniffer } from "./oscal-sniff.js";
import { waitBriefly } from "./terminal.js";

/** The default of --max-file-size: some 25 times the largest OSCAL document published (NIST's catalogs, 10 MB). */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024;

/** What a walk reads of a file before it decides whether it is an OSCAL document, and how much at a time after. */
const SNIFF_CHUNK_BYTES = 64 * 1024;

/** An input that cannot be validated; the message is the whole detail shown for it. */
export class UnreadableInput extends Error {}

export interface ReadSettings {
  /** Larger inputs are refused. */
  maxBytes: number;
  /** Found by a walk: read only when it is a regular file holding an OSCAL document (else the result is undefined). */
  onlyOscal: boolean;
}

const UNITS = [
  ["GiB", 1024 ** 3],
  ["MiB", 1024 ** 2],
  ["KiB", 1024],
] as const;

/** `256 MiB`, `1.5 GiB`, `100 bytes`: sizes as a person reads them. */
function formatBytes(bytes: number): string {
  for (const [unit, size] of UNITS) if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  return `${bytes} byte${bytes === 1 ? "" : "s"}`;
}

/** `size` is known for a regular file, which is then not read; a stream is read up to the bound. */
function tooLarge(name: string, maxBytes: number, size?: number): UnreadableInput {
  const limit = `the ${formatBytes(maxBytes)} --max-file-size allows`;
  return new UnreadableInput(
    size === undefined ? `Too large: ${name} holds more than ${limit}; reading stopped there.` : `Too large: ${name} is ${formatBytes(size)}, more than ${limit}; it was not read.`,
  );
}

/** The reason a file system call failed, worded for the person who named the file. */
export function describeFailure(file: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ENOENT":
    case "ENOTDIR":
      return `File not found: ${file}.`;
    case "EACCES":
    case "EPERM":
      return `Permission denied: ${file}.`;
    case "ELOOP":
      return `Symbolic link loop: ${file} cannot be resolved.`;
    case "EISDIR":
      return `Not a file: ${file} is a directory.`;
    default:
      return `Cannot read ${file}: ${error.code ?? error.message}.`;
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

/** Standard input, read up to the bound. */
export function readStandardInput(maxBytes: number): Uint8Array {
  return readBounded(0, maxBytes, "standard input");
}

/**
 * The bytes of `file`, or undefined for a file a walk found that is not an OSCAL document. A FIFO is read only when
 * named (process substitution, `<(curl ...)`, hands the CLI one), up to the bound like standard input.
 */
export function readInput(file: string, format: InputFormat, settings: ReadSettings): Uint8Array | undefined {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (error) {
    throw new UnreadableInput(describeFailure(file, error as NodeJS.ErrnoException));
  }
  const namedPipe = stats.isFIFO() && !settings.onlyOscal;
  if (!stats.isFile() && !namedPipe) throw new UnreadableInput(`Not a regular file: ${file} is ${kindOf(stats)}; it was not read.`);
  let descriptor: number;
  try {
    descriptor = openSync(file, "r");
  } catch (error) {
    throw new UnreadableInput(describeFailure(file, error as NodeJS.ErrnoException));
  }
  try {
    if (namedPipe) return readBounded(descriptor, settings.maxBytes, file);
    const { size } = fstatSync(descriptor);
    if (settings.onlyOscal && !isOscal(descriptor, size, format, size > settings.maxBytes)) return undefined;
    if (size > settings.maxBytes) throw tooLarge(file, settings.maxBytes, size);
    return readRegular(descriptor, size, format, settings.maxBytes, file);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Whether the file holds an OSCAL document, read in chunks until the bytes settle it. For a file over the bound only
 * its first chunk is read: what that does not settle is taken as a document, to be refused as too large.
 */
function isOscal(descriptor: number, size: number, format: InputFormat, headOnly: boolean): boolean {
  const sniffer = oscalSniffer(format);
  // A file that says it is empty may not be (procfs): it is read in whole chunks too.
  const chunk = Buffer.allocUnsafe(size > 0 ? Math.min(size, SNIFF_CHUNK_BYTES) : SNIFF_CHUNK_BYTES);
  for (let position = 0; ; ) {
    const count = readSync(descriptor, chunk, 0, chunk.length, position);
    if (count === 0) return sniffer.end() === "oscal";
    position += count;
    const sniffed = sniffer.feed(chunk.subarray(0, count));
    if (sniffed !== "undecided") return sniffed === "oscal";
    if (headOnly) return true;
  }
}

/**
 * A regular file's bytes, read at once into a buffer of its size (for JSON, in the core's memory where it can take
 * them). For a file whose size changed since it was measured, the bytes are read the plain way, still up to the bound.
 */
function readRegular(descriptor: number, size: number, format: InputFormat, maxBytes: number, name: string): Uint8Array {
  const buffer = size === 0 ? undefined : ((format === "json" ? documentBuffer(size) : undefined) ?? Buffer.allocUnsafe(size));
  // Positional reads leave the descriptor at the start, for the plain read.
  if (buffer !== undefined && readAt(descriptor, buffer, 0) === buffer.length && readAt(descriptor, new Uint8Array(1), buffer.length) === 0) return buffer;
  return readBounded(descriptor, maxBytes, name);
}

/** Fills `into` from byte `position` of the file; returns how many bytes there were (fewer at the end of the file). */
function readAt(descriptor: number, into: Uint8Array, position: number): number {
  let filled = 0;
  while (filled < into.length) {
    const count = readSync(descriptor, into, filled, into.length - filled, position + filled);
    if (count === 0) break;
    filled += count;
  }
  return filled;
}

/** Everything left to read from `descriptor`, refused as soon as it passes `maxBytes`. */
function readBounded(descriptor: number, maxBytes: number, name: string): Uint8Array {
  const chunks: Buffer[] = [];
  const chunk = Buffer.allocUnsafe(SNIFF_CHUNK_BYTES);
  let total = 0;
  for (;;) {
    let count: number;
    try {
      count = readSync(descriptor, chunk, 0, chunk.length, null);
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      // A pipe another process made non-blocking has nothing yet; Windows says EOF where others read 0 bytes.
      if (code === "EAGAIN") {
        waitBriefly();
        continue;
      }
      if (code === "EOF") break;
      throw new UnreadableInput(describeFailure(name, error as NodeJS.ErrnoException));
    }
    if (count === 0) break;
    total += count;
    if (total > maxBytes) throw tooLarge(name, maxBytes);
    chunks.push(Buffer.from(chunk.subarray(0, count)));
  }
  return Buffer.concat(chunks, total);
}
