// OSCAL YAML validates exactly like the same document in JSON, with findings placed in the YAML source; what YAML can
// say and JSON cannot is a typed ERR_INVALID_YAML with a line and column. XML gets a typed error in every entry point.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { validateBytes, type ValidateOptions } from "../../runtime/core/validate.js";
import { validateYamlBytes, validateYamlText, type YamlValidationOutcome } from "../../runtime/core/yaml.js";
import type { ValidationIssue, ValidationReport } from "../../runtime/core/report.js";
import { listCorpus, readCorpusBytes } from "../helpers/corpus.js";

const encode = (text: string) => new TextEncoder().encode(text);
const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const metadata = { title: "T", "last-modified": "2024-05-01T12:00:00Z", version: "1", "oscal-version": "1.2.2" };

const workDir = mkdtempSync(path.join(tmpdir(), "oscal-yaml-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Writes the YAML form of a JSON value to a file of the temporary directory and reads its bytes back, as the CLI would. */
function yamlFileBytes(name: string, value: unknown): Uint8Array {
  const file = path.join(workDir, `${name.replace(/[^a-z0-9.-]/gi, "_")}.yaml`);
  writeFileSync(file, stringify(value));
  return readFileSync(file);
}

function reportOf(outcome: YamlValidationOutcome): ValidationReport {
  if (outcome.kind !== "report") throw new Error(`expected a report, got ${JSON.stringify(outcome)}`);
  return outcome.report;
}

/** Everything of a report but where its findings are and how long it took. */
function comparable(report: ValidationReport) {
  const { meta, issues, ...rest } = report;
  const { durationMs: _, ...stableMeta } = meta;
  return { ...rest, meta: stableMeta, issues: issues.map(({ line: _line, column: _column, ...issue }) => issue) };
}

function expectSameFindings(jsonBytes: Uint8Array, yamlBytes: Uint8Array, options: ValidateOptions): ValidationReport {
  const fromJson = reportOf(validateBytes(jsonBytes, options));
  const fromYaml = reportOf(validateYamlBytes(yamlBytes, options));
  expect(comparable(fromYaml)).toEqual(comparable(fromJson));
  for (const issue of fromYaml.issues) expect([issue.line, issue.column].every((n) => Number.isInteger(n) && n! >= 1), issue.path).toBe(true);
  return fromYaml;
}

// The YAML parser is much slower than JSON.parse; the documents up to 256 KB (69 of the 93) keep the test quick.
const SMALL_CORPUS = listCorpus().filter((document) => document.size <= 256 * 1024);

describe("YAML and JSON forms of the same document", () => {
  it("the corpus gives identical reports (findings, rule ids, paths, verdicts) at both levels", () => {
    expect(SMALL_CORPUS.length).toBeGreaterThan(50);
    let invalid = 0;
    for (const document of SMALL_CORPUS) {
      const jsonBytes = readCorpusBytes(document);
      const yamlBytes = yamlFileBytes(document.file, JSON.parse(new TextDecoder().decode(jsonBytes)));
      const schema = expectSameFindings(jsonBytes, yamlBytes, { level: "schema" });
      expectSameFindings(jsonBytes, yamlBytes, { level: "full" });
      if (!schema.valid) invalid++;
    }
    expect(invalid).toBeGreaterThan(5);
  });

  it("mutated documents give identical findings, placed in the YAML", () => {
    const base = { catalog: { uuid, metadata, groups: [{ id: "g1", title: "G", controls: [{ id: "c1", title: "C", class: "x" }] }] } };
    const mutations: [string, (doc: any) => void][] = [
      ["missing required property", (doc) => delete doc.catalog.metadata.title],
      ["wrong type", (doc) => (doc.catalog.groups[0].controls[0].title = 7)],
      ["unknown property", (doc) => (doc.catalog.groups[0]["x-extra"] = true)],
      ["pattern", (doc) => (doc.catalog.uuid = "not-a-uuid")],
      ["semantic: link to nothing", (doc) => (doc.catalog.metadata.links = [{ href: "#nowhere" }])],
      ["strings that YAML 1.1 would read as booleans and dates", (doc) => (doc.catalog.groups[0].controls[0].class = "yes") && (doc.catalog.metadata.version = "2024-05-01")],
    ];
    for (const [name, mutate] of mutations) {
      const doc = structuredClone(base);
      mutate(doc);
      const yamlBytes = yamlFileBytes(`mutant-${name}`, doc);
      expectSameFindings(encode(JSON.stringify(doc, null, 2)), yamlBytes, { level: "schema" });
      expectSameFindings(encode(JSON.stringify(doc, null, 2)), yamlBytes, { level: "full" });
    }
  });

  it("plain yes, no, on, off and dates stay strings (the core schema), as in JSON", () => {
    const text = `catalog:\n  uuid: ${uuid}\n  metadata:\n    title: yes\n    last-modified: 2024-05-01T12:00:00Z\n    version: no\n    oscal-version: 1.2.2\n`;
    expect(reportOf(validateYamlText(text))).toMatchObject({ valid: true, issues: [] });
  });
});

describe("positions in YAML", () => {
  it("places values, objects lacking a property, and names of properties not allowed (hand-counted)", () => {
    const text = [
      "catalog:", //                                 line 1
      "  uuid: not-a-uuid", //                       line 2: value at column 9
      "  metadata:", //                              line 3
      "    title: T", //                             line 4: a block mapping starts at its first key, column 5
      "    bogus: 1", //                             line 5: the name at column 5
      "  groups:", //                                line 6
      "    - id: g1", //                             line 7
      "      title: G", //                           line 8
      '      controls: [ {id: "ü😀", title: 7} ]', // line 9: "ü😀" at 24 and 7 at 37 (ü and 😀 are one column each)
      "  back-matter: {resources: [{title: x}]}", // line 10: a flow mapping at its brace, column 29
    ].join("\n");
    const found = reportOf(validateYamlText(text)).issues.map((issue: ValidationIssue) => `${issue.path} ${issue.keyword} ${issue.line}:${issue.column}`);
    expect(found).toEqual(
      expect.arrayContaining([
        "/catalog/uuid pattern 2:9",
        "/catalog/metadata required 4:5",
        "/catalog/metadata/bogus additionalProperties 5:5",
        "/catalog/groups/0/controls/0/id pattern 9:24",
        "/catalog/groups/0/controls/0/title type 9:37",
        "/catalog/back-matter/resources/0 required 10:29",
      ]),
    );
  });

  it("a leading byte-order mark does not count as a column", () => {
    const text = `catalog: {uuid: "😀", metadata: {}}`;
    const plain = reportOf(validateYamlBytes(encode(text))).issues.map((issue) => [issue.path, issue.line, issue.column]);
    const withBom = reportOf(validateYamlBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...encode(text)]))).issues.map((issue) => [issue.path, issue.line, issue.column]);
    expect(withBom).toEqual(plain);
    // `catalog: {uuid: ` is 16 characters, so the value starts at column 17; the metadata brace: 17 + 3 + 2 + 10 = 32.
    expect(plain).toContainEqual(["/catalog/uuid", 1, 17]);
    expect(plain).toContainEqual(["/catalog/metadata", 1, 32]);
  });
});

describe("YAML that has no JSON form is a typed error with line and column", () => {
  it.each([
    ["an anchor", "catalog: &a\n  uuid: x\n", 1, 10, /anchor/],
    ["an alias", "catalog:\n  uuid: *a\n", 2, 9, /alias/],
    ["a duplicate key", "catalog:\n  uuid: x\n  uuid: y\n", 3, 3, /same key twice/],
    ["a timestamp tag", "catalog:\n  uuid: !!timestamp 2001-12-14\n", 2, 9, /timestamp/],
    ["a binary value", "catalog:\n  uuid: !!binary aGVsbG8=\n", 2, 9, /binary/],
    ["a set", "catalog: !!set {a, b}\n", 1, 10, /tag outside the YAML core schema/],
    ["an unknown tag", "catalog:\n  uuid: !thing x\n", 2, 9, /tag/],
    ["a numeric key", "catalog:\n  1: x\n", 2, 3, /key that is not a string/],
    ["a boolean key", "catalog:\n  true: x\n", 2, 3, /key that is not a string/],
    ["a collection as key", "catalog:\n  ? [a]\n  : x\n", 2, 5, /key that is not a string/],
    ["NaN", "catalog:\n  uuid: .nan\n", 2, 9, /\.nan or \.inf/],
    ["Infinity", "catalog:\n  n: -.inf\n", 2, 6, /\.nan or \.inf/],
    ["a syntax error", "catalog:\n  uuid: [x\n", 3, 1, /indentation|unclosed/],
    ["two documents", "catalog: {}\n---\ncatalog: {}\n", 2, 1, /more than one YAML document/],
  ])("%s", (_, text, line, column, problem) => {
    const outcome = validateYamlText(text);
    expect(outcome.kind).toBe("body-error");
    if (outcome.kind !== "body-error") return;
    expect(outcome.error).toMatchObject({ code: "ERR_INVALID_YAML", line, column });
    expect(outcome.error.detail).toMatch(problem);
    expect(outcome.error.detail).toContain(`at line ${line}, column ${column}.`);
    expect(outcome.error.resolution).toBeTruthy();
  });

  it("errors never quote the document", () => {
    const secret = "TOP-SECRET-7f3a";
    for (const text of [`catalog: &${secret}\n  uuid: x\n`, `catalog:\n  ${secret}: 1\n  ${secret}: 2\n`, `catalog:\n  uuid: !${secret} x\n`]) {
      const outcome = validateYamlText(text);
      expect(outcome.kind).toBe("body-error");
      expect(JSON.stringify(outcome)).not.toContain(secret);
    }
  });

  it("invalid UTF-8 is ERR_INVALID_UTF8 with its byte offset; an empty text has no model; deep flow nesting is refused", () => {
    const bytes = new Uint8Array([...encode("catalog: "), 0xc3, 0x28]);
    expect(validateYamlBytes(bytes)).toMatchObject({ kind: "body-error", error: { code: "ERR_INVALID_UTF8", detail: expect.stringContaining("byte offset 9") } });
    expect(validateYamlText("")).toMatchObject({ kind: "body-error", error: { code: "ERR_UNKNOWN_MODEL" } });
    for (const depth of [1_500, 50_000]) {
      expect(validateYamlText(`catalog: ${"[".repeat(depth)}${"]".repeat(depth)}`)).toMatchObject({ kind: "body-error", error: { code: "ERR_PAYLOAD_TOO_LARGE" } });
    }
  });

  it("options are checked as for JSON", () => {
    expect(validateYamlText("catalog: {}", { level: "deep" as never })).toMatchObject({ kind: "option-error", error: { parameter: "level" } });
  });
});

describe("XML input", () => {
  const xml = '\ufeff  \n<?xml version="1.0" encoding="UTF-8"?>\n<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0"/>';
  it.each([
    ["JSON bytes", () => validateBytes(encode(xml))],
    ["YAML bytes", () => validateYamlBytes(encode(xml))],
  ])("%s: a typed error that says XML is not supported yet and how to convert it", (_, run) => {
    const outcome = run();
    expect(outcome.kind).toBe("body-error");
    if (outcome.kind !== "body-error") return;
    expect(outcome.error.code).toBe("ERR_INVALID_JSON");
    expect(outcome.error.detail).toMatch(/XML is not supported yet/);
    expect(outcome.error.resolution).toMatch(/xml-to-json-converter\.xsl/);
    expect(outcome.error.resolution).toContain("oscal-1.2.2.zip");
  });

  it("JSON that merely contains < is still JSON", () => {
    expect(validateBytes(encode('{"catalog": "<x>"}'))).toMatchObject({ kind: "report" });
  });
});
