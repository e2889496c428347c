// The whole shared corpus through check() with the default rules, against reviewed expectations
// (test/semantic/corpus-findings.json: finding counts per document and rule, with a review note).
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { semanticChecks } from "../../generated/models.js";
import { listCorpus, readCorpusBytes } from "../helpers/corpus.js";
import { validateBytes } from "../../runtime/core/validate.js";
import { ALL_RULES, DEFAULT_ON } from "./helpers.js";

const { check } = semanticChecks();

interface Expectation {
  counts: Record<string, number>;
  why?: string;
}
const expectations: { documents: Record<string, Expectation> } = JSON.parse(readFileSync(new URL("./corpus-findings.json", import.meta.url), "utf8"));

export function corpusCounts(): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const document of listCorpus()) {
    const counts: Record<string, number> = {};
    const parsed = JSON.parse(new TextDecoder().decode(readCorpusBytes(document)));
    for (const finding of check(document.model, parsed, DEFAULT_ON).findings) counts[finding.ruleId] = (counts[finding.ruleId] ?? 0) + 1;
    out[document.file] = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
  }
  return out;
}

describe("corpus at level=full", () => {
  const actual = corpusCounts();
  it("covers exactly the corpus documents", () => expect(Object.keys(expectations.documents).sort()).toEqual(Object.keys(actual).sort()));
  for (const [name, counts] of Object.entries(actual)) {
    it(name, () => {
      const expected = expectations.documents[name];
      expect(counts).toEqual(expected?.counts);
      if (Object.keys(counts).length > 0) expect(expected?.why, `review note for ${name}`).toBeTruthy();
    });
  }
});

describe("a value several strict constraints miss, on corpus documents", () => {
  // Control props in the OSCAL namespace with names such as sort-order: the control's constraint and every prop's own
  // miss them, and each reports them, the control's (met first) first.
  const corpusBytes = (file: string) => readCorpusBytes(listCorpus().find((document) => document.file === file)!);
  const pathsOf = (findings: readonly { ruleId: string; path: string }[], ruleId: string) => findings.filter((f) => f.ruleId === ruleId).map((f) => f.path);

  it("is reported under each of them by the semantic layer: the CIS catalog", () => {
    const findings = check("catalog", JSON.parse(new TextDecoder().decode(corpusBytes("catalog/cis-windows-server-2022-l1-member-server-catalog.json"))), DEFAULT_ON).findings;
    const everyProperty = pathsOf(findings, "MET-001.a");
    expect(everyProperty).toHaveLength(339);
    expect(everyProperty).toEqual(pathsOf(findings, "CAT-002.a"));
    expect(findings.map((f) => f.ruleId)).toEqual(everyProperty.flatMap(() => ["CAT-002.a", "MET-001.a"]));
  });

  it("is reported under each of them in a report at level full: the SP 800-53 rev4 high baseline", () => {
    const outcome = validateBytes(corpusBytes("catalog/nist-sp800-53-rev4-high-baseline-resolved-catalog.json"), { level: "full", maxIssues: Number.POSITIVE_INFINITY });
    if (outcome.kind !== "report") throw new Error(`expected a report, got ${outcome.kind}`);
    const { issues, issueCount } = outcome.report;
    const everyProperty = pathsOf(issues, "MET-001.a");
    expect(everyProperty).toHaveLength(170);
    expect(everyProperty).toEqual(pathsOf(issues, "CAT-002.a"));
    for (const path of everyProperty) expect(issues.filter((issue) => issue.path === path).map((issue) => issue.ruleId)).toEqual(["CAT-002.a", "MET-001.a"]);
    // 258 findings before, 170 of them under CAT-002.a: each of those nodes is now reported twice.
    expect(issueCount).toBe(428);
  });
});

describe("corpus findings in words", () => {
  it("name no Metapath and no constraint id, outside the quoted values and patterns, with every rule on", () => {
    const metapath: string[] = [];
    let findings = 0;
    for (const document of listCorpus()) {
      const parsed = JSON.parse(new TextDecoder().decode(readCorpusBytes(document)));
      for (const finding of check(document.model, parsed, ALL_RULES).findings) {
        findings++;
        const words = finding.message.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/pattern \S+/g, "pattern");
        if (/[[\]@]|::|oscal-/.test(words)) metapath.push(`${document.file} ${finding.ruleId}: ${finding.message}`);
      }
    }
    expect(findings).toBeGreaterThan(100);
    expect(metapath).toEqual([]);
  });
});
