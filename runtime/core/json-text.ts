// The text JSON.parse reads, made so that V8 holds it at one byte per character. Decoding UTF-8 to a JavaScript string
// costs as much as parsing it whenever a document has a single non-ASCII character (the whole string becomes UTF-16),
// and JSON.parse is slower on such strings too. Instead, ASCII stretches are copied as they are and each non-ASCII
// character becomes a \uXXXX escape, which JSON.parse reads back to the same string value. Outside strings a
// non-ASCII character is invalid JSON either way, so the verdict does not change; only error positions would, which is
// why callers locate syntax errors on the properly decoded text. The one place an escape would change the verdict, a
// non-ASCII character right after a backslash, is left to the decoder. Where WebAssembly runs, the text also leaves
// out the whitespace JSON.parse would only skip (compact in compiler/json-wasm/json-wasm.wat), as V8 allocates and
// parses a shorter string for less; it holds the same tokens, so the verdict does not change either.
import { Buffer, isAscii, isUtf8 } from "node:buffer";
import { byteOrderMarkLength } from "./json-bytes.js";
import { parseInPieces, PIECE_BYTES } from "./json-pieces.js";
import { wasmOneByteText } from "./json-wasm.js";

// Non-ASCII characters are rare and clustered: large blocks find them, and only the small blocks that hold one are
// rewritten byte by byte.
const OUTER_BLOCK_BYTES = 64 * 1024;
const INNER_BLOCK_BYTES = 1024;
const HEX = "0123456789abcdef";
const KEPT_OUTPUT_BYTES = 8 * 1024 * 1024;
/** Past 1 MiB, the bytes escaped (non-ASCII bytes; in JavaScript, the blocks holding them) may be at most 1/4 of the document. */
const ALWAYS_ESCAPED_BYTES = 1024 * 1024;
const MAX_ESCAPED_SHARE = 4;
let keptOutput = Buffer.alloc(0);
// Decodes ASCII to a one-byte string on V8's heap (UTF-8 decoding of pure ASCII takes that fast path).
// Buffer#toString("latin1") is faster but makes strings over about 1 MB external, and external memory brings on a full
// garbage collection every few large documents.
const asciiDecoder = new TextDecoder("utf-8");

/**
 * A one-byte JSON text equivalent to `bytes` for JSON.parse, or undefined when this shortcut does not apply (not
 * well-formed UTF-8, mostly non-ASCII text, or a non-ASCII character after a backslash): decode the bytes then.
 */
export function asciiJsonText(bytes: Uint8Array): string | undefined {
  return oneByteText(bytes, true);
}

/** The same without WebAssembly, as where it cannot run. */
export function asciiJsonTextInJs(bytes: Uint8Array): string | undefined {
  return oneByteText(bytes, false);
}

/** What JSON.parse needs of a document: its one-byte text, or, for a large document, the value parsed in pieces. */
export type OneByteJson = { text: string } | { value: unknown };

/**
 * For JSON.parse, the one-byte text of `bytes` (see asciiJsonText) or, when it is larger than a piece, within the bound
 * of mostPiecedTextBytes, and WebAssembly recorded its split points, its value, parsed in pieces (json-pieces.ts),
 * which throws a SyntaxError where JSON.parse of the text would. Undefined when the shortcut does not apply: decode the
 * bytes then.
 */
export function oneByteJson(bytes: Uint8Array): OneByteJson | undefined {
  const body = bytes.subarray(byteOrderMarkLength(bytes));
  const made = wasmOneByteText(
    body,
    mostEscapedBytes(body.length),
    (oneByte, splits): OneByteJson => {
      // No split points: a scalar (a container larger than a piece has some), a text not kept resident or flagged by
      // the scan for the exact pass, or more split points than the module's table holds.
      const inPieces = splits !== undefined && splits.length > 0 && oneByte.length > PIECE_BYTES && oneByte.length <= mostPiecedTextBytes();
      if (oneByte.length > MOST_PIECED_FIRST_TEXT_BYTES) largeTextRead = true;
      return inPieces ? { value: parseInPieces(oneByte, splits, decodeAscii) } : { text: decodeAscii(oneByte) };
    },
    body.length > PIECE_BYTES ? PIECE_BYTES : 0,
  );
  if (made !== undefined) return made ?? undefined;
  const text = oneByteText(bytes, false);
  return text === undefined ? undefined : { text };
}

const decodeAscii = (ascii: Uint8Array): string => asciiDecoder.decode(ascii);

/**
 * The largest text parsed in pieces. A text whole is one string in V8's large-object space, on pages of its own that
 * are mapped afresh for each document and returned after it; pieces are strings in the young generation, whose pages
 * stay mapped, but each megabyte of them brings on garbage collections that copy the document parsed so far. Which
 * weighs more is the host's. Where a first touch of a page is cheap, pieces lost on documents of several megabytes
 * with thousands of findings (CMS ARS 3.1 9% slower at full), which set an earlier bound of 1 MiB. On a virtual
 * machine whose page faults cost 15 µs each, they won by 15 to 25% on 8 of the 16 corpus documents past a megabyte
 * (the SP 800-53 catalog 16 ms against 20 at full, CMS ARS 3.1 8 to 9 against 10.5 to 11.6, MITRE D3FEND 31 against
 * 37), the rest within the noise, and on a 12 MB catalog at schema (113 against 128 ms).
 */
export const MOST_PIECED_TEXT_BYTES = 16 * 1024 * 1024;

/**
 * Past this, a process's first text is read whole all the same. In a fresh process the pieces save no pages (the young
 * generation is touched for the first time too, and grows meanwhile) and their code runs before V8 has compiled it: a
 * cold CLI run on the SP 800-53 catalog took 211 ms with it in pieces against 204 ms whole (medians of 40 alternated
 * processes). What counts is the first text past this bound, not how warm the process is otherwise: a service reads
 * one large document whole after any number of small ones. Only a text made in WebAssembly counts; elsewhere there are
 * no pieces.
 */
export const MOST_PIECED_FIRST_TEXT_BYTES = 1024 * 1024;
let largeTextRead = false;

const mostPiecedTextBytes = (): number => (largeTextRead ? MOST_PIECED_TEXT_BYTES : MOST_PIECED_FIRST_TEXT_BYTES);

function oneByteText(bytes: Uint8Array, withWasm: boolean): string | undefined {
  const start = byteOrderMarkLength(bytes);
  const body = bytes.subarray(start);
  if (withWasm) {
    const text = wasmOneByteText(body, mostEscapedBytes(body.length), decodeAscii);
    if (text !== undefined) return text ?? undefined;
  }
  if (isAscii(body)) return asciiDecoder.decode(body);
  if (!isUtf8(bytes)) return undefined;

  // Blocks as (start, end, escaped) triples, never splitting a character; non-ASCII blocks are narrowed before escaping.
  const blocks: number[] = [];
  collectBlocks(bytes, start, bytes.length, OUTER_BLOCK_BYTES, blocks);
  let escapedBytes = 0;
  for (let b = 0; b < blocks.length; b += 3) if (blocks[b + 2]) escapedBytes += blocks[b + 1]! - blocks[b]!;
  if (!worthEscaping(escapedBytes, body.length)) return undefined;
  // An escaped block grows at most 3-fold (a 2-byte character becomes one 6-byte escape, a 4-byte one two).
  const outputBound = bytes.length - start + 2 * escapedBytes;
  const output = outputBuffer(outputBound);
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let written = 0;
  for (let b = 0; b < blocks.length; b += 3) {
    const from = blocks[b]!;
    const to = blocks[b + 1]!;
    if (!blocks[b + 2]) written += input.copy(output, written, from, to);
    else {
      written = escapeNonAscii(bytes, from, to, output, written);
      if (written < 0) return undefined;
    }
  }
  return asciiDecoder.decode(output.subarray(0, written));
}

/** Large, mostly non-ASCII text gains little from escaping and would need a much larger copy: the decoder handles it. */
function worthEscaping(escapedBytes: number, length: number): boolean {
  return escapedBytes <= mostEscapedBytes(length);
}

const mostEscapedBytes = (length: number): number => Math.max(ALWAYS_ESCAPED_BYTES, Math.floor(length / MAX_ESCAPED_SHARE));

function collectBlocks(bytes: Uint8Array, from: number, to: number, size: number, blocks: number[]): void {
  for (let blockStart = from; blockStart < to; ) {
    let blockEnd = Math.min(blockStart + size, to);
    while (blockEnd < to && (bytes[blockEnd]! & 0xc0) === 0x80) blockEnd++; // past continuation bytes (10xxxxxx)
    if (isAscii(bytes.subarray(blockStart, blockEnd))) blocks.push(blockStart, blockEnd, 0);
    else if (size > INNER_BLOCK_BYTES) collectBlocks(bytes, blockStart, blockEnd, INNER_BLOCK_BYTES, blocks);
    else blocks.push(blockStart, blockEnd, 1);
    blockStart = blockEnd;
  }
}

/**
 * A fresh Buffer per document is external memory, which also brings on full collections; one kept for documents of
 * ordinary size avoids that without holding on to the memory of an exceptionally large one.
 */
function outputBuffer(size: number): Buffer {
  if (size > KEPT_OUTPUT_BYTES) return Buffer.allocUnsafe(size);
  if (keptOutput.length < size) keptOutput = Buffer.allocUnsafe(Math.max(size, Math.min(KEPT_OUTPUT_BYTES, keptOutput.length * 2)));
  return keptOutput;
}

/**
 * Writes bytes[from, to), well-formed UTF-8, into `out` at `at` as ASCII with \uXXXX escapes (surrogate pairs above
 * U+FFFF). Returns the end of what it wrote, or -1 for a non-ASCII character right after a backslash.
 */
function escapeNonAscii(bytes: Uint8Array, from: number, to: number, out: Buffer, at: number): number {
  let written = at;
  const escape = (unit: number): void => {
    out[written++] = 0x5c; // backslash
    out[written++] = 0x75; // u
    for (let shift = 12; shift >= 0; shift -= 4) out[written++] = HEX.charCodeAt((unit >> shift) & 0xf);
  };
  for (let i = from; i < to; ) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      out[written++] = lead;
      i++;
      continue;
    }
    if (i > 0 && bytes[i - 1] === 0x5c) return -1;
    let codePoint: number;
    if (lead < 0xe0) {
      codePoint = ((lead & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
      i += 2;
    } else if (lead < 0xf0) {
      codePoint = ((lead & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
      i += 3;
    } else {
      codePoint = ((lead & 0x07) << 18) | ((bytes[i + 1]! & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f);
      i += 4;
    }
    if (codePoint < 0x10000) escape(codePoint);
    else {
      escape(0xd800 + ((codePoint - 0x10000) >> 10));
      escape(0xdc00 + ((codePoint - 0x10000) & 0x3ff));
    }
  }
  return written;
}
