// Every real-world corpus document, validated at level schema from its bytes, must get the verdict recorded (and
// reviewed, with the reason) in expected-verdicts.json; every finding must name a rule of the manifest and point at a
// value that exists in the document.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { validateBytes } from "../../runtime/core/validate.js";
import { corpusDir, listCorpus, readCorpusBytes, repoRoot } from "../helpers/corpus.js";
import { resolvePointer } from "../helpers/json-pointer.js";

interface ExpectedVerdict {
  file: string;
  valid: boolean;
  issueCount: number;
  /** Distinct rule ids of the reported issues (a truncated report carries only the first issues), sorted. */
  rules: string[];
  /** Why the document fails, checked against its content and the 1.2.2 schema; null for valid documents. */
  reason: string | null;
}

const expectedVerdicts: ExpectedVerdict[] = JSON.parse(readFileSync(new URL("./expected-verdicts.json", import.meta.url), "utf8"));
const schemaRules: Record<string, string[]> = JSON.parse(readFileSync(path.join(repoRoot, "generated/manifest.json"), "utf8")).schemaRules;
const documents = listCorpus();

describe(`schema-level verdicts of the corpus in ${corpusDir()}`, () => {
  test("the expected verdicts cover exactly the corpus documents", () => {
    expect(documents.length).toBeGreaterThan(0);
    expect(expectedVerdicts.map((verdict) => verdict.file).sort()).toEqual(documents.map((document) => document.file));
  });

  test("every invalid document has a reviewed reason, no valid one has", () => {
    for (const verdict of expectedVerdicts) {
      if (verdict.valid) expect(verdict.reason, verdict.file).toBeNull();
      else expect(verdict.reason?.length ?? 0, verdict.file).toBeGreaterThan(20);
    }
  });

  const expectedByFile = new Map(expectedVerdicts.map((verdict) => [verdict.file, verdict]));

  test.each(documents.map((document) => [document.file, document] as const))("%s", (file, document) => {
    const bytes = readCorpusBytes(document);
    const outcome = validateBytes(bytes, { level: "schema" });
    if (outcome.kind !== "report") throw new Error(`${file}: expected a report, got ${outcome.kind}: ${JSON.stringify(outcome.error)}`);
    const { report } = outcome;
    const expected = expectedByFile.get(file);
    expect(expected, `${file} has no recorded verdict`).toBeDefined();

    expect(report.model).toBe(document.model);
    expect({ valid: report.valid, issueCount: report.issueCount, rules: [...new Set(report.issues.map((issue) => issue.ruleId))].sort() }).toEqual({
      valid: expected!.valid,
      issueCount: expected!.issueCount,
      rules: expected!.rules,
    });

    const knownRules = new Set(schemaRules[document.model]);
    const unknownRules = report.issues.map((issue) => issue.ruleId).filter((ruleId) => !knownRules.has(ruleId));
    expect([...new Set(unknownRules)], "rule ids missing from generated/manifest.json schemaRules").toEqual([]);

    if (report.issues.length === 0) return;
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    const unresolved = report.issues
      .map((issue) => ({ path: issue.path, resolution: resolvePointer(parsed, issue.path) }))
      .filter(({ resolution }) => !resolution.found);
    expect(unresolved, "issue paths that do not resolve in the document").toEqual([]);
  });
});
