// Locates the first JSON syntax error (RFC 8259) in a text that JSON.parse rejected, as a line and column, without
// quoting the text: V8's own messages embed a snippet of the document, which must never reach a response or a log.
import { CLOSE_ARRAY, CLOSE_OBJECT, OPEN_ARRAY, OPEN_OBJECT } from "./json-bytes.js";

export interface SyntaxErrorLocation {
  line: number;
  column: number;
  problem: string;
}

class Located extends Error {
  constructor(readonly offset: number, readonly problem: string) {
    super(problem);
  }
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

export function locateSyntaxError(text: string): SyntaxErrorLocation {
  try {
    const offset = scanDocument(text);
    return { ...lineAndColumn(text, offset), problem: "unexpected content after the JSON value" };
  } catch (error) {
    if (!(error instanceof Located)) throw error;
    return { ...lineAndColumn(text, error.offset), problem: error.problem };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}


/** Returns the offset of trailing garbage (text.length when there is none), or throws Located. */
function scanDocument(text: string): number {
  // A state machine with an explicit stack rather than recursion: hostile input may nest very deeply.
  const containers: number[] = [];
  let i = skipWhitespace(text, 0);
  let state: "value" | "key" | "after-value" = "value";
  for (;;) {
    if (state === "value") {
      if (i >= text.length) throw new Located(i, "unexpected end of input, a value was expected");
      const c = text.charCodeAt(i);
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        containers.push(c);
        i = skipWhitespace(text, i + 1);
        if (text.charCodeAt(i) === (c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          containers.pop();
          i++;
          state = "after-value";
        } else {
          state = c === OPEN_OBJECT ? "key" : "value";
        }
        continue;
      }
      if (c === 0x22) i = scanString(text, i);
      else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) i = scanNumber(text, i);
      else {
        const literal = ["true", "false", "null"].find((word) => text.startsWith(word, i));
        if (!literal) throw new Located(i, "unexpected character, a value was expected");
        i += literal.length;
      }
      state = "after-value";
    } else if (state === "key") {
      if (text.charCodeAt(i) !== 0x22) {
        throw new Located(i, i >= text.length ? "unexpected end of input, a property name was expected" : "a property name in double quotes was expected");
      }
      i = skipWhitespace(text, scanString(text, i));
      if (text.charCodeAt(i) !== 0x3a) throw new Located(i, "':' was expected after the property name");
      i = skipWhitespace(text, i + 1);
      state = "value";
    } else {
      i = skipWhitespace(text, i);
      const open = containers[containers.length - 1];
      if (open === undefined) return i;
      const c = text.charCodeAt(i);
      if (c === (open === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        containers.pop();
        i++;
      } else if (c === 0x2c) {
        i = skipWhitespace(text, i + 1);
        state = open === OPEN_OBJECT ? "key" : "value";
      } else if (i >= text.length) {
        throw new Located(i, "unexpected end of input, the document is incomplete");
      } else {
        throw new Located(i, open === OPEN_OBJECT ? "',' or '}' was expected" : "',' or ']' was expected");
      }
    }
  }
}

function skipWhitespace(text: string, i: number): number {
  while (i < text.length && WHITESPACE.has(text.charCodeAt(i))) i++;
  return i;
}

function scanString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) throw new Located(i, "control character in string (it must be escaped)");
    if (c === 0x5c) {
      const next = text[i + 1];
      if (next === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Located(i, "invalid \\u escape in string");
        i += 6;
        continue;
      }
      if (next === undefined || !'"\\/bfnrt'.includes(next)) throw new Located(i, "invalid escape in string");
      i += 2;
      continue;
    }
    i++;
  }
  throw new Located(start, "unterminated string");
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function scanNumber(text: string, start: number): number {
  NUMBER.lastIndex = start;
  const match = NUMBER.exec(text);
  if (!match || match[0] === "-") throw new Located(start, "invalid number");
  const end = start + match[0].length;
  const next = text.charCodeAt(end);
  if (next === 0x2e || next === 0x65 || next === 0x45 || (next >= 0x30 && next <= 0x39)) throw new Located(end, "invalid number");
  return end;
}
