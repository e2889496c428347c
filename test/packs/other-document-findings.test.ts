// A finding whose node lies in another document (FedRAMP's has-required-parameters names the baseline's parameters)
// is reported at a pointer into the submitted document, with the document and the pointer where it really is.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateBytes, validateDocument } from "../../runtime/core/validate.js";
import { excerpt } from "../../runtime/core/issue-bounds.js";
import { pointerTokens } from "../../runtime/core/json-pointer.js";
import { RULE_CATALOG } from "../../runtime/core/rule-catalog.js";
import type { ValidationIssue, ValidationReport } from "../../runtime/core/report.js";
import { documentsOf, fedrampDir, readJson } from "./fedramp-harness.js";

const EXAMPLE = "content/fedramp-ssp-example.json";
/** The example SSP's import-profile href, as written: its documents hold the resolved catalog under it. */
const PROFILE_HREF = "../../../baselines/xml/FedRAMP_rev5_MODERATE-baseline_profile.xml";
const NOW = new Date("2026-06-01T00:00:00Z");
const HAS_REQUIRED_PARAMETERS = RULE_CATALOG.find((rule) => rule.set === "fedramp" && rule.constraintId === "has-required-parameters")!.id;

/** The value a pointer names in a parsed document, or undefined when it names none. */
function at(document: unknown, pointer: string): unknown {
  let value = document;
  for (const token of pointerTokens(pointer) ?? []) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, token)) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}

function report(outcome: ReturnType<typeof validateDocument>): ValidationReport {
  if (outcome.kind !== "report") throw new Error(`no report: ${outcome.kind}`);
  return outcome.report;
}

const options = { level: "full", constraints: ["fedramp", "oscal-package"], now: NOW, maxIssues: 10_000, documents: documentsOf(EXAMPLE) } as const;

describe("findings in an imported document", () => {
  const ssp = readJson(EXAMPLE);
  const catalog = documentsOf(EXAMPLE)[PROFILE_HREF];
  const { issues } = report(validateDocument(ssp, options));
  const elsewhere = issues.filter((issue) => issue.document !== undefined);

  it("point into the submitted document and name the imported one, with a pointer that resolves there", () => {
    expect(catalog).toBeDefined();
    const parameters = elsewhere.filter((issue) => issue.ruleId === HAS_REQUIRED_PARAMETERS);
    expect(parameters.length).toBeGreaterThan(0);
    for (const issue of parameters) {
      // The SSP's own node whose constraint read the baseline: the SSP itself.
      expect(issue.path).toBe("/system-security-plan");
      expect(at(ssp, issue.path)).toBeDefined();
      expect(issue.document).toBe(PROFILE_HREF);
      expect(issue.documentPath).toMatch(/^\/catalog\/groups\/\d+\/controls\/\d+\/(controls\/\d+\/)?params\/\d+$/);
      // The pointer names the very parameter the message names, in the resolved catalog.
      const param = at(catalog, issue.documentPath!) as { id: string };
      expect(issue.message).toContain(`(${param.id})`);
      expect(issue.message).toContain(`(In the catalog the imported document "${excerpt(PROFILE_HREF)}" resolves to, at ${issue.documentPath}.)`);
    }
    expect(new Set(parameters.map((issue) => issue.documentPath)).size).toBe(parameters.length);
  });

  it("every finding's path resolves in the submitted document; only findings elsewhere carry document fields", () => {
    for (const issue of issues) expect(at(ssp, issue.path), `${issue.ruleId} ${issue.path}`).toBeDefined();
    const inSubmitted = issues.filter((issue) => issue.document === undefined);
    expect(inSubmitted.length).toBeGreaterThan(0);
    for (const issue of inSubmitted) expect(Object.keys(issue)).not.toContain("documentPath");
    for (const issue of elsewhere) expect(at(catalog, issue.documentPath!), `${issue.ruleId} ${issue.documentPath}`).toBeDefined();
  });

  it("are placed at their path in the submitted text: the SSP's value", () => {
    const text = readFileSync(path.join(fedrampDir, EXAMPLE), "utf8");
    const located = report(validateBytes(Buffer.from(text), options)).issues.find((issue: ValidationIssue) => issue.ruleId === HAS_REQUIRED_PARAMETERS && issue.keyword !== "not-evaluated")!;
    const lines = text.split("\n");
    const before = [...lines.slice(0, located.line! - 1), [...lines[located.line! - 1]!].slice(0, located.column! - 1).join("")].join("\n");
    expect(before.trimEnd()).toMatch(/^\s*\{\s*"system-security-plan"\s*:$/);
    expect(text.slice(before.length).startsWith("{")).toBe(true);
  });
});
