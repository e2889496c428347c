// `oscal-validate rules`: every semantic rule (or those of some sets), as a JSON array or an aligned table; or one
// rule explained in full (--explain).
import { RULE_CATALOG, type RuleCatalogEntry, type RuleExample } from "../core/rule-catalog.js";
import type { RulesFormat } from "./arguments.js";

/**
 * One rule in full: what it checks, why (where its source says), how to fix a finding, where it comes from, for
 * NIST's its Metapath, and a failing example where one is known.
 */
export function explainRule(rule: RuleCatalogEntry, format: RulesFormat): string {
  if (format === "json") return `${JSON.stringify(rule, null, 2)}\n`;
  const origin = rule.set === "nist" ? "NIST OSCAL metaschema" : rule.set === "ours" ? "this validator" : `the ${rule.set} rule pack`;
  const lines = [
    `${rule.id} (${rule.keyword}, ${rule.severity}, ${rule.defaultOn ? "on" : "off"} by default, level ${rule.level})`,
    rule.description,
    ...(rule.remarks === undefined ? [] : [`Why: ${rule.remarks}`]),
    ...(rule.fix === undefined ? [] : [`Fix: ${rule.fix}`]),
    `Models: ${rule.models.join(", ")}`,
    `Source: ${origin}${rule.constraintId === undefined ? "" : `, constraint ${rule.constraintId}`}`,
    ...(rule.metapath === undefined ? [] : [`Metapath: ${rule.metapath}`]),
    ...(rule.example === undefined ? [] : exampleLines(rule.example)),
    ...(rule.unreachableReason === undefined ? [] : ["", `No failing example: ${rule.unreachableReason}`]),
  ];
  return `${lines.join("\n")}\n`;
}

function exampleLines(example: RuleExample): string[] {
  return ["", `Example (a finding at ${example.pointer || "the document root"}):`, ...example.fragment.split("\n").map((line) => `  ${line}`)];
}

/** `sets`: the rule sets to list (`nist`, `ours`, a pack's name); every rule when empty. */
export function formatRules(format: RulesFormat, sets: readonly string[] = []): string {
  const catalog = sets.length === 0 ? RULE_CATALOG : RULE_CATALOG.filter((rule) => sets.includes(rule.set));
  if (format === "json") {
    const rules = catalog.map(({ id, constraintId, set, severity, defaultOn, description, remarks, fix, example, reachable, unreachableReason }) => ({
      id, ...(constraintId === undefined ? {} : { constraintId }), set, severity, defaultOn, description, ...(remarks === undefined ? {} : { remarks }),
      ...(fix === undefined ? {} : { fix }), ...(example === undefined ? {} : { example }),
      ...(reachable === undefined ? {} : { reachable, unreachableReason }),
    }));
    return `${JSON.stringify(rules, null, 2)}\n`;
  }
  const header = ["ID", "SET", "SEVERITY", "DEFAULT", "DESCRIPTION"];
  const rows = catalog.map((rule) => [rule.id, rule.set, rule.severity, rule.defaultOn ? "on" : "off", rule.description]);
  const widths = header.slice(0, -1).map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column]!) : cell)).join("  ");
  return `${[header, ...rows].map(line).join("\n")}\n`;
}
