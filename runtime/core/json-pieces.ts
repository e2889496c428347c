// Parses a large one-byte JSON text in pieces. V8 puts a string of more than 128 KiB in its large-object space, on
// fresh pages each time: decoding such a string costs ten times as much a byte as a smaller one, and both a document's
// text and its parse pay it. A text over PIECE_BYTES is parsed as the containers the compaction's split points
// describe (compact in compiler/json-wasm/json-wasm.wat: the containers larger than a piece at the top levels, and
// enough of their commas), their members and elements decoded and parsed together in runs of at most a piece, the
// containers larger than a piece taken apart the same way. The value is the one JSON.parse makes of the whole text; a
// text JSON.parse would refuse throws.

/** The longest text parsed as one piece: under V8's 128 KiB for a string on its ordinary heap, with room for a header. */
export const PIECE_BYTES = 120 * 1024;

// Split point kinds (json-wasm.wat, split_event): bit 0 an object's brace, bit 1 a closing one; 4 a comma.
const OBJECT = 1;
const CLOSING = 2;
const COMMA = 4;
const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA_BYTE = 0x2c;

const offsetOf = (split: number): number => split >>> 3;
const kindOf = (split: number): number => split & 7;

function notJson(): never {
  throw new SyntaxError("The text is not JSON");
}

/**
 * The value of `text` (changed while it is read, and left as it was), given `splits`, its split points in order (at
 * least one). `decode` turns part of the text into a string.
 */
export function parseInPieces(text: Uint8Array, splits: Int32Array, decode: (part: Uint8Array) => string): unknown {
  const closings = matchingClosings(splits);
  // The root container must be the whole text: the compaction leaves no whitespace before it or after it.
  if (offsetOf(splits[0]!) !== 0 || closings[0] !== splits.length - 1 || offsetOf(splits[splits.length - 1]!) !== text.length - 1) notJson();
  return new PieceParser(text, splits, closings, decode).container(0);
}

/** For each opening split point, the index of the one that closes it (an object's brace, an array's bracket). */
function matchingClosings(splits: Int32Array): Int32Array {
  const closings = new Int32Array(splits.length);
  const open: number[] = [];
  for (let i = 0; i < splits.length; i++) {
    const kind = kindOf(splits[i]!);
    if (kind === COMMA) continue;
    if ((kind & CLOSING) === 0) {
      open.push(i);
      continue;
    }
    const opening = open.pop();
    if (opening === undefined || (kindOf(splits[opening]!) & OBJECT) !== (kind & OBJECT)) notJson();
    closings[opening] = i;
  }
  if (open.length > 0) notJson();
  return closings;
}

class PieceParser {
  constructor(
    private readonly text: Uint8Array,
    private readonly splits: Int32Array,
    private readonly closings: Int32Array,
    private readonly decode: (part: Uint8Array) => string,
  ) {}

  /** The value of the container whose opening split point is at `index`. */
  container(index: number): unknown {
    const { text, splits, closings } = this;
    const closing = closings[index]!;
    const start = offsetOf(splits[index]!);
    const end = offsetOf(splits[closing]!);
    if (end + 1 - start <= PIECE_BYTES) return JSON.parse(this.decode(text.subarray(start, end + 1)));
    const isObject = (kindOf(splits[index]!) & OBJECT) !== 0;
    const value: Record<string, unknown> | unknown[] = isObject ? {} : [];
    // Items are parsed in runs of at most a piece: [runStart, runEnd) in the text.
    let runStart = -1;
    let runEnd = -1;
    const addToRun = (from: number, to: number) => {
      if (runStart >= 0 && to - runStart > PIECE_BYTES) {
        this.addRun(value, isObject, runStart, runEnd);
        runStart = -1;
      }
      if (runStart < 0) runStart = from;
      runEnd = to;
    };
    let stretchStart = start + 1;
    let next = index + 1;
    for (;;) {
      // A stretch between two listed commas holds items, the last of which may be a listed container: one larger
      // than a piece, after which the comma is always listed.
      let large = -1;
      if (next < closing && kindOf(splits[next]!) !== COMMA) {
        large = next;
        next = closings[next]! + 1;
        if (next < closing && kindOf(splits[next]!) !== COMMA) notJson();
      }
      const stretchEnd = next < closing ? offsetOf(splits[next]!) : end;
      if (large < 0) {
        if (stretchEnd === stretchStart) notJson(); // an empty item: `[1,,2]`, `{"a":1,}`
        addToRun(stretchStart, stretchEnd);
      } else {
        const valueStart = offsetOf(splits[large]!);
        if (offsetOf(splits[closings[large]!]!) + 1 !== stretchEnd) notJson();
        const itemStart = isObject ? this.memberStart(valueStart) : valueStart;
        // The items before it, up to the comma before it.
        if (itemStart > stretchStart) {
          if (text[itemStart - 1] !== COMMA_BYTE) notJson();
          addToRun(stretchStart, itemStart - 1);
        } else if (itemStart < stretchStart) notJson();
        if (runStart >= 0) this.addRun(value, isObject, runStart, runEnd);
        runStart = -1;
        const item = this.container(large);
        if (isObject) define(value as Record<string, unknown>, JSON.parse(this.decode(text.subarray(itemStart, valueStart - 1))) as string, item);
        else (value as unknown[]).push(item);
      }
      if (next >= closing) break;
      stretchStart = stretchEnd + 1;
      next++;
    }
    if (runStart >= 0) this.addRun(value, isObject, runStart, runEnd);
    return value;
  }

  /**
   * Where the member whose value starts at `valueStart` starts: its name, a JSON string, ends just before the colon
   * before the value, and starts at the quote before that (a text whose names hold a backslash, which could escape a
   * quote, is never split: the structure scan sends it to the exact pass).
   */
  private memberStart(valueStart: number): number {
    const { text } = this;
    if (text[valueStart - 1] !== COLON || text[valueStart - 2] !== QUOTE) notJson();
    const at = text.lastIndexOf(QUOTE, valueStart - 3);
    return at < 0 ? notJson() : at;
  }

  /**
   * Parses the items at [from, to) as one container: the separators around them (the container's own bracket or a
   * comma) stand in for its brackets while they are decoded, then are put back.
   */
  private addRun(value: Record<string, unknown> | unknown[], isObject: boolean, from: number, to: number): void {
    const { text } = this;
    const before = text[from - 1]!;
    const after = text[to]!;
    text[from - 1] = isObject ? 0x7b : 0x5b;
    text[to] = isObject ? 0x7d : 0x5d;
    let run: string;
    try {
      run = this.decode(text.subarray(from - 1, to + 1));
    } finally {
      text[from - 1] = before;
      text[to] = after;
    }
    const parsed = JSON.parse(run) as Record<string, unknown> | unknown[];
    if (Array.isArray(parsed)) for (const item of parsed) (value as unknown[]).push(item);
    else for (const name of Object.keys(parsed)) define(value as Record<string, unknown>, name, parsed[name]);
  }
}

/** Sets a member as JSON.parse does: `__proto__` too is an own member, not the object's prototype. */
function define(object: Record<string, unknown>, name: string, value: unknown): void {
  if (name === "__proto__") Object.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true });
  else object[name] = value;
}
