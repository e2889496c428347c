// The bytes (and UTF-16 code units: the same numbers) of JSON's structural characters, shared by the scanners that
// read JSON text without parsing it: the structure check, the finding locator and the syntax-error locator.
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COMMA = 0x2c;
export const LINE_FEED = 0x0a;

/** 3 when the bytes open with a UTF-8 byte-order mark, which RFC 8259 lets parsers drop, else 0. */
export function byteOrderMarkLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}
