// Human-readable output: one line per file, then its findings.
import type { FileOutcome } from "./file-outcome.js";
import { omittedCount } from "./verdict.js";

const RED = 31;
const GREEN = 32;
const YELLOW = 33;

export function formatText(outcomes: readonly FileOutcome[], color: boolean): string {
  const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lines: string[] = [];
  const at = (line: number | undefined, column: number | undefined) => (line === undefined ? "" : ` (line ${line}, column ${column ?? 1})`);
  for (const outcome of outcomes) {
    const { file, report, error } = outcome;
    if (error) {
      lines.push(`${paint(RED, "ERROR")}   ${file}: ${error.code}: ${error.detail}${error.resolution ? ` ${error.resolution}` : ""}`);
      continue;
    }
    const r = report!;
    const what = `${r.model}, oscal-version ${r.oscalVersion}, level ${r.level}, ${r.meta.durationMs} ms`;
    const status = r.valid ? paint(GREEN, "VALID") : paint(RED, "INVALID");
    const omitted = omittedCount(outcome);
    const counts = r.issueCount === 0 ? "" : ` — ${r.issueCount} finding${r.issueCount === 1 ? "" : "s"}${omitted > 0 ? ` (first ${r.issues.length} shown: --max-issues)` : ""}`;
    lines.push(`${status}${r.valid ? "  " : ""} ${file} (${what})${counts}${r.complete ? "" : " [incomplete: unrecognized OSCAL version, a layer not run, or a rule not evaluated]"}`);
    for (const issue of r.issues) {
      const severity = issue.severity === "error" ? paint(RED, "error") : paint(YELLOW, "warning");
      lines.push(`  ${severity} ${issue.path || "/"}: ${issue.message} [${issue.ruleId}]${at(issue.line, issue.column)}`);
    }
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
