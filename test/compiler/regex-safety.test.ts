// The build proves every regular expression the generated code runs linear-time, and refuses a super-linear one. (The
// same proof over all of generated/ again is in generated-patterns.test.ts, a `make test-long` run.)
import { describe, expect, it } from "vitest";
import { assertLinearPatterns, formatFunctionPatterns, patternsInCode, superLinearPatterns } from "../../compiler/regex-safety.js";

describe("build-time ReDoS check", () => {
  it("rejects a known super-linear pattern, naming it and where it runs", async () => {
    const code = 'const email = new RegExp("^[^\\\\n\\\\r]+@[^\\\\n\\\\r]+$", "u"); const fine = /^[a-z]+$/;';
    const patterns = patternsInCode(code, "example.cjs");
    expect(patterns.map((pattern) => `/${pattern.source}/${pattern.flags}`)).toEqual(["/^[^\\n\\r]+@[^\\n\\r]+$/u", "/^[a-z]+$/"]);
    const failures = await superLinearPatterns(patterns);
    expect(failures).toEqual([{ pattern: patterns[0], verdict: "2nd degree polynomial" }]);
    await expect(assertLinearPatterns(patterns)).rejects.toThrow(/1 regular expression\(s\) may take super-linear time.*\n.*example\.cjs: 2nd degree polynomial/);
  });

  it("refuses a pattern it cannot see: one built at run time", () => {
    expect(() => patternsInCode("const r = new RegExp(source);", "example.cjs")).toThrow(/non-literal pattern/);
  });

  it("follows the format functions the validators call into ajv-formats", () => {
    const code = 'const f = require("ajv-formats/dist/formats").fullFormats["date-time"];';
    expect(formatFunctionPatterns(code, "example.cjs").map((pattern) => pattern.source)).toEqual(["t|\\s", "^(\\d\\d\\d\\d)-(\\d\\d)-(\\d\\d)$", expect.stringMatching(/^\^\(\\d\\d\):/)]);
    expect(() => formatFunctionPatterns('require("ajv-formats/dist/formats").fullFormats.email', "example.cjs")).toThrow(/"email" runs patterns this build does not know/);
  });
});
