// Places findings in the submitted text: the line and column of what each finding's JSON Pointer names. It runs only
// for documents with findings, as one pass over the original UTF-8 bytes for all of a document's findings (the core
// parses an escaped copy of the text, whose offsets differ), and it walks into a container only when a finding lies
// inside it: everything else is skipped bracket by bracket. The walk runs in WebAssembly (locate in json-wasm.wat)
// where it can, and here otherwise.
import type { ValidationIssue } from "./report.js";
import { unescapeToken } from "./json-pointer.js";
import { wasmLocate } from "./json-wasm.js";
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, LINE_FEED, OPEN_ARRAY, OPEN_OBJECT, QUOTE, byteOrderMarkLength } from "./json-bytes.js";

export interface SourcePosition {
  /** 1-based; lines end at LF (a CR before it belongs to the line it ends). */
  line: number;
  /** 1-based, in Unicode code points from the start of the line; a leading byte-order mark does not count. */
  column: number;
}

/** What of the pointed-at member a finding is placed at: its value, or its name (for a property that is not allowed). */
export type LocationTarget = "value" | "name";

export interface LocationRequest {
  pointer: string;
  target: LocationTarget;
}

/** Resolves requests against one document's source; a position is undefined where the pointer names nothing. */
export type Locator = (requests: readonly LocationRequest[]) => (SourcePosition | undefined)[];

/**
 * An `additionalProperties` finding's path is the property that is not allowed: it is placed at the property's name,
 * where an editor would point. Every other finding is placed at the value its path names (for `required`, the object
 * that lacks the property: its opening brace).
 */
export function locationTarget(issue: ValidationIssue): LocationTarget {
  return issue.keyword === "additionalProperties" ? "name" : "value";
}

/**
 * The issues with `line` and `column` added where the locator places them, after each issue's own fields in their
 * order. Object.assign copies as the spread `{ ...issue, line, column }` would (issues have no `__proto__` field), at a
 * tenth of its cost in V8 11: the spread took a microsecond an issue.
 */
export function withLocations(issues: readonly ValidationIssue[], locate: Locator): ValidationIssue[] {
  const positions = locate(issues.map((issue) => ({ pointer: issue.path, target: locationTarget(issue) })));
  return issues.map((issue, i) => {
    const position = positions[i];
    return position === undefined ? issue : Object.assign({}, issue, { line: position.line, column: position.column });
  });
}

// --- JSON ------------------------------------------------------------------------------------------------------------

/** The requested pointers as a tree of reference tokens, so the scan follows only the branches that hold a finding. */
interface PointerNode {
  /** The children's reference tokens and nodes, in the order first requested. */
  tokens: string[];
  children: PointerNode[];
  /** The children by token, once there are more than a few. */
  byToken: Map<string, PointerNode> | undefined;
  /** Indices of the requests placed at this node's value, then at its member name. */
  atValue: number[];
  atName: number[];
}

const newNode = (): PointerNode => ({ tokens: [], children: [], byToken: undefined, atValue: [], atName: [] });

/** Children past this many are looked up by token in a map rather than in the list. */
const LISTED_CHILDREN = 8;

/** A JSON Pointer's token separator. */
const SLASH = 0x2f;

function pointerTree(requests: readonly LocationRequest[]): { root: PointerNode; placeable: number } {
  const root = newNode();
  let placeable = 0;
  // Findings come in document order, so a pointer mostly shares its first tokens with the one before: the nodes of that
  // one's tokens, by where each token ends, are where the tree is entered again.
  let previous = "";
  const ends: number[] = [];
  const nodes: PointerNode[] = [];
  for (let index = 0; index < requests.length; index++) {
    const { pointer, target } = requests[index]!;
    if (pointer !== "" && pointer.charCodeAt(0) !== SLASH) continue;
    if (target === "name" && pointer === "") continue;
    let shared = 0;
    while (shared < pointer.length && pointer.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
    let kept = 0;
    while (kept < ends.length && ends[kept]! <= shared && (ends[kept] === pointer.length || pointer.charCodeAt(ends[kept]!) === SLASH)) kept++;
    ends.length = kept;
    nodes.length = kept;
    let node = kept === 0 ? root : nodes[kept - 1]!;
    for (let start = kept === 0 ? 1 : ends[kept - 1]! + 1; start <= pointer.length; ) {
      let end = pointer.indexOf("/", start);
      if (end < 0) end = pointer.length;
      node = childFor(node, unescapeToken(pointer.slice(start, end)));
      ends.push(end);
      nodes.push(node);
      start = end + 1;
    }
    previous = pointer;
    (target === "name" ? node.atName : node.atValue).push(index);
    placeable++;
  }
  return { root, placeable };
}

function childFor(node: PointerNode, token: string): PointerNode {
  const found = childOf(node, token);
  if (found !== undefined) return found;
  const child = newNode();
  node.tokens.push(token);
  node.children.push(child);
  if (node.byToken !== undefined) node.byToken.set(token, child);
  else if (node.tokens.length > LISTED_CHILDREN) node.byToken = new Map(node.tokens.map((name, i) => [name, node.children[i]!]));
  return child;
}

function childOf(node: PointerNode, token: string): PointerNode | undefined {
  if (node.byToken !== undefined) return node.byToken.get(token);
  const i = node.tokens.indexOf(token);
  return i < 0 ? undefined : node.children[i];
}

const isWhitespace = (b: number): boolean => b === 0x20 || b === LINE_FEED || b === 0x0d || b === 0x09;
const utf8 = new TextDecoder("utf-8");

interface Frame {
  node: PointerNode;
  isArray: boolean;
  index: number;
}

/**
 * A Locator over well-formed JSON (the text JSON.parse accepted) as UTF-8 bytes. A member name that occurs twice is
 * placed at its last occurrence, the one JSON.parse keeps. Where the caller knows that no object repeats a member
 * name (`namesRepeat` false), every pointer names one place, and the scan ends once each request is placed instead
 * of at the end of the text: reports list their findings in document order, so the scan stops at the last reported.
 */
export function jsonLocator(bytes: Uint8Array, namesRepeat = true): Locator {
  return (requests) => locate(bytes, requests, namesRepeat, true);
}

/** The same without WebAssembly, as where it cannot run. */
export function jsonLocatorInJs(bytes: Uint8Array, namesRepeat = true): Locator {
  return (requests) => locate(bytes, requests, namesRepeat, false);
}

function locate(bytes: Uint8Array, requests: readonly LocationRequest[], namesRepeat: boolean, inWasm: boolean): (SourcePosition | undefined)[] {
  const positions: (SourcePosition | undefined)[] = new Array(requests.length).fill(undefined);
  const { root, placeable } = pointerTree(requests);
  const unplaced = namesRepeat ? Number.POSITIVE_INFINITY : placeable;
  if (!inWasm || !walkInWasm(bytes, root, unplaced, positions)) new JsonScan(bytes, positions).run(root, unplaced);
  return positions;
}

// --- The WebAssembly walk ----------------------------------------------------------------------------------------------

/** The sizes of a node of the tree the walk follows, of a child's entry and of an array index's (see json-wasm.wat). */
const NODE_BYTES = 40;
const CHILD_BYTES = 12;
const INDEX_BYTES = 8;
const LONE_SURROGATE = /\p{Cs}/u;
const NEVER_MATCHED = -1;
const encoder = new TextEncoder();

/**
 * Places the requests with the WebAssembly walk: the pointer tree laid out as json-wasm.wat's locate reads it, nodes in
 * breadth-first order (the root first), then the children's entries, the array indices' entries and the tokens' UTF-8
 * bytes. False where the walk cannot run or gave up (a member name with escapes it does not decode), with nothing placed.
 */
function walkInWasm(bytes: Uint8Array, root: PointerNode, unplaced: number, positions: (SourcePosition | undefined)[]): boolean {
  const nodes: PointerNode[] = [root];
  const depths = [0];
  let depth = 0;
  let childEntries = 0;
  let mostTokenBytes = 0;
  for (let n = 0; n < nodes.length; n++) {
    const { tokens, children } = nodes[n]!;
    if (tokens.length === 0) continue;
    depth = Math.max(depth, depths[n]! + 1);
    for (let c = 0; c < tokens.length; c++) {
      nodes.push(children[c]!);
      depths.push(depths[n]! + 1);
      mostTokenBytes += 3 * tokens[c]!.length;
    }
    childEntries += tokens.length;
  }
  // Room for an index entry per child: at most that many tokens are array indices.
  const tokensAt = NODE_BYTES * nodes.length + (CHILD_BYTES + INDEX_BYTES) * childEntries;
  const tree = new Uint8Array((tokensAt + mostTokenBytes + 15) & ~15);
  const words = new Int32Array(tree.buffer);
  let childWord = (NODE_BYTES * nodes.length) >> 2;
  let indexWord = childWord + ((CHILD_BYTES * childEntries) >> 2);
  let tokenAt = tokensAt;
  // Children are numbered in the order the loop above listed them.
  let nextNode = 1;
  for (let n = 0; n < nodes.length; n++) {
    const { tokens, atValue, atName } = nodes[n]!;
    const word = (n * NODE_BYTES) >> 2;
    words[word + 4] = atValue.length;
    words[word + 5] = atName.length;
    if (tokens.length === 0) continue;
    words[word + 6] = tokens.length;
    words[word + 7] = childWord << 2;
    words[word + 9] = indexWord << 2;
    const firstIndexWord = indexWord;
    for (const token of tokens) {
      const at = NODE_BYTES * nextNode++;
      const length = writeToken(token, tree, tokenAt);
      words[childWord] = tokenAt;
      words[childWord + 1] = length;
      words[childWord + 2] = at;
      childWord += CHILD_BYTES >> 2;
      if (length > 0) tokenAt += length;
      const index = arrayIndex(token);
      if (index >= 0) {
        words[indexWord] = index;
        words[indexWord + 1] = at;
        indexWord += INDEX_BYTES >> 2;
      }
    }
    words[word + 8] = (indexWord - firstIndexWord) / (INDEX_BYTES >> 2);
    sortIndexEntries(words, firstIndexWord, indexWord);
  }
  const placed = wasmLocate(bytes, tree, depth, byteOrderMarkLength(bytes), Math.min(unplaced, MOST_UNPLACED), (walked) => {
    for (let n = 0; n < nodes.length; n++) {
      const { atValue, atName } = nodes[n]!;
      const word = (n * NODE_BYTES) >> 2;
      if (walked[word] !== 0) for (const request of atValue) positions[request] = { line: walked[word]!, column: walked[word + 1]! };
      if (walked[word + 2] !== 0) for (const request of atName) positions[request] = { line: walked[word + 2]!, column: walked[word + 3]! };
    }
    return true;
  });
  return placed === true;
}

/**
 * Writes the token's UTF-8 bytes at `at`; returns their length, or NEVER_MATCHED (nothing written) for a token with a
 * lone surrogate, which names no member of a well-formed text. ASCII, most tokens, is copied a character a byte.
 */
function writeToken(token: string, tree: Uint8Array, at: number): number {
  for (let k = 0; k < token.length; k++) {
    const code = token.charCodeAt(k);
    if (code >= 0x80) return LONE_SURROGATE.test(token) ? NEVER_MATCHED : encoder.encodeInto(token, tree.subarray(at)).written;
    tree[at + k] = code;
  }
  return token.length;
}

/** The array index a token names (a canonical decimal below 10^9: an array that long would not fit), or -1. */
function arrayIndex(token: string): number {
  const length = token.length;
  if (length === 0 || length > 9 || (length > 1 && token.charCodeAt(0) === 0x30)) return -1;
  let index = 0;
  for (let k = 0; k < length; k++) {
    const digit = token.charCodeAt(k) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    index = 10 * index + digit;
  }
  return index;
}

/** Sorts the (index, node) entries between two words by index: findings come in document order, so mostly a check. */
function sortIndexEntries(words: Int32Array, from: number, to: number): void {
  for (let k = from + 2; k < to; k += 2) {
    const index = words[k]!;
    const at = words[k + 1]!;
    let j = k;
    for (; j > from && words[j - 2]! > index; j -= 2) {
      words[j] = words[j - 2]!;
      words[j + 1] = words[j - 1]!;
    }
    words[j] = index;
    words[j + 1] = at;
  }
}

/** The walk counts placements down from at most this (a text whose names repeat is walked to its end). */
const MOST_UNPLACED = 0x7fffffff;

// --- The JavaScript walk ---------------------------------------------------------------------------------------------

// The scan trusts the text to be JSON (JSON.parse accepted it) but still ends at the end of the bytes, whatever they hold.

/** 1 for the bytes that matter while skipping a container: quotes, brackets, braces and line feeds. */
const CONTAINER_BYTES = new Uint8Array(256);
for (const byte of [QUOTE, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY, LINE_FEED]) CONTAINER_BYTES[byte] = 1;

/**
 * One pass over the bytes that counts lines as it goes (a line feed only ever lies between tokens), so a finding's
 * line is known where the scan meets it and its column costs a look back over that line alone.
 */
class JsonScan {
  private line = 1;
  private lineStart: number;
  /** The column of byte `countedTo`, on the line that starts at `countedLineStart`. */
  private countedLineStart = -1;
  private countedTo = 0;
  private column = 1;
  private memberNode: PointerNode | undefined = undefined;
  private unplaced = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly positions: (SourcePosition | undefined)[],
  ) {
    this.lineStart = byteOrderMarkLength(bytes);
  }

  /** Places requests until `unplaced` of them are placed, or to the end of the text. */
  run(root: PointerNode, unplaced: number): void {
    const bytes = this.bytes;
    this.unplaced = unplaced;
    // An explicit stack rather than recursion: a document may nest deeply.
    const stack: Frame[] = [];
    let i = this.skipWhitespace(this.lineStart);
    let node: PointerNode | undefined = root;
    for (;;) {
      // At the start of a value; `node` is the pointer tree's node for it when a finding lies at or below it.
      if (node !== undefined) this.place(node.atValue, i);
      if (this.unplaced === 0) return;
      const c = bytes[i];
      if (node !== undefined && node.tokens.length > 0 && (c === OPEN_OBJECT || c === OPEN_ARRAY)) {
        const frame: Frame = { node, isArray: c === OPEN_ARRAY, index: 0 };
        i = this.skipWhitespace(i + 1);
        if (bytes[i] !== (frame.isArray ? CLOSE_ARRAY : CLOSE_OBJECT)) {
          stack.push(frame);
          i = this.enterMember(i, frame);
          node = this.memberNode;
          continue;
        }
        i++;
      } else i = this.skipValue(i);
      // After a value: close containers until one continues with another member.
      for (;;) {
        i = this.skipWhitespace(i);
        const frame = stack[stack.length - 1];
        if (frame === undefined) return;
        if (bytes[i] === COMMA) {
          frame.index++;
          i = this.enterMember(this.skipWhitespace(i + 1), frame);
          node = this.memberNode;
          break;
        }
        stack.pop();
        i++;
      }
    }
  }

  /**
   * Places the requests at byte offset `offset`, which lies on the current line. Columns are counted on from the last
   * offset placed on the same line (the scan only moves forward), so the findings of a minified document, all on one
   * line, cost one pass over it rather than one per finding.
   */
  private place(requests: readonly number[], offset: number): void {
    if (requests.length === 0) return;
    if (this.countedLineStart !== this.lineStart) {
      this.countedLineStart = this.lineStart;
      this.countedTo = this.lineStart;
      this.column = 1;
    }
    // Code points are the bytes that are not UTF-8 continuation bytes (10xxxxxx).
    for (let k = this.countedTo; k < offset; k++) if ((this.bytes[k]! & 0xc0) !== 0x80) this.column++;
    this.countedTo = offset;
    for (const request of requests) this.positions[request] = { line: this.line, column: this.column };
    this.unplaced -= requests.length;
  }

  /**
   * Reads an array element's or object member's start; returns where its value starts, and leaves the tree node for it
   * in `memberNode` (no object per member: the scan enters every member of the containers it walks into).
   */
  private enterMember(i: number, frame: Frame): number {
    if (frame.isArray) {
      this.memberNode = childOf(frame.node, String(frame.index));
      return i;
    }
    const nameEnd = skipString(this.bytes, i);
    const child = childNamed(this.bytes, frame.node, i + 1, nameEnd - 1);
    if (child !== undefined) this.place(child.atName, i);
    this.memberNode = child;
    // Past the name, the colon and the whitespace around it.
    return this.skipWhitespace(this.skipWhitespace(nameEnd) + 1);
  }

  private skipWhitespace(i: number): number {
    const bytes = this.bytes;
    for (; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b === LINE_FEED) {
        this.line++;
        this.lineStart = i + 1;
      } else if (b !== 0x20 && b !== 0x0d && b !== 0x09) break;
    }
    return i;
  }

  private skipValue(i: number): number {
    const bytes = this.bytes;
    const c = bytes[i];
    if (c === QUOTE) return skipString(bytes, i);
    if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
      while (i < bytes.length && !isWhitespace(bytes[i]!) && bytes[i] !== COMMA && bytes[i] !== CLOSE_OBJECT && bytes[i] !== CLOSE_ARRAY) i++;
      return i;
    }
    let depth = 0;
    for (; i < bytes.length; ) {
      const b = bytes[i]!;
      // Indentation, digits and colons, most of what lies between strings, pass with one table look-up.
      if (CONTAINER_BYTES[b] === 0) {
        i++;
        continue;
      }
      if (b === QUOTE) {
        i = skipString(bytes, i);
        continue;
      }
      if (b === LINE_FEED) {
        this.line++;
        this.lineStart = i + 1;
      } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
      else if (--depth === 0) return i + 1;
      i++;
    }
    return i;
  }
}

/**
 * The child named by the member name between `from` and `to` (its quotes excluded). An ASCII name without escapes is
 * its own bytes, so it is compared with the few children there are, character by byte: no string per member of every
 * object the scan walks into. Only other names are decoded.
 */
function childNamed(bytes: Uint8Array, node: PointerNode, from: number, to: number): PointerNode | undefined {
  for (let k = from; k < to; k++) {
    if (bytes[k]! === BACKSLASH || bytes[k]! >= 0x80) return childOf(node, memberName(bytes, from, to));
  }
  const length = to - from;
  const { tokens } = node;
  for (let c = 0; c < tokens.length; c++) {
    const token = tokens[c]!;
    if (token.length !== length) continue;
    let k = 0;
    while (k < length && bytes[from + k] === token.charCodeAt(k)) k++;
    if (k === length) return node.children[c];
  }
  return undefined;
}

function memberName(bytes: Uint8Array, from: number, to: number): string {
  const raw = utf8.decode(bytes.subarray(from, to));
  return raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/** From an opening quote to just past the closing one (a string never holds a line feed). */
function skipString(bytes: Uint8Array, start: number): number {
  let quote = bytes.indexOf(QUOTE, start + 1);
  for (;;) {
    if (quote === -1) return bytes.length;
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = bytes.indexOf(QUOTE, quote + 1);
  }
}

// --- Text (YAML) -----------------------------------------------------------------------------------------------------

/** Positions of UTF-16 offsets into a decoded text; the same conventions as for bytes. */
export function textPosition(text: string, offset: number, lineStarts: readonly number[]): SourcePosition {
  // The last line start at or before the offset (lineStarts is sorted and begins with 0).
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lineStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  let k = lineStarts[low]!;
  if (k === 0 && text.charCodeAt(0) === 0xfeff) k = 1;
  let column = 1;
  for (; k < offset; k++) {
    const unit = text.charCodeAt(k);
    // A low surrogate right after a high one completes a character already counted.
    if (!(unit >= 0xdc00 && unit <= 0xdfff && k > 0 && isHighSurrogate(text.charCodeAt(k - 1)))) column++;
  }
  return { line: low + 1, column };
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;

/** Offsets at which lines start (after each LF), for textPosition. */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}
