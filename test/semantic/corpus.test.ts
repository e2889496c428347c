// The whole shared corpus through check() with the default rules, against reviewed expectations
// (test/semantic/corpus-findings.json: finding counts per document and rule, with a review note).
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { semanticChecks } from "../../generated/models.js";
import { listCorpus, readCorpusBytes } from "../helpers/corpus.js";
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
