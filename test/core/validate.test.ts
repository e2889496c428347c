// The validation core's report: fields, rule ids, pointers and messages, as the contract defines them.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { validateDocument, validateBytes } from "../../runtime/core/validate.js";
import type { ValidationReport } from "../../runtime/core/report.js";
import { resolvePointer } from "../helpers/json-pointer.js";

const manifest = JSON.parse(readFileSync(new URL("../../generated/manifest.json", import.meta.url), "utf8")) as {
  sha256: string;
  schemaRules: Record<string, string[]>;
  patches: { id: string }[];
};

const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const metadata = { title: "Core test", "last-modified": "2024-05-01T12:00:00Z", version: "1.0", "oscal-version": "1.2.2" };

function report(document: unknown, options = {}): ValidationReport {
  const outcome = validateDocument(document, options);
  if (outcome.kind !== "report") throw new Error(`expected a report, got ${JSON.stringify(outcome)}`);
  return outcome.report;
}

describe("validation report", () => {
  it("a valid catalog: valid, complete, no issues, meta per the contract", () => {
    const r = report({ catalog: { uuid, metadata } });
    expect(r).toMatchObject({ valid: true, model: "catalog", oscalVersion: "1.2.2", level: "schema", complete: true, issues: [], issueCount: 0, truncated: false });
    expect(r.meta).toMatchObject({ engine: "oscal-validator", validator: "1.2.2", patches: manifest.patches.map((p) => p.id) });
    expect(r.meta.patches).toContain("combine-method-2259");
    expect(Number.isInteger(r.meta.durationMs)).toBe(true);
    expect(r.meta.semanticRules).toBeUndefined();
  });

  it("oscalVersion is `unknown` when absent, and an unrecognized version makes the report incomplete", () => {
    const { "oscal-version": _, ...withoutVersion } = metadata;
    const missing = report({ catalog: { uuid, metadata: withoutVersion } });
    expect(missing).toMatchObject({ oscalVersion: "unknown", complete: false, valid: false });
    const unpublished = report({ catalog: { uuid, metadata: { ...metadata, "oscal-version": "1.1.6" } } });
    expect(unpublished).toMatchObject({ oscalVersion: "1.1.6", complete: false, valid: true });
    expect(report({ catalog: { uuid, metadata: { ...metadata, "oscal-version": "1.0.4" } } }).complete).toBe(true);
  });

  it("a missing required property is reported at the object, naming the property", () => {
    const { title: _, ...withoutTitle } = metadata;
    const r = report({ catalog: { uuid, metadata: withoutTitle } });
    expect(r.valid).toBe(false);
    expect(r.issues).toEqual([
      {
        ruleId: "nist-schema:1.2.2:catalog:required:#/definitions/oscal-catalog-oscal-metadata:metadata/required:required",
        path: "/catalog/metadata",
        message: 'Missing required property "title".',
        keyword: "required",
        severity: "error",
      },
    ]);
  });

  it("an unknown property is reported at the property itself", () => {
    const r = report({ catalog: { uuid, metadata, "x-extra/field": 1 } });
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]).toMatchObject({ path: "/catalog/x-extra~1field", keyword: "additionalProperties", message: 'Property "x-extra/field" is not allowed here.' });
  });

  it("enumerations list the allowed values; types name the expected type", () => {
    const r = report({ catalog: { uuid, metadata: { ...metadata, parties: [{ uuid, type: "robot", name: 5 }] } } });
    const byKeyword = Object.fromEntries(r.issues.map((issue) => [issue.keyword, issue]));
    expect(byKeyword.enum).toMatchObject({ path: "/catalog/metadata/parties/0/type", message: 'Value is not one of the allowed values: "person", "organization".' });
    expect(byKeyword.type).toMatchObject({ path: "/catalog/metadata/parties/0/name", message: "Must be a non-empty string without leading or trailing whitespace: expected a string." });
  });

  it("a failed choice (anyOf) reports the closest alternative's findings, not every branch", () => {
    // A group with controls matches the "controls" alternative; its only real problem is the title with a line break.
    const group = { id: "g1", title: "Group", controls: [{ id: "c1", title: "Line one\nline two" }] };
    const r = report({ catalog: { uuid, metadata, groups: [group] } });
    expect(r.issues).toEqual([
      expect.objectContaining({ path: "/catalog/groups/0/controls/0/title", keyword: "pattern", message: "Not a valid single line of Markdown: it holds a line break." }),
    ]);
  });

  it("an empty string says it is empty rather than what its pattern wants", () => {
    const r = report({ catalog: { uuid, metadata: { ...metadata, title: "" } } });
    expect(r.issues).toEqual([
      expect.objectContaining({ path: "/catalog/metadata/title", keyword: "pattern", message: "Must not be empty: expected a single line of Markdown (no line breaks)." }),
    ]);
  });

  it("allowed values with a datatype alternative report the datatype problem", () => {
    const r = report({ catalog: { uuid, metadata: { ...metadata, links: [{ href: "#x", rel: "not a token" }] } } });
    expect(r.issues).toEqual([expect.objectContaining({ path: "/catalog/metadata/links/0/rel", keyword: "pattern" })]);
    expect(r.issues[0]!.message).toBe('Not a valid token: a space (character 4) is not allowed; a token takes letters, digits, ".", "-" and "_" only.');
  });

  it("every rule id is in the manifest and every path resolves in the document", () => {
    const document = {
      catalog: {
        uuid: "not-a-uuid",
        metadata: { ...metadata, "last-modified": "yesterday", props: [{ name: "1bad", value: "" }], parties: [{ uuid, type: "person", "email-addresses": ["x"] }] },
        params: [],
        groups: [{ title: "No id", controls: [{ id: "c", title: "t", parts: [{ name: "item", prose: 3 }] }], groups: [] }],
        extra: true,
      },
    };
    const r = report(document);
    expect(r.issueCount).toBeGreaterThan(5);
    const known = new Set(manifest.schemaRules.catalog);
    for (const issue of r.issues) {
      expect(known.has(issue.ruleId), issue.ruleId).toBe(true);
      expect(issue.ruleId).toMatch(/^nist-schema:1\.2\.2:catalog:([A-Za-z]+):#[^ ]*\/\1:\1$/);
      expect(resolvePointer(document, issue.path).found, issue.path).toBe(true);
    }
  });

  it("caps issues at 200 while issueCount keeps the true total", () => {
    const props = Array.from({ length: 250 }, () => ({ name: "bad name", value: "v" }));
    const r = report({ catalog: { uuid, metadata: { ...metadata, props } } });
    expect(r).toMatchObject({ valid: false, issueCount: 250, truncated: true });
    expect(r.issues).toHaveLength(200);
  });

  it("a cap lists the text's findings, then the first schema findings in document order; issueCount counts them all", () => {
    const props = Array.from({ length: 30 }, (_, index) => `{"name": "bad name ${index}", "value": "v"}`).join(", ");
    const text = `{"catalog": {"uuid": "${uuid}", "uuid": "${uuid}", "metadata": {"title": "T", "last-modified": "2024-05-01T12:00:00Z", "version": "1", "oscal-version": "1.2.2", "props": [${props}]}}}`;
    const capped = (maxIssues: number) => {
      const outcome = validateBytes(new TextEncoder().encode(text), { maxIssues });
      if (outcome.kind !== "report") throw new Error(outcome.kind);
      return outcome.report;
    };
    const all = capped(Infinity);
    expect(all).toMatchObject({ valid: false, issueCount: 31, truncated: false });
    expect(all.issues[0]).toMatchObject({ keyword: "duplicate-name", path: "/catalog/uuid" });
    const three = capped(3);
    expect(three).toMatchObject({ valid: false, issueCount: 31, truncated: true });
    expect(three.issues.map((issue) => issue.path)).toEqual(all.issues.slice(0, 3).map((issue) => issue.path));
    expect(three.issues.map((issue) => issue.path)).toEqual(["/catalog/uuid", "/catalog/metadata/props/0/name", "/catalog/metadata/props/1/name"]);
    expect(capped(0)).toMatchObject({ valid: false, issueCount: 31, truncated: true, issues: [] });
  });

  it("at full, a cap lists the first semantic findings in document order, and an error past the cap still makes it invalid", () => {
    // A link to a missing target (a warning) in the metadata, before a control whose part name is not allowed (an error).
    const controls = [{ id: "c1", title: "C", parts: [{ id: "c1_smt", name: "statement" }, { id: "c1_x", name: "bogus" }] }];
    const document = { catalog: { uuid, metadata: { ...metadata, links: [{ href: "#nowhere" }] }, controls } };
    const at = (maxIssues: number) => {
      const outcome = validateDocument(document, { level: "full", maxIssues });
      if (outcome.kind !== "report") throw new Error(outcome.kind);
      return outcome.report;
    };
    const all = at(Infinity);
    // The part name fails the constraint on a control's parts and the one on every part below it: reported under each.
    expect(all.issues.map((issue) => [issue.path, issue.ruleId, issue.severity])).toEqual([
      ["/catalog/metadata/links/0/href", "DOC-003.a", "warning"],
      ["/catalog/controls/0/parts/1/name", "CAT-006.a", "error"],
      ["/catalog/controls/0/parts/1/name", "CAT-008.a", "error"],
    ]);
    expect(at(2)).toMatchObject({ valid: false, issueCount: 3, truncated: true, issues: all.issues.slice(0, 2) });
    expect(at(1)).toMatchObject({ valid: false, issueCount: 3, truncated: true, issues: [all.issues[0]] });
    expect(at(0)).toMatchObject({ valid: false, issueCount: 3, truncated: true, issues: [] });
  });

  it("a document nested too deeply to validate is a typed ERR_PAYLOAD_TOO_LARGE, not a crash", () => {
    let group: Record<string, unknown> = { id: "g", title: "t" };
    for (let depth = 0; depth < 2_000; depth++) group = { id: "g", title: "t", groups: [group] };
    const outcome = validateDocument({ catalog: { uuid, metadata, groups: [group] } }, { level: "full" });
    expect(outcome).toMatchObject({ kind: "body-error", error: { code: "ERR_PAYLOAD_TOO_LARGE" } });
  });

  it("validates bytes the same way as parsed documents", () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ catalog: { uuid, metadata } }));
    const outcome = validateBytes(bytes);
    expect(outcome.kind === "report" && outcome.report.valid).toBe(true);
  });
});

describe("options", () => {
  it.each([
    [{ level: "deep" }, "level"],
    [{ oscalVersion: "1.1.2" }, "oscal-version"],
    [{ rules: ["CAT-001.a"] }, "rules"],
    [{ level: "full", rules: ["NOPE-999.z"] }, "rules"],
  ])("rejects %j as ERR_UNSUPPORTED_PARAMETER on %s", (options, parameter) => {
    const outcome = validateDocument({ catalog: { uuid, metadata } }, options as never);
    expect(outcome.kind).toBe("option-error");
    if (outcome.kind === "option-error") expect(outcome.error).toMatchObject({ code: "ERR_UNSUPPORTED_PARAMETER", parameter });
  });

  it("an unknown rule id is named, without listing the catalog", () => {
    const outcome = validateDocument({ catalog: { uuid, metadata } }, { level: "full", rules: ["NOPE-999.z"] });
    expect(outcome.kind === "option-error" && outcome.error.detail).toBe('Unknown semantic rule id "NOPE-999.z".');
  });

  it("level full on a document rejected by the schema carries no semanticRules and is not complete", () => {
    const r = report({ catalog: { uuid: "x", metadata } }, { level: "full" });
    expect(r).toMatchObject({ level: "full", valid: false, complete: false });
    expect(r.meta.semanticRules).toBeUndefined();
  });

  it("level full on a schema-valid document reports the active semantic rule set", () => {
    const r = report({ catalog: { uuid, metadata } }, { level: "full" });
    expect(r).toMatchObject({ level: "full", complete: true });
    expect(r.meta.semanticRules?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.meta.semanticRules?.count).toBeGreaterThan(0);
  });

  it("oscal-version 1.2.2 is accepted", () => {
    expect(validateDocument({ catalog: { uuid, metadata } }, { oscalVersion: "1.2.2" }).kind).toBe("report");
  });
});
