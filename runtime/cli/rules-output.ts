// `oscal-validate rules`: every semantic rule (or those of some sets), as a JSON array or an aligned table.
import { RULE_CATALOG } from "../core/rule-catalog.js";
import type { RulesFormat } from "./arguments.js";

/** `sets`: the rule sets to list (`nist`, `ours`, a pack's name); every rule when empty. */
export function formatRules(format: RulesFormat, sets: readonly string[] = []): string {
  const catalog = sets.length === 0 ? RULE_CATALOG : RULE_CATALOG.filter((rule) => sets.includes(rule.set));
  if (format === "json") {
    const rules = catalog.map(({ id, constraintId, set, severity, defaultOn, description }) => ({ id, ...(constraintId === undefined ? {} : { constraintId }), set, severity, defaultOn, description }));
    return `${JSON.stringify(rules, null, 2)}\n`;
  }
  const header = ["ID", "SET", "SEVERITY", "DEFAULT", "DESCRIPTION"];
  const rows = catalog.map((rule) => [rule.id, rule.set, rule.severity, rule.defaultOn ? "on" : "off", rule.description]);
  const widths = header.slice(0, -1).map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column]!) : cell)).join("  ");
  return `${[header, ...rows].map(line).join("\n")}\n`;
}
