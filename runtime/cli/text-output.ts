// Human-readable output: one line per file, then its findings.
import type { FileOutcome } from "./sarif.js";

export function formatText(outcomes: readonly FileOutcome[], color: boolean): string {
  const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lines: string[] = [];
  for (const { file, report, error } of outcomes) {
    if (error) {
      lines.push(`${paint(31, "ERROR")}   ${file}: ${error.code}: ${error.detail}${error.resolution ? ` ${error.resolution}` : ""}`);
      continue;
    }
    const r = report!;
    const what = `${r.model}, oscal-version ${r.oscalVersion}, level ${r.level}, ${r.meta.durationMs} ms`;
    const status = r.valid ? paint(32, "VALID") : paint(31, "INVALID");
    const counts = r.issueCount === 0 ? "" : ` — ${r.issueCount} finding${r.issueCount === 1 ? "" : "s"}${r.truncated ? ` (first ${r.issues.length} shown)` : ""}`;
    lines.push(`${status}${r.valid ? "  " : ""} ${file} (${what})${counts}${r.complete ? "" : " [incomplete: unrecognized OSCAL version or layer not run]"}`);
    for (const issue of r.issues) {
      const severity = issue.severity === "error" ? paint(31, "error") : paint(33, "warning");
      lines.push(`  ${severity} ${issue.path || "/"}: ${issue.message} [${issue.ruleId}]`);
    }
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
