// Errors of the body itself are typed results that say where the problem is and never quote the document.
import { describe, expect, it } from "vitest";
import { validateBytes } from "../../runtime/core/validate.js";
import { firstInvalidUtf8Offset } from "../../runtime/core/body.js";

const encode = (text: string) => new TextEncoder().encode(text);
const SECRET = "TOP-SECRET-CONTENT-7f3a";

function bodyError(bytes: Uint8Array) {
  const outcome = validateBytes(bytes);
  if (outcome.kind !== "body-error") throw new Error(`expected a body error, got ${outcome.kind}`);
  return outcome.error;
}

describe("body errors", () => {
  it("invalid UTF-8 is ERR_INVALID_UTF8 with the byte offset", () => {
    const bytes = new Uint8Array([...encode('{"catalog":"'), 0xc3, 0x28, ...encode('"}')]);
    const error = bodyError(bytes);
    expect(error.code).toBe("ERR_INVALID_UTF8");
    expect(error.detail).toContain("byte offset 12");
  });

  it.each([
    ["overlong encoding", [0xc0, 0xaf], 0],
    ["surrogate half", [0x41, 0xed, 0xa0, 0x80], 1],
    ["truncated sequence", [0x41, 0x42, 0xe2, 0x82], 2],
    ["beyond U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
  ])("finds the first invalid UTF-8 byte: %s", (_, bytes, offset) => {
    expect(firstInvalidUtf8Offset(new Uint8Array(bytes))).toBe(offset);
  });

  it("malformed JSON is ERR_INVALID_JSON with line and column, without quoting the document", () => {
    const error = bodyError(encode(`{\n  "catalog": {\n    "title": "${SECRET}",\n    oops\n  }\n}`));
    expect(error).toMatchObject({ code: "ERR_INVALID_JSON", line: 4, column: 5 });
    expect(error.detail).not.toContain(SECRET);
    expect(error.detail).not.toContain("oops");
  });

  it.each([
    ["an empty body", "", 1, 1],
    ["a truncated document", '{"catalog": {"uuid": "a"', 1, 25],
    ["trailing content", '{"catalog": {}} x', 1, 17],
    ["a trailing comma", '{"catalog": {"a": 1,}}', 1, 21],
    ["an unterminated string", '{"catalog": "abc', 1, 13],
  ])("locates %s", (_, text, line, column) => {
    expect(bodyError(encode(text))).toMatchObject({ code: "ERR_INVALID_JSON", line, column });
  });

  it("locates errors after deep nesting without exhausting the stack", () => {
    const depth = 200_000;
    const error = bodyError(encode(`${"[".repeat(depth)}${"]".repeat(depth - 1)}`));
    expect(error).toMatchObject({ code: "ERR_INVALID_JSON", line: 1, column: 2 * depth });
  });

  it("a leading byte-order mark is accepted", () => {
    const outcome = validateBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...encode('{"catalog": {}}')]));
    expect(outcome.kind).toBe("report");
  });

  it.each([
    ["an array", "[1, 2]"],
    ["a string", '"catalog"'],
    ["no model key", '{"catalogue": {}}'],
    ["two model keys", '{"catalog": {}, "profile": {}}'],
  ])("%s is ERR_UNKNOWN_MODEL", (_, text) => {
    expect(bodyError(encode(text)).code).toBe("ERR_UNKNOWN_MODEL");
  });
});
