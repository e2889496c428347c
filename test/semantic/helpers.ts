// Shared helpers for the semantic-layer tests: rule lookup by NIST id and small valid documents.
import { readFileSync } from "node:fs";
import { semanticChecks } from "../../generated/models.js";
import type { SemanticFinding } from "../../generated/semantic.cjs";

const { check, rules } = semanticChecks();

const table = readFileSync(new URL("../../compiler/semantic/rule-ids.tsv", import.meta.url), "utf8");

/** The rule id of a NIST constraint id (first entry when NIST reuses an id) or of "ours:<name>". */
export function ruleFor(source: string): string {
  for (const line of table.split("\n")) {
    const [id, key] = line.split("\t");
    if (!id || !key || line.startsWith("#")) continue;
    if (key === source || key.endsWith(` ${source}`)) return id;
  }
  throw new Error(`no rule for ${source}`);
}

export const DEFAULT_ON: ReadonlySet<string> = new Set(rules.filter((r) => r.defaultOn).map((r) => r.id));
export const ALL_RULES: ReadonlySet<string> = new Set(rules.map((r) => r.id));

export function run(model: string, doc: unknown, active: ReadonlySet<string> = ALL_RULES): SemanticFinding[] {
  return check(model, doc, active).findings;
}

export function findingsOf(findings: SemanticFinding[], ruleId: string): SemanticFinding[] {
  return findings.filter((f) => f.ruleId === ruleId);
}

export const UUID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

const metadata = () => ({ title: "T", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" });

export function catalog(extra: Record<string, unknown> = {}, metadataExtra: Record<string, unknown> = {}): { catalog: Record<string, unknown> } {
  return { catalog: { uuid: UUID(1), metadata: { ...metadata(), ...metadataExtra }, ...extra } };
}

export function profile(extra: Record<string, unknown> = {}): { profile: Record<string, unknown> } {
  return { profile: { uuid: UUID(1), metadata: metadata(), ...extra } };
}

export const statement = (id: string, prose = "Do it.") => ({ id: `${id}_smt`, name: "statement", prose });
