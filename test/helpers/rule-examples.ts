// The rule catalog's failing examples (compiler/semantic/rule-examples.json): where each one's document comes from, and
// the validation that must report its rule. Shared by scripts/rule-examples.ts, which finds them, and the test that
// keeps them honest.
import { readFileSync } from "node:fs";
import path from "node:path";
import manifest from "#generated/manifest.json" with { type: "json" };
import type { PatchOperation } from "../../compiler/json-patch.js";
import { validateDocument } from "../../runtime/core/validate.js";
import type { ValidationReport } from "../../runtime/core/report.js";
import { corpusDir } from "./corpus.js";
import { fedrampDir } from "../packs/fedramp-harness.js";

export interface RuleExample {
  /** The document: `corpus:<model>/<file>` in the corpus, or `fedramp:<path>` in the FedRAMP folder. */
  base: string;
  /** What turns the document into one the rule reports on. */
  patch: PatchOperation[];
  /** Where a finding of the rule points. */
  pointer: string;
  /** What the changed document holds there, trimmed to what matters, as pretty JSON. */
  fragment: string;
  /** The other documents a pack rule reads (an imported baseline, plan or SSP): href as the document writes it → base. */
  documents?: Record<string, string>;
}

export function resolveBase(base: string): { directory: string; read: () => unknown } {
  const separator = base.indexOf(":");
  const [kind, file] = [base.slice(0, separator), base.slice(separator + 1)];
  const directory = kind === "corpus" ? corpusDir() : kind === "fedramp" ? fedrampDir : undefined;
  if (directory === undefined) throw new Error(`unknown example base ${base}`);
  return { directory, read: () => JSON.parse(readFileSync(path.join(directory, file), "utf8")) };
}

/** Every rule a user can turn on: the default-off ones by id and every rule pack. */
const DEFAULT_OFF = manifest.semanticRules.filter((rule) => !rule.defaultOn && !("set" in rule)).map((rule) => rule.id);
const PACKS = manifest.packs.map((pack) => pack.name);
/** A fixed clock, for the pack rules that compare dates with the current time. */
const NOW = new Date("2026-06-01T00:00:00Z");

/** The documents an example names, read from their bases. */
export function readDocuments(documents: Readonly<Record<string, string>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(documents).map(([href, base]) => [href, resolveBase(base).read()]));
}

export function validateWithEveryRule(document: unknown, documents?: Readonly<Record<string, unknown>>): ValidationReport {
  const outcome = validateDocument(document, { level: "full", rules: DEFAULT_OFF, constraints: PACKS, now: NOW, maxIssues: Infinity, ...(documents === undefined ? {} : { documents }) });
  if (outcome.kind !== "report") throw new Error(`no report: ${outcome.error.code}`);
  return outcome.report;
}
