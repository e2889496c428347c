// What a run of outcomes means: the exit status, which files fail, and the counts of the summary line.
import type { Severity, ValidationIssue } from "../core/report.js";
import { ERR_UNREADABLE_INPUT, type FileOutcome } from "./file-outcome.js";

export const EXIT_VALID = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

const SEVERITY_RANK: Record<Severity, number> = { warning: 1, error: 2 };

export function atOrAbove(issue: ValidationIssue, failOn: Severity): boolean {
  return SEVERITY_RANK[issue.severity] >= SEVERITY_RANK[failOn];
}

/** A file fails when it could not be validated or has a finding at or above `failOn`. */
export function fails(outcome: FileOutcome, failOn: Severity): boolean {
  return outcome.error !== undefined || outcome.report!.issues.some((issue) => atOrAbove(issue, failOn));
}

export function exitCodeOf(outcomes: readonly FileOutcome[], failOn: Severity): number {
  if (outcomes.some((outcome) => outcome.error?.code === ERR_UNREADABLE_INPUT)) return EXIT_USAGE;
  return outcomes.some((outcome) => fails(outcome, failOn)) ? EXIT_FINDINGS : EXIT_VALID;
}

/** Findings a report counts but does not list, because of --max-issues. */
export function omittedCount(outcome: FileOutcome): number {
  return outcome.report ? outcome.report.issueCount - outcome.report.issues.length : 0;
}

/** One line for standard error: files, valid, invalid, not validated, findings by severity, files skipped, wall time. */
export function summaryLine(outcomes: readonly FileOutcome[], skippedCount: number, verbose: boolean, elapsedMs: number): string {
  let valid = 0;
  let invalid = 0;
  let errors = 0;
  let warnings = 0;
  for (const { report } of outcomes) {
    if (!report) continue;
    if (report.valid) valid++;
    else invalid++;
    for (const issue of report.issues) {
      if (issue.severity === "error") errors++;
      else warnings++;
    }
  }
  const notValidated = outcomes.length - valid - invalid;
  const omitted = outcomes.reduce((sum, outcome) => sum + omittedCount(outcome), 0);
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
  return (
    `oscal-validate: ${plural(outcomes.length, "file")}: ${valid} valid, ${invalid} invalid, ${notValidated} not validated; ` +
    `${plural(errors, "error")}, ${plural(warnings, "warning")}${omitted > 0 ? ` (${omitted} more not shown: --max-issues)` : ""}; ` +
    (skippedCount > 0 ? `${plural(skippedCount, "file")} skipped: not OSCAL${verbose ? "" : " (--verbose lists them)"}; ` : "") +
    `${(elapsedMs / 1000).toFixed(2)} s`
  );
}
