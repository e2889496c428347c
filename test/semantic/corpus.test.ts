// The whole shared corpus through check() with the default rules, against reviewed expectations
// (test/semantic/corpus-findings.json: finding counts per document and rule, with a review note).
import { describe, it, expect } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { semanticChecks } from "../../generated/models.js";

const { check } = semanticChecks();
import { DEFAULT_ON } from "./helpers.js";

const corpusDir = process.env.OSCAL_CORPUS_DIR ?? path.resolve(import.meta.dirname, "../../../shared/corpus");

interface Expectation {
  counts: Record<string, number>;
  why?: string;
}
const expectations: { documents: Record<string, Expectation> } = JSON.parse(readFileSync(new URL("./corpus-findings.json", import.meta.url), "utf8"));

export function corpusCounts(): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const dir of readdirSync(corpusDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const file of readdirSync(path.join(corpusDir, dir)).filter((f) => f.endsWith(".json")).sort()) {
      const doc = JSON.parse(readFileSync(path.join(corpusDir, dir, file), "utf8")) as Record<string, unknown>;
      const model = Object.keys(doc).find((k) => k !== "$schema") ?? "";
      const counts: Record<string, number> = {};
      for (const finding of check(model, doc, DEFAULT_ON)) counts[finding.ruleId] = (counts[finding.ruleId] ?? 0) + 1;
      out[`${dir}/${file}`] = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
    }
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
