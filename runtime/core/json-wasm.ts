// The byte-level JSON work compiled to WebAssembly (compiler/json-wasm/json-wasm.wat): escaping non-ASCII characters
// for json-text.ts, the structure scan of json-structure.ts and the finding locator's walk of locate.ts, with the same
// results as their JavaScript versions, several times faster warm and at full speed from the first call in a cold
// process. Where WebAssembly or its SIMD instructions are unavailable (or a content security policy forbids compiling
// it), callers use the JavaScript.
import { JSON_WASM_BASE64 } from "#generated/json-wasm.js";
import type { ByteScan } from "./json-structure.js";

interface Instance {
  memory: WebAssembly.Memory;
  documentStart: number;
  /** The end of what the module's memory has been written to: the pages a kept instance holds on to. */
  writtenEnd: number;
  scan: (length: number) => number;
  compact: (from: number, length: number, out: number, scan: number, mostEscaped: number, splitPieceBytes: number) => number;
  compactedScan: WebAssembly.Global;
  splitTable: number;
  splitCount: WebAssembly.Global;
  locate: (length: number, tree: number, stack: number, names: number, ends: number, byteOrderMark: number, unplaced: number) => number;
}

const TOO_DEEP = 1;
const NEEDS_TEXT_PASS = 2;
const PAGE_BYTES = 64 * 1024;
/** Spaces written after the document: the module reads up to 64 bytes at a time, and spaces are neither acted on nor escaped. */
const PADDING_BYTES = 64;
/**
 * An instance whose memory was written past this serves one document and is dropped, as json-text.ts does with its
 * buffer. It holds a document of the service's default 4 MiB body limit and its compact text (and, for most such
 * documents, the escaped text too). Memory reserved but never written costs no pages, so only what was written counts.
 */
const KEPT_MEMORY_BYTES = 12 * 1024 * 1024;

let compiled: WebAssembly.Module | null | undefined; // null: not available here
let kept: Instance | undefined;

/**
 * The view documentBuffer lent out, in `instance`'s memory, until the next validation ends. Other documents loaded
 * meanwhile (a document a constraint reads, the view without its byte-order mark) go to `spare`, so that the view
 * holds what its caller read; and the lending instance's memory never grows, which would detach the view.
 */
let lent: { instance: Instance; view: Uint8Array } | undefined;
let spare: Instance | undefined;

/**
 * The document a caller keeps resident (see withResidentDocument), and where the module's memory holds it, unchanged
 * since it was copied in: the escape, the scan and the locator then copy it once instead of once each. `scan` is its
 * structure scan once made (by the scan, or by the compaction on its way), whose table of containers the module holds.
 */
let residentScope: Uint8Array | undefined;
let resident: { instance: Instance; bytes: Uint8Array; scan: ByteScan | undefined } | undefined;

/**
 * Runs `use` with `bytes` kept in the module's memory across calls on them (the caller must not change the bytes
 * meanwhile). Work on other bytes inside `use` (another document) replaces them; the next call copies them again.
 */
export function withResidentDocument<T>(bytes: Uint8Array, use: () => T): T {
  const outer = residentScope;
  residentScope = bytes;
  try {
    return use();
  } finally {
    residentScope = outer;
    if (outer === undefined) {
      resident = undefined;
      // The lent view was validated now, or given up (its read failed): another validation ends the lending too.
      endLending();
      if (kept !== undefined) release(kept);
    }
  }
}

/** The spare instance serves only while a view is lent: its memory goes with the lending. */
function endLending(): void {
  lent = undefined;
  spare = undefined;
}

/** Views of the same bytes (the escape gets the document without a byte-order mark as a view of its own). */
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.buffer === b.buffer && a.byteOffset === b.byteOffset && a.length === b.length;

/** The resident copy, when it is `bytes` in `instance`'s memory. */
function residentCopy(instance: Instance, bytes: Uint8Array): NonNullable<typeof resident> | undefined {
  return resident !== undefined && resident.instance === instance && sameBytes(resident.bytes, bytes) ? resident : undefined;
}

function instantiate(module: WebAssembly.Module): Instance {
  const { exports } = new WebAssembly.Instance(module);
  const documentStart = (exports.document_start as WebAssembly.Global).value as number;
  return {
    memory: exports.memory as WebAssembly.Memory,
    documentStart,
    writtenEnd: documentStart,
    scan: exports.scan as Instance["scan"],
    compact: exports.compact as Instance["compact"],
    compactedScan: exports.compacted_scan as WebAssembly.Global,
    splitTable: (exports.split_table as WebAssembly.Global).value as number,
    splitCount: exports.split_count as WebAssembly.Global,
    locate: exports.locate as Instance["locate"],
  };
}

function instance(): Instance | undefined {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(moduleBytes(JSON_WASM_BASE64));
    } catch {
      compiled = null;
    }
  }
  if (!compiled) return undefined;
  return (kept ??= instantiate(compiled));
}

/** Decoded with a plain loop: a mapping callback per byte costs a cold process half a millisecond. */
function moduleBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The instance that works on `bytes`: the one that lent them, if they are the lent view. */
function instanceFor(bytes: Uint8Array): Instance | undefined {
  if (lent === undefined) return instance();
  return sameBytes(bytes, lent.view) ? lent.instance : (spare ??= instantiate(compiled!));
}

/**
 * The most memory a lent view reserves, for its document and that document's texts. V8 counts the reservation as
 * external memory, and for more it starts garbage collection early: a 37 MB document read in place set off incremental
 * marking during its parse (427 marking steps, 11 ms, against 228 steps, 6 ms, copied in). Larger documents are copied
 * in, as a plain Uint8Array is.
 */
const MOST_LENT_MEMORY_BYTES = 32 * 1024 * 1024;

/** Where the texts of a document of `length` bytes end at most (see wasmOneByteText). */
const mostTextsEnd = (instance: Instance, length: number): number => textEnd(instance.documentStart + length + PADDING_BYTES, length, length);

/** Where the one-byte text written at `at` ends at most, for a document of `length` bytes (see compact in the module). */
const textEnd = (at: number, length: number, mostEscaped: number): number => at + length + 2 * Math.min(length, mostEscaped) + PADDING_BYTES;

/**
 * A view of `length` bytes of the module's memory for the caller to fill with a document and then validate
 * (validateBytes): the module reads the document where it is, so it is neither copied in nor held twice. The memory
 * for its texts is reserved now. Valid until the next validation ends (its own) or the next call; undefined during a
 * validation, where WebAssembly cannot run, for a document larger than a few megabytes (see MOST_LENT_MEMORY_BYTES) and
 * where the memory cannot grow that far.
 */
export function documentBuffer(length: number): Uint8Array | undefined {
  // During a validation, the memory holds the document being validated (it may be a lent view itself).
  if (residentScope !== undefined) return undefined;
  endLending();
  const wasm = instance();
  if (wasm === undefined) return undefined;
  const end = mostTextsEnd(wasm, length);
  if (end > MOST_LENT_MEMORY_BYTES || !reserve(wasm, end)) return undefined;
  resident = undefined;
  const view = new Uint8Array(wasm.memory.buffer, wasm.documentStart, length);
  markWritten(wasm, wasm.documentStart + length);
  lent = { instance: wasm, view };
  return view;
}

/** False when the memory cannot grow that far (past 4 GiB, or none to be had): the JavaScript versions take over. */
function reserve(instance: Instance, end: number): boolean {
  const missing = end - instance.memory.buffer.byteLength;
  if (missing <= 0) return true;
  if (lent?.instance === instance) return false; // growing would detach the lent view
  try {
    instance.memory.grow(Math.ceil(missing / PAGE_BYTES));
    return true;
  } catch {
    release(instance);
    return false;
  }
}

/**
 * Copies the document in, with its padding, unless it is resident or was read in place (documentBuffer); returns the
 * end of the padding, or undefined when it does not fit.
 */
function load(instance: Instance, bytes: Uint8Array): number | undefined {
  const end = instance.documentStart + bytes.length + PADDING_BYTES;
  if (residentCopy(instance, bytes) !== undefined) return end;
  resident = undefined;
  if (!reserve(instance, end)) return undefined;
  const view = new Uint8Array(instance.memory.buffer, instance.documentStart, bytes.length + PADDING_BYTES);
  if (lent === undefined || !sameBytes(bytes, lent.view)) view.set(bytes);
  view.fill(0x20, bytes.length);
  markWritten(instance, end);
  if (residentScope !== undefined && sameBytes(residentScope, bytes)) resident = { instance, bytes, scan: undefined };
  return end;
}

function markWritten(instance: Instance, end: number): void {
  if (end > instance.writtenEnd) instance.writtenEnd = end;
}

/** A large instance is dropped after use, but not while a caller keeps its document resident. */
function release(instance: Instance): void {
  if (residentScope !== undefined || instance.writtenEnd <= KEPT_MEMORY_BYTES) return;
  if (instance === kept) kept = undefined;
  else if (instance === spare) spare = undefined;
}

/** The structure scan of a JSON text JSON.parse has accepted, or undefined where WebAssembly cannot run it. */
export function wasmScanJsonBytes(bytes: Uint8Array): ByteScan | undefined {
  const wasm = instanceFor(bytes);
  if (wasm === undefined || load(wasm, bytes) === undefined) return undefined;
  const made = residentCopy(wasm, bytes)?.scan;
  if (made !== undefined) return made;
  const scan = byteScan(wasm.scan(bytes.length));
  recordScan(wasm, bytes, scan);
  release(wasm);
  return scan;
}

const byteScan = (flags: number): ByteScan => ({ tooDeep: (flags & TOO_DEEP) !== 0, needsTextPass: (flags & NEEDS_TEXT_PASS) !== 0 });

/**
 * Keeps the scan of a resident copy: the large containers' ends it recorded serve the locator, which reads the same
 * copy later in the validation (and the table stays as it is until the next scan, of another copy).
 */
function recordScan(wasm: Instance, bytes: Uint8Array, scan: ByteScan): void {
  const copy = residentCopy(wasm, bytes);
  if (copy !== undefined) copy.scan = scan;
}

/** Split points are recorded in texts whose offsets fit their 29 bits (see split_event in the module). */
const MOST_SPLIT_TEXT_BYTES = 2 ** 28;

/**
 * `use` applied to the one-byte text of `bytes`: without the whitespace JSON.parse would skip (see compact in the
 * module) and with each non-ASCII character as a \u escape, in the module's memory (valid during the call only). With
 * `splitPieceBytes`, also the text's split points for pieces of at most that many bytes (see json-pieces.ts), where
 * they were recorded and the structure scan made on the way found nothing the exact pass must look at (a text it
 * flags is read whole). Null when the text is better decoded as it is: it is not well-formed UTF-8, a non-ASCII
 * character follows a backslash, or it holds more than `mostEscaped` non-ASCII bytes. Undefined where WebAssembly
 * cannot run.
 */
export function wasmOneByteText<T>(
  bytes: Uint8Array,
  mostEscaped: number,
  use: (text: Uint8Array, splits: Int32Array | undefined) => T,
  splitPieceBytes = 0,
): T | null | undefined {
  const wasm = instanceFor(bytes);
  const loaded = wasm === undefined ? undefined : load(wasm, bytes);
  if (wasm === undefined || loaded === undefined) return undefined;
  try {
    // The text is written after the document, which stays as it is for the scan and the locator.
    const textAt = loaded;
    const mostEnd = textEnd(textAt, bytes.length, mostEscaped);
    if (!reserve(wasm, mostEnd)) return undefined;
    // A resident document is scanned on the way, for the scan that follows once JSON.parse has accepted the text.
    const scanning = residentCopy(wasm, bytes) !== undefined;
    const recording = scanning && splitPieceBytes > 0 && mostEnd - textAt < MOST_SPLIT_TEXT_BYTES;
    const textLength = wasm.compact(wasm.documentStart, bytes.length, textAt, scanning ? 1 : 0, mostEscaped, recording ? splitPieceBytes : 0);
    // A declined text was written only in part, but to where is not told.
    markWritten(wasm, textLength >= 0 ? textAt + textLength : mostEnd);
    const flags = wasm.compactedScan.value as number;
    if (scanning && flags >= 0) recordScan(wasm, bytes, byteScan(flags));
    if (textLength < 0) return null;
    const splitCount = wasm.splitCount.value as number;
    const splits = recording && flags === 0 && splitCount >= 0 ? new Int32Array(wasm.memory.buffer, wasm.splitTable, splitCount) : undefined;
    return use(new Uint8Array(wasm.memory.buffer, textAt, textLength), splits);
  } finally {
    release(wasm);
  }
}

/**
 * Bytes of the stack frame of each container the locator's walk is inside of, of the room it decodes a member name with
 * escapes in, and of the hash table of recorded ends.
 */
const WALK_FRAME_BYTES = 16;
const WALK_NAME_BYTES = 4 * 1024;
const WALK_ENDS_BYTES = 16 * 1024;

/**
 * The finding locator's walk (see locate in the module) over `bytes`, a text JSON.parse has accepted: `tree` is the
 * tree of the requested pointers as locate.ts lays it out, `depth` its depth, and the walk ends once `unplaced`
 * requests are placed. Returns `read` applied to the tree as the walk left it (its nodes hold the positions), or
 * undefined where WebAssembly cannot run, where the memory cannot hold the tree, and when the walk met a member name
 * with escapes it does not decode (over 4 KiB, or a lone surrogate), which the JavaScript scan compares decoded. Where
 * the resident copy's structure scan recorded the large containers, the walk passes them by counting their line feeds
 * alone.
 */
export function wasmLocate<T>(bytes: Uint8Array, tree: Uint8Array, depth: number, byteOrderMark: number, unplaced: number, read: (walked: Int32Array) => T): T | undefined {
  const wasm = instanceFor(bytes);
  if (wasm === undefined) return undefined;
  try {
    const documentEnd = load(wasm, bytes);
    if (documentEnd === undefined) return undefined;
    const treeAt = (documentEnd + 15) & ~15;
    const stackAt = treeAt + tree.length;
    const namesAt = stackAt + WALK_FRAME_BYTES * depth;
    const endsAt = residentCopy(wasm, bytes)?.scan !== undefined ? namesAt + WALK_NAME_BYTES : 0;
    const end = namesAt + WALK_NAME_BYTES + (endsAt !== 0 ? WALK_ENDS_BYTES : 0);
    if (!reserve(wasm, end)) return undefined;
    markWritten(wasm, end);
    new Uint8Array(wasm.memory.buffer, treeAt, tree.length).set(tree);
    if (wasm.locate(bytes.length, treeAt, stackAt, namesAt, endsAt, byteOrderMark, unplaced) !== 0) return undefined;
    return read(new Int32Array(wasm.memory.buffer, treeAt, tree.length >> 2));
  } finally {
    release(wasm);
  }
}
