// The code builder the constraint compiler emits JavaScript with: whatever text it interpolates (a message, a pattern,
// a value from a constraint file) reads back as the same data when the generated code runs, never as code.
import { describe, expect, it } from "vitest";
import { code, joinCode, jsonLiteral, name, regexLiteral, stringLiteral } from "../../compiler/codegen/code.js";

/** What a generated expression evaluates to. */
const run = (expression: { toString(): string }): unknown => new Function(`"use strict"; return (${String(expression)});`)();

const HOSTILE = ['"); process.exit(1); ("', "back\\slash \\d+", "line\nbreak\r", "separators \u2028 \u2029", "`${template}`", "</script>", "'single'"];

describe("code", () => {
  it("turns interpolated strings into literals of the same text", () => {
    for (const text of HOSTILE) expect(run(code`${"Value "} + ${text}`)).toBe(`Value ${text}`);
  });
  it("splices code as it is and numbers, booleans and null as literals", () => {
    const x = name("x");
    expect(code`${x} = ${3} - ${-1} + ${true} + ${null}`.toString()).toBe("x = 3 - (-1) + true + null");
    expect(run(code`[${joinCode(["a", "b"].map((s) => code`${s}`))}]`)).toEqual(["a", "b"]);
  });
  it("refuses numbers that have no literal", () => {
    expect(() => code`${Number.NaN}`).toThrow(/cannot interpolate/);
  });
});

describe("name", () => {
  it("accepts identifiers and refuses anything else", () => {
    expect(name("K12").toString()).toBe("K12");
    for (const bad of ["1x", "a b", "a-b", "x;y", "", "return", "undefined"]) expect(() => name(bad)).toThrow(/not a JavaScript identifier/);
  });
});

describe("stringLiteral and jsonLiteral", () => {
  it("read back as the same text and data, line separators included", () => {
    for (const text of HOSTILE) expect(run(stringLiteral(text))).toBe(text);
    const data = { values: HOSTILE, n: [1, 2.5], ok: false };
    expect(run(jsonLiteral(data))).toEqual(data);
    expect(stringLiteral("\u2028").toString()).toBe('"\\u2028"');
  });
});

describe("regexLiteral", () => {
  it("reads back as the same pattern, slashes and line breaks included", () => {
    for (const source of ["^(?:a/b)$", "[/]+", "\\d{3}\\/x", "a\nb", "^(?:[^\\]/]*)$"]) {
      const literal = run(regexLiteral(source)) as RegExp;
      expect(literal.source).toBe(new RegExp(source).source);
      expect(["a/b", "//", "123/x", "a\nb", "x"].map((s) => literal.test(s))).toEqual(["a/b", "//", "123/x", "a\nb", "x"].map((s) => new RegExp(source).test(s)));
    }
    expect(regexLiteral("x", "u").toString()).toBe("/x/u");
  });
  it("refuses a pattern JavaScript does not accept, naming what it is for", () => {
    expect(() => regexLiteral("(", "", "some-constraint")).toThrow(/some-constraint: regular expression not valid in JavaScript/);
  });
});
