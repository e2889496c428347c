// What JSON.parse does not check, checked before validation:
// - nesting depth: the validators recurse with the document, so a deep one would exhaust the stack at a depth that
//   depends on JIT warm-up; a fixed limit makes the answer the same in a cold worker and a warm one;
// - duplicate member names: JSON.parse keeps the last, a first-wins parser downstream sees another document;
// - characters no OSCAL text carries through its XML form (XML 1.0 excludes U+0000, the other C0 controls but tab,
//   LF and CR, and lone surrogates). In JSON text they can only arrive as \u escapes.
// Bytes are scanned once, in linear time, without decoding; only a document the scan flags (a duplicate name, an
// escaped name or a suspicious escape) is walked again, on its text, to name the exact findings and their paths.
import type { BodyError } from "./body.js";
import type { ValidationIssue } from "./report.js";
import { pathNames, pathNode, type PathNode } from "./json-pointer.js";
import { boundedLocation } from "./issue-bounds.js";
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from "./json-bytes.js";
import { wasmScanJsonBytes } from "./json-wasm.js";

/** Deepest nesting of arrays and objects validated (the root object is level 1). Real OSCAL nests about 20 levels. */
export const MAX_NESTING_DEPTH = 256;

export const NESTING_TOO_DEEP: BodyError = {
  code: "ERR_PAYLOAD_TOO_LARGE",
  detail: `The document nests too deeply to be validated: more than ${MAX_NESTING_DEPTH} levels of arrays and objects, the most this service accepts (OSCAL documents nest a few dozen).`,
  resolution: "Restructure the document so that groups, controls and parts nest at most a few hundred levels deep.",
};

export const JSON_RULES = {
  duplicateName: { ruleId: "JSON-001.a", keyword: "duplicate-name" },
  loneSurrogate: { ruleId: "JSON-002.a", keyword: "lone-surrogate" },
  controlCharacter: { ruleId: "JSON-003.a", keyword: "control-character" },
} as const;

export interface ByteScan {
  tooDeep: boolean;
  /** The text needs the exact pass: a name may repeat, a name is escaped, or an escape may denote an excluded character. */
  needsTextPass: boolean;
}

const U = 0x75;
/** Objects with more names than this keep them in a Set rather than a list searched from the start. */
const LISTED_NAMES = 16;

/** 1 for the bytes the scan acts on outside strings: quote, brackets, braces and comma. */
const STRUCTURAL = new Uint8Array(256);
for (const byte of [QUOTE, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY, COMMA]) STRUCTURAL[byte] = 1;

/**
 * One pass over the bytes of a JSON text (which JSON.parse has accepted): nesting depth, and a hash of every member
 * name per object; equal hashes only flag the text for the exact pass. In WebAssembly where it runs, else in
 * JavaScript, with the same answers.
 */
export function scanJsonBytes(bytes: Uint8Array): ByteScan {
  return wasmScanJsonBytes(bytes) ?? scanJsonBytesInJs(bytes);
}

/** The structure scan in JavaScript. Linear: each byte is read or searched once, escapes aside (four more bytes). */
export function scanJsonBytesInJs(bytes: Uint8Array): ByteScan {
  const isObject = new Uint8Array(MAX_NESTING_DEPTH + 1);
  const names = new MemberNames();
  let depth = 0;
  let expectName = false;
  let needsTextPass = false;
  // Where the next quote and the next backslash are (bytes.length when none is left), each searched again only once
  // passed: searching afresh at every escape of a long string would read the rest of the string at each.
  let quote = -1;
  let backslash = -1;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    // Most bytes outside strings are indentation, digits and colons: one table look-up passes them.
    if (STRUCTURAL[c] === 0) continue;
    if (c === QUOTE && expectName) {
      expectName = false;
      let hash = 0x811c9dc5; // FNV-1a over the name's bytes
      for (i++; i < bytes.length; i++) {
        const d = bytes[i]!;
        if (d === QUOTE) break;
        if (d === BACKSLASH) {
          needsTextPass = true; // an escaped name is compared exactly in the text pass
          i++;
        } else {
          hash = Math.imul(hash ^ d, 0x01000193);
        }
      }
      if (!names.add(depth, hash)) needsTextPass = true;
    } else if (c === QUOTE) {
      // String values hold most of a document's bytes: short ones are read byte by byte, long ones (prose) are
      // jumped over with native searches for the closing quote and for the backslashes before it.
      const shortEnd = Math.min(i + 1 + SHORT_STRING, bytes.length);
      for (i++; i < shortEnd; i++) {
        const d = bytes[i]!;
        if (d === QUOTE) break;
        if (d === BACKSLASH) {
          // A \u escape that may denote an excluded character sends the text to the exact pass.
          if (bytes[i + 1] === U && isExcludedEscape(bytes, i + 2)) needsTextPass = true;
          i++;
        }
      }
      if (i >= shortEnd && i < bytes.length) {
        for (;;) {
          if (quote < i) quote = nextIndex(bytes, QUOTE, i);
          if (backslash < i) backslash = nextIndex(bytes, BACKSLASH, i);
          if (backslash > quote || quote === bytes.length) {
            i = quote;
            break;
          }
          if (bytes[backslash + 1] === U && isExcludedEscape(bytes, backslash + 2)) needsTextPass = true;
          i = backslash + 2;
        }
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > MAX_NESTING_DEPTH) return { tooDeep: true, needsTextPass };
      isObject[depth] = c === OPEN_OBJECT ? 1 : 0;
      expectName = c === OPEN_OBJECT;
      if (expectName) names.open(depth);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      expectName = false;
    } else if (c === COMMA) {
      expectName = isObject[depth] === 1;
    }
  }
  return { tooDeep: false, needsTextPass };
}

/** Bytes of a string value read one by one before the scan switches to native searches. */
const SHORT_STRING = 32;

function nextIndex(bytes: Uint8Array, byte: number, from: number): number {
  const at = bytes.indexOf(byte, from);
  return at < 0 ? bytes.length : at;
}

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) {
  HEX_VALUE["0123456789abcdef".charCodeAt(d)] = d;
  HEX_VALUE["0123456789ABCDEF".charCodeAt(d)] = d;
}

/** Whether the four hex digits at `at` denote an excluded control character or a surrogate (paired ones too). */
function isExcludedEscape(bytes: Uint8Array, at: number): boolean {
  let unit = 0;
  for (let k = 0; k < 4; k++) unit = (unit << 4) | (HEX_VALUE[bytes[at + k]! & 0x7f] ?? 0);
  return isExcludedControl(unit) || (unit >= 0xd800 && unit <= 0xdfff);
}

function isExcludedControl(unit: number): boolean {
  return unit < 0x20 && unit !== 0x09 && unit !== 0x0a && unit !== 0x0d;
}

/** The member-name hashes of the open object at each depth. */
class MemberNames {
  private readonly lists: number[][] = [];
  private readonly sets: Set<number>[] = [];

  open(depth: number): void {
    (this.lists[depth] ??= []).length = 0;
    this.sets[depth]?.clear();
  }

  /** False when the object at `depth` already has a name with this hash. */
  add(depth: number, hash: number): boolean {
    const list = this.lists[depth]!;
    if (list.length < LISTED_NAMES) {
      if (list.includes(hash)) return false;
      list.push(hash);
      return true;
    }
    const set = (this.sets[depth] ??= new Set());
    if (set.size === 0) for (const listed of list) set.add(listed);
    if (set.has(hash)) return false;
    set.add(hash);
    return true;
  }
}

const EXCLUDED_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a JavaScript string (text not scanned as bytes) may hold a lone surrogate of its own. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

interface Container {
  /** Names seen so far; undefined for an array. */
  names: Set<string> | undefined;
  /** Where the container lies: the parent of every value in it. */
  at: PathNode | undefined;
  /** The member name or item index of the value being read. */
  key: string | number;
  items: number;
}

/**
 * The exact pass, on a text JSON.parse has accepted: every repeated member name, every string (name or value) holding
 * an excluded character, each at its RFC 6901 pointer (cut as a report cuts it). Linear in the text, however deep and
 * long the paths: each value costs O(1) besides its own characters, and a finding's path is spelled out only when read
 * (see finding). Run only on texts the byte scan flags.
 */
export function textFindings(text: string): ValidationIssue[] {
  const findings: ValidationIssue[] = [];
  const containers: Container[] = [];
  const startValue = (): void => {
    const top = containers[containers.length - 1];
    if (top && top.names === undefined) top.key = top.items++;
  };
  /** Where the value being read lies (or its member name). */
  const here = (): PathNode | undefined => {
    const top = containers[containers.length - 1];
    return top && pathNode(top.at, top.key);
  };
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const raw = text.slice(i + 1, end);
      const value = raw.includes("\\") ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
      i = end;
      const top = containers[containers.length - 1];
      if (expectName && top?.names) {
        expectName = false;
        top.key = value;
        if (top.names.has(value)) findings.push(finding("duplicateName", here(), "Duplicate member name: JSON parsers disagree on which value counts (most keep the last, some the first); each name may appear once per object."));
        top.names.add(value);
        characterFindings(value, here, "The member name", findings);
      } else {
        startValue();
        characterFindings(value, here, "The string", findings);
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      startValue();
      containers.push({ names: c === OPEN_OBJECT ? new Set() : undefined, at: here(), key: "", items: 0 });
      expectName = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      containers.pop();
      expectName = false;
    } else if (c === COMMA) {
      expectName = containers[containers.length - 1]?.names !== undefined;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      startValue(); // a number, true, false or null
      while (i + 1 < text.length && !SCALAR_END.has(text.charCodeAt(i + 1))) i++;
    }
  }
  return findings;
}

const SCALAR_END = new Set([COMMA, CLOSE_OBJECT, CLOSE_ARRAY, 0x20, 0x09, 0x0a, 0x0d]);

function stringEnd(text: string, open: number): number {
  let i = open + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i;
    i += c === BACKSLASH ? 2 : 1;
  }
}

/** `at` gives where `value` lies; it is asked only when there is a finding. */
function characterFindings(value: string, at: () => PathNode | undefined, what: string, findings: ValidationIssue[]): void {
  if (LONE_SURROGATE.test(value)) {
    findings.push(finding("loneSurrogate", at(), `${what} holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape), which is not a character: no OSCAL text can carry it, in JSON or XML.`));
  }
  if (EXCLUDED_CONTROL.test(value)) {
    findings.push(finding("controlCharacter", at(), `${what} holds a control character (U+0000 to U+001F other than tab, line feed and carriage return), which no OSCAL text can carry through its XML form.`));
  }
}

/**
 * A finding whose path and message are made when first read, as a report shows them (a long path cut, with a note):
 * a report reads only those it lists (the first 200 by default), and each costs what it shows. Spelling out the full
 * pointer of every finding of a document with many findings deep under long names would take time and memory
 * quadratic in its size.
 */
function finding(rule: keyof typeof JSON_RULES, at: PathNode | undefined, message: string): ValidationIssue {
  let shown: { path: string; message: string } | undefined;
  const show = () => (shown ??= boundedLocation(message, pathNames(at), at?.pointerLength ?? 0));
  return {
    ...JSON_RULES[rule],
    get path() {
      return show().path;
    },
    get message() {
      return show().message;
    },
    severity: "error",
  };
}

/**
 * The same checks for a document that is already a JavaScript value, without recursion: depth first, then (only
 * when some string holds an excluded character) a second walk that names them with their paths. Linear in the
 * number of values.
 */
export function checkParsedDocument(document: unknown): { tooDeep: true } | { tooDeep: false; findings: ValidationIssue[] } {
  const values: unknown[] = [document];
  const depths: number[] = [0];
  let suspect = false;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (typeof value === "string") {
      if (!suspect && (EXCLUDED_CONTROL.test(value) || LONE_SURROGATE.test(value))) suspect = true;
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth + 1 > MAX_NESTING_DEPTH) return { tooDeep: true };
    if (Array.isArray(value)) {
      for (const item of value) {
        values.push(item);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      if (!suspect && (EXCLUDED_CONTROL.test(key) || LONE_SURROGATE.test(key))) suspect = true;
      values.push((value as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return { tooDeep: false, findings: suspect ? parsedFindings(document) : [] };
}

function parsedFindings(document: unknown): ValidationIssue[] {
  const findings: ValidationIssue[] = [];
  const pending: { value: unknown; at: PathNode | undefined }[] = [{ value: document, at: undefined }];
  while (pending.length > 0) {
    const { value, at } = pending.pop()!;
    if (typeof value === "string") characterFindings(value, () => at, "The string", findings);
    if (typeof value !== "object" || value === null) continue;
    const keys = Object.keys(value);
    const members = keys.map((key) => ({ value: (value as Record<string, unknown>)[key], at: pathNode(at, key) }));
    if (!Array.isArray(value)) keys.forEach((key, k) => characterFindings(key, () => members[k]!.at, "The member name", findings));
    // Pushed last to first, so that values are reported in document order.
    for (let k = members.length - 1; k >= 0; k--) pending.push(members[k]!);
  }
  return findings;
}
