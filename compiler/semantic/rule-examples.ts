// The rule catalog's failing examples: compiler/semantic/rule-examples.json, written by scripts/rule-examples.ts and
// kept honest by test/semantic/rule-examples.test.ts, which rebuilds each example's document (`base` and `patch`) and
// checks that its rule reports at `pointer`. The catalog carries only what a reader needs: where and what.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../paths.js";

export interface RuleExample {
  /** Where a finding of the rule points, in the example's document. */
  pointer: string;
  /** The object there (or holding the value there), trimmed to what matters, as pretty JSON. */
  fragment: string;
}

/**
 * Why a rule can never report on a document the semantic layer sees (which the schema layer has accepted), so that no
 * failing example exists: `known-values`, an allowed-values rule with allow-other="yes" (it documents values and never
 * reports, alone or beside stricter rules); `schema-enum`, a strict allowed-values rule whose list is the enum the JSON schema puts on the
 * same property (`schemaEnum`, its JSON Pointer in the complete schema), so another value fails the schema first;
 * `schema-single`, an is-unique rule over a member the schema allows once (`schemaProperty`), so there are never two.
 */
export type Unreachable = { reason: "known-values" } | { reason: "schema-enum"; schemaEnum: string } | { reason: "schema-single"; schemaProperty: string };

export function unreachableRules({ knownValues, schemaEnforced, singleMember }: {
  knownValues: readonly string[];
  schemaEnforced: Readonly<Record<string, string>>;
  singleMember: Readonly<Record<string, string>>;
}): Map<string, Unreachable> {
  return new Map<string, Unreachable>([
    ...knownValues.map((id) => [id, { reason: "known-values" }] as const),
    ...Object.entries(schemaEnforced).map(([id, schemaEnum]) => [id, { reason: "schema-enum", schemaEnum }] as const),
    ...Object.entries(singleMember).map(([id, schemaProperty]) => [id, { reason: "schema-single", schemaProperty }] as const),
  ].sort(([a], [b]) => a.localeCompare(b)));
}

export const RULE_EXAMPLES_FILE = path.join(repoRoot, "compiler/semantic/rule-examples.json");

/**
 * The examples by rule id; a rule the build does not know, one it knows to be unreachable (the two claims contradict
 * each other), or a fragment that is not JSON, stops the build.
 */
export function loadRuleExamples(knownRules: ReadonlySet<string>, unreachable: ReadonlyMap<string, Unreachable>, file: string = RULE_EXAMPLES_FILE): Map<string, RuleExample> {
  const examples = JSON.parse(readFileSync(file, "utf8")) as Record<string, RuleExample>;
  const byRule = new Map<string, RuleExample>();
  for (const [rule, { pointer, fragment }] of Object.entries(examples)) {
    if (!knownRules.has(rule)) throw new Error(`${path.relative(repoRoot, file)} has an example for ${rule}, which is no rule`);
    if (unreachable.has(rule)) throw new Error(`${path.relative(repoRoot, file)} has an example for ${rule}, which the build found unreachable (${unreachable.get(rule)!.reason})`);
    JSON.parse(fragment);
    byRule.set(rule, { pointer, fragment });
  }
  return byRule;
}
