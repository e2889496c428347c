// The semantic layer's rule selection and invocation. The checks are generated code (compiler/semantic), loaded on the
// first full-level run; the rule list comes from the manifest, so resolving options never loads them.
import { createHash } from "node:crypto";
import { semanticChecks } from "#generated/models.js";
import manifest from "#generated/manifest.json" with { type: "json" };
import type { Model, ValidationIssue } from "./report.js";

export interface ActiveRules {
  ids: ReadonlySet<string>;
  /** Hex SHA-256 over the sorted active ids joined by "\n": identifies the rule set a report was checked with. */
  sha256: string;
}

const KNOWN_RULES: ReadonlySet<string> = new Set(manifest.semanticRules.map((rule) => rule.id));
const DEFAULT_RULES: readonly string[] = manifest.semanticRules.filter((rule) => rule.defaultOn).map((rule) => rule.id);

function activeRules(ids: Iterable<string>): ActiveRules {
  const set = new Set(ids);
  const sha256 = createHash("sha256").update([...set].sort().join("\n")).digest("hex");
  return { ids: set, sha256 };
}

const DEFAULT_ACTIVE = activeRules(DEFAULT_RULES);

export function resolveSemanticRules(requested: readonly string[]): { ok: true; active: ActiveRules } | { ok: false; unknownId: string } {
  const unknownId = requested.find((id) => !KNOWN_RULES.has(id));
  if (unknownId !== undefined) return { ok: false, unknownId };
  if (requested.every((id) => DEFAULT_ACTIVE.ids.has(id))) return { ok: true, active: DEFAULT_ACTIVE };
  return { ok: true, active: activeRules([...DEFAULT_RULES, ...requested]) };
}

/** The first `limit` findings in document order (all when absent), how many there are, and how many are errors. */
export function runSemanticLayer(
  model: Model,
  document: unknown,
  active: ActiveRules,
  limit?: number,
): { issues: ValidationIssue[]; count: number; errors: number } {
  const { findings, count, errors } = semanticChecks().check(model, document, active.ids, limit);
  return { issues: findings, count, errors };
}
