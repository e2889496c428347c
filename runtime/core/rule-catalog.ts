// The catalog of semantic rules, for people choosing `rules=` ids: read from the manifest, never from the checks.
import manifest from "#generated/manifest.json" with { type: "json" };
import type { Model, Severity } from "./report.js";

export type RuleSet = "nist" | "ours";

export interface RuleCatalogEntry {
  id: string;
  /** The NIST metaschema constraint's own id; absent for our rules and for NIST constraints that have none. */
  constraintId?: string;
  set: RuleSet;
  severity: Severity;
  defaultOn: boolean;
  /** The metaschema constraint kind (allowed-values, index-has-key, ...). */
  keyword: string;
  models: Model[];
  description: string;
}

// Manifest sources are "ours:<name>" for our rules, the constraint id for NIST constraints that have one, and
// "<module>:<context> <kind> target=..." (with a space) for NIST constraints without one.
function entry(rule: (typeof manifest.semanticRules)[number]): RuleCatalogEntry {
  const set: RuleSet = rule.source.startsWith("ours:") ? "ours" : "nist";
  const constraintId = set === "nist" && !/\s/.test(rule.source) ? rule.source : undefined;
  return {
    id: rule.id,
    ...(constraintId === undefined ? {} : { constraintId }),
    set,
    severity: rule.severity as Severity,
    defaultOn: rule.defaultOn,
    keyword: rule.keyword,
    models: rule.models as Model[],
    description: rule.description,
  };
}

/** Every semantic rule, in the manifest's (append-only id) order. */
export const RULE_CATALOG: readonly RuleCatalogEntry[] = manifest.semanticRules.map(entry);
