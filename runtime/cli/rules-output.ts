// `oscal-validate rules`: every semantic rule, as a JSON array or an aligned table.
import { RULE_CATALOG } from "../core/rule-catalog.js";
import type { RulesFormat } from "./arguments.js";

export function formatRules(format: RulesFormat): string {
  if (format === "json") {
    const rules = RULE_CATALOG.map(({ id, constraintId, set, severity, defaultOn, description }) => ({ id, ...(constraintId === undefined ? {} : { constraintId }), set, severity, defaultOn, description }));
    return `${JSON.stringify(rules, null, 2)}\n`;
  }
  const header = ["ID", "SET", "SEVERITY", "DEFAULT", "DESCRIPTION"];
  const rows = RULE_CATALOG.map((rule) => [rule.id, rule.set, rule.severity, rule.defaultOn ? "on" : "off", rule.description]);
  const widths = header.slice(0, -1).map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column]!) : cell)).join("  ");
  return `${[header, ...rows].map(line).join("\n")}\n`;
}
