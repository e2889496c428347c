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

export const RULE_EXAMPLES_FILE = path.join(repoRoot, "compiler/semantic/rule-examples.json");

/** The examples by rule id; a rule the build does not know, or a fragment that is not JSON, stops the build. */
export function loadRuleExamples(knownRules: ReadonlySet<string>, file: string = RULE_EXAMPLES_FILE): Map<string, RuleExample> {
  const examples = JSON.parse(readFileSync(file, "utf8")) as Record<string, RuleExample>;
  const byRule = new Map<string, RuleExample>();
  for (const [rule, { pointer, fragment }] of Object.entries(examples)) {
    if (!knownRules.has(rule)) throw new Error(`${path.relative(repoRoot, file)} has an example for ${rule}, which is no rule`);
    JSON.parse(fragment);
    byRule.set(rule, { pointer, fragment });
  }
  return byRule;
}
