// Reads an input file for validation. A JSON file is read straight into the memory the core validates it from
// (documentBuffer): a large document is then neither copied again nor held twice, which in a cold process saves the
// first touches of as many fresh pages as the file is large.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { documentBuffer } from "../core/validate.js";

/**
 * The bytes of `file` (the descriptor of standard input when a number). Where the core's memory cannot take a JSON
 * file, and for what is not a regular file of a known size (a pipe, a device) or a file whose size changes as it is
 * read, the bytes are read the plain way.
 */
export function readInput(file: string | number, json: boolean): Uint8Array {
  if (typeof file === "number" || !json) return readFileSync(file);
  const descriptor = openSync(file, "r");
  try {
    const stats = fstatSync(descriptor);
    const buffer = stats.isFile() && stats.size > 0 ? documentBuffer(stats.size) : undefined;
    // Positional reads leave the descriptor at the start, for the plain read.
    if (buffer !== undefined && readAt(descriptor, buffer, 0) === buffer.length && readAt(descriptor, new Uint8Array(1), buffer.length) === 0) return buffer;
    return readFileSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
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
