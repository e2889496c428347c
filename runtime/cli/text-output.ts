// Human-readable output: one line per file, then its findings. Every name and message is printed with its control
// characters escaped: file names and member names come from whoever wrote the tree and the documents.
import type { ValidationReport } from "../core/report.js";
import { PUBLISHED_OSCAL_VERSIONS } from "../core/model.js";
import type { FileOutcome } from "./file-outcome.js";
import { printable } from "./terminal.js";
import { omittedCount } from "./verdict.js";

const RED = 31;
const GREEN = 32;
const YELLOW = 33;

/** Why a report is not complete, from what it says: its version, its findings. */
function incompleteCause(report: ValidationReport): string {
  const causes: string[] = [];
  if (report.oscalVersion === "unknown") causes.push("the document declares no oscal-version");
  else if (!PUBLISHED_OSCAL_VERSIONS.has(report.oscalVersion)) causes.push(`oscal-version "${report.oscalVersion}" is not a published OSCAL release`);
  const notEvaluated = report.issues.filter((issue) => issue.keyword === "not-evaluated").length;
  if (notEvaluated > 0) causes.push(`${notEvaluated} rule-pack constraint${notEvaluated === 1 ? "" : "s"} not evaluated: ${notEvaluated === 1 ? "it needs" : "they need"} another document (--documents or --document)`);
  if (report.level === "full" && report.issues.some((issue) => issue.ruleId.startsWith("nist-schema:"))) causes.push("the constraint checks did not run, as the schema rejected the document");
  // Otherwise --max-issues hid the findings that would tell.
  return causes.length > 0 ? causes.join("; ") : "a layer not run or a rule not evaluated (--max-issues hides which)";
}

export function formatText(outcomes: readonly FileOutcome[], color: boolean): string {
  const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lines: string[] = [];
  const at = (line: number | undefined, column: number | undefined) => (line === undefined ? "" : ` (line ${line}, column ${column ?? 1})`);
  for (const outcome of outcomes) {
    const { report, error } = outcome;
    const file = printable(outcome.file);
    if (error) {
      lines.push(`${paint(RED, "ERROR")}   ${file}: ${error.code}: ${printable(error.detail)}${error.resolution ? ` ${printable(error.resolution)}` : ""}`);
      continue;
    }
    const r = report!;
    const what = `${r.model}, oscal-version ${printable(r.oscalVersion)}, level ${r.level}, ${r.meta.durationMs} ms`;
    const status = r.valid ? paint(GREEN, "VALID") : paint(RED, "INVALID");
    const omitted = omittedCount(outcome);
    const counts = r.issueCount === 0 ? "" : ` — ${r.issueCount} finding${r.issueCount === 1 ? "" : "s"}${omitted > 0 ? ` (first ${r.issues.length} shown: --max-issues)` : ""}`;
    lines.push(`${status}${r.valid ? "  " : ""} ${file} (${what})${counts}${r.complete ? "" : ` [incomplete: ${printable(incompleteCause(r))}]`}`);
    if (r.meta.release.note !== undefined) lines.push(`  note: ${printable(r.meta.release.note)}`);
    for (const issue of r.issues) {
      const severity = issue.severity === "error" ? paint(RED, "error") : paint(YELLOW, "warning");
      lines.push(`  ${severity} ${printable(issue.path || "/")}: ${printable(issue.message)} [${printable(issue.ruleId)}]${at(issue.line, issue.column)}`);
    }
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
