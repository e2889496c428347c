// What JSON.parse lets through: duplicate member names, lone surrogates and excluded control characters are findings
// with their own rule ids and paths, whether the document arrives as bytes, as text or already parsed.
import { describe, expect, it } from "vitest";
import { validateBytes, validateDocument, validateParsed, resolveOptions } from "../../runtime/core/validate.js";
import { parseText } from "../../runtime/core/body.js";
import type { ValidationReport } from "../../runtime/core/report.js";

const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const metadata = `"metadata":{"title":"T","last-modified":"2024-05-01T12:00:00Z","version":"1.0","oscal-version":"1.2.2"}`;
const encode = (text: string) => new TextEncoder().encode(text);

function report(outcome: ReturnType<typeof validateBytes>): ValidationReport {
  if (outcome.kind !== "report") throw new Error(`expected a report, got ${JSON.stringify(outcome)}`);
  return outcome.report;
}

const findings = (text: string) => report(validateBytes(encode(text))).issues.map(({ ruleId, path, keyword }) => ({ ruleId, path, keyword }));

describe("duplicate member names", () => {
  it("a document whose invalid first copy JSON.parse would drop is invalid, at the repeated member", () => {
    const r = report(validateBytes(encode(`{"catalog":{"uuid":"not-a-uuid"},"catalog":{"uuid":"${uuid}",${metadata}}}`)));
    expect(r.valid).toBe(false);
    expect(r.issues).toEqual([
      {
        ruleId: "JSON-001.a",
        keyword: "duplicate-name",
        path: "/catalog",
        severity: "error",
        message: expect.stringContaining("Duplicate member name"),
        // The repeat's value: where the copy JSON.parse kept begins.
        line: 1,
        column: 44,
      },
    ]);
  });

  it("finds a repeat spelled with an escape, and one among many members", () => {
    expect(findings(`{"catalog":{"uuid":"${uuid}","uui\\u0064":"${uuid}",${metadata}}}`)).toEqual([{ ruleId: "JSON-001.a", path: "/catalog/uuid", keyword: "duplicate-name" }]);
    const many = Array.from({ length: 40 }, (_, i) => `"n${i}":1`).join(",");
    expect(findings(`{"catalog":{"uuid":"${uuid}",${metadata},"back-matter":{"resources":[{"uuid":"${uuid}","x":{${many},"n7":2}}]}}}`)).toContainEqual({
      ruleId: "JSON-001.a",
      path: "/catalog/back-matter/resources/0/x/n7",
      keyword: "duplicate-name",
    });
  });

  it("a repeat after long strings full of escaped quotes is still found", () => {
    const prose = `${"a \\\"quoted\\\" word and a \\\\ backslash ".repeat(30)}`;
    expect(findings(`{"catalog":{"uuid":"${uuid}","remarks":"${prose}",${metadata},"remarks":"${prose}"}}`)).toContainEqual({
      ruleId: "JSON-001.a",
      path: "/catalog/remarks",
      keyword: "duplicate-name",
    });
  });

  it("the same name in different objects is no finding", () => {
    expect(report(validateBytes(encode(`{"catalog":{"uuid":"${uuid}",${metadata},"groups":[{"id":"a","title":"T"},{"id":"b","title":"T"}]}}`))).valid).toBe(true);
  });
});

describe("characters no OSCAL text can carry", () => {
  it.each([
    ["a lone high surrogate", "T\\ud800", "JSON-002.a"],
    ["a lone low surrogate", "\\udc00T", "JSON-002.a"],
    ["U+0000", "a\\u0000b", "JSON-003.a"],
    ["another excluded control character", "a\\u001fb", "JSON-003.a"],
  ])("%s in a string is a finding at the string", (_, title, ruleId) => {
    expect(findings(`{"catalog":{"uuid":"${uuid}",${metadata.replace('"T"', `"${title}"`)}}}`)).toEqual([
      { ruleId, path: "/catalog/metadata/title", keyword: ruleId === "JSON-002.a" ? "lone-surrogate" : "control-character" },
    ]);
  });

  it("is found far into a long string, after escaped quotes and backslashes, as in a short one", () => {
    const prose = `${"Long prose \\\"quoted\\\" and a \\\\ backslash. ".repeat(20)}\\u0001${"more prose ".repeat(20)}`;
    expect(findings(`{"catalog":{"uuid":"${uuid}",${metadata.replace('"T"', `"${prose}"`)}}}`)).toEqual([
      { ruleId: "JSON-003.a", path: "/catalog/metadata/title", keyword: "control-character" },
    ]);
  });

  it("escaped pairs, tabs and line breaks are fine", () => {
    expect(report(validateBytes(encode(`{"catalog":{"uuid":"${uuid}",${metadata.replace('"T"', '"T \\ud83d\\ude00 \\u0009"')}}}`))).valid).toBe(true);
  });

  it("a member name holding one is reported at its member", () => {
    expect(findings(`{"catalog":{"uuid":"${uuid}",${metadata},"a\\u0000":1}}`)).toContainEqual({ ruleId: "JSON-003.a", path: "/catalog/a\u0000", keyword: "control-character" });
  });

  it("text and parsed documents get the same findings", () => {
    const text = `{"catalog":{"uuid":"${uuid}",${metadata.replace('"T"', '"T\ud800"')}}}`;
    const parsed = parseText(text);
    if (!parsed.ok) throw new Error("expected JSON");
    expect(parsed.findings.map((f) => [f.ruleId, f.path])).toEqual([["JSON-002.a", "/catalog/metadata/title"]]);
    const resolved = resolveOptions();
    if (!resolved.ok) throw new Error("options");
    expect(report(validateParsed(parsed.document, resolved.options, undefined, parsed.findings)).issues[0]!.ruleId).toBe("JSON-002.a");
    expect(report(validateDocument(JSON.parse(text))).issues.map((f) => [f.ruleId, f.path])).toEqual([["JSON-002.a", "/catalog/metadata/title"]]);
    expect(report(validateDocument({ catalog: { uuid, "b\u0000": 1 } })).issues.map((f) => [f.ruleId, f.path])).toContainEqual(["JSON-003.a", "/catalog/b\u0000"]);
  });
});
