// The structure scan compiled to WebAssembly (compiler/json-scan/json-scan.wat): the same answers as the JavaScript
// scan in json-structure.ts, several times faster warm, and at full speed from the first call in a cold process. Where
// WebAssembly or its SIMD instructions are unavailable (or a content security policy forbids compiling it), callers
// use the JavaScript scan.
import { JSON_SCAN_WASM_BASE64 } from "#generated/json-scan.js";
import type { ByteScan } from "./json-structure.js";

interface Scanner {
  memory: WebAssembly.Memory;
  scan: (length: number) => number;
  documentStart: number;
}

const TOO_DEEP = 1;
const NEEDS_TEXT_PASS = 2;
const PAGE_BYTES = 64 * 1024;
/** Spaces written after the document: the scanner reads 16 bytes at a time, and spaces are never acted on. */
const PADDING_BYTES = 16;
/** A scanner whose memory grew past this serves one document and is dropped, as json-text.ts does with its buffer. */
const KEPT_MEMORY_BYTES = 8 * 1024 * 1024;

let compiled: WebAssembly.Module | null | undefined; // null: not available here
let kept: Scanner | undefined;

function instantiate(module: WebAssembly.Module): Scanner {
  const { exports } = new WebAssembly.Instance(module);
  return {
    memory: exports.memory as WebAssembly.Memory,
    scan: exports.scan as (length: number) => number,
    documentStart: (exports.document_start as WebAssembly.Global).value as number,
  };
}

function scannerFor(documentBytes: number): Scanner | undefined {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Uint8Array.from(atob(JSON_SCAN_WASM_BASE64), (c) => c.charCodeAt(0)));
      kept = instantiate(compiled);
    } catch {
      compiled = null;
    }
  }
  if (!compiled || !kept) return undefined;
  const needed = kept.documentStart + documentBytes + PADDING_BYTES;
  const scanner = needed > KEPT_MEMORY_BYTES ? instantiate(compiled) : kept;
  const missing = needed - scanner.memory.buffer.byteLength;
  if (missing > 0) scanner.memory.grow(Math.ceil(missing / PAGE_BYTES));
  return scanner;
}

/** The structure scan of a JSON text JSON.parse has accepted, or undefined where WebAssembly cannot run it. */
export function wasmScanJsonBytes(bytes: Uint8Array): ByteScan | undefined {
  const scanner = scannerFor(bytes.length);
  if (scanner === undefined) return undefined;
  const view = new Uint8Array(scanner.memory.buffer, scanner.documentStart, bytes.length + PADDING_BYTES);
  view.set(bytes);
  view.fill(0x20, bytes.length);
  const flags = scanner.scan(bytes.length);
  return { tooDeep: (flags & TOO_DEEP) !== 0, needsTextPass: (flags & NEEDS_TEXT_PASS) !== 0 };
}
