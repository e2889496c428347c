// JUnit XML for test-report tools: one testsuite, one testcase per file, a failure listing the findings of each file
// that fails, an error for each input that could not be read.
import type { Severity } from "../core/report.js";
import { ERR_UNREADABLE_INPUT, type FileOutcome } from "./file-outcome.js";
import { fails, omittedCount } from "./verdict.js";

// XML 1.0 allows no other control characters, not even escaped.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML_CHARS, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function testcase(outcome: FileOutcome, failOn: Severity): string {
  const { file, report, error } = outcome;
  const open = `  <testcase classname="oscal-validate" name="${escapeXml(file)}" time="${seconds(report?.meta.durationMs ?? 0)}"`;
  if (error) {
    const element = error.code === ERR_UNREADABLE_INPUT ? "error" : "failure";
    const text = error.resolution ? `${error.detail} ${error.resolution}` : error.detail;
    return `${open}>\n    <${element} type="${escapeXml(error.code)}" message="${escapeXml(error.detail)}">${escapeXml(text)}</${element}>\n  </testcase>`;
  }
  if (!fails(outcome, failOn)) return `${open}/>`;
  const findings = report!.issues.map((issue) => `${issue.severity} ${issue.path || "/"}: ${issue.message} [${issue.ruleId}]`);
  const omitted = omittedCount(outcome);
  if (omitted > 0) findings.push(`${omitted} more findings not reported because of --max-issues.`);
  const message = `${report!.issueCount} finding${report!.issueCount === 1 ? "" : "s"} (${report!.model}, level ${report!.level})`;
  return `${open}>\n    <failure type="invalid" message="${escapeXml(message)}">${escapeXml(findings.join("\n"))}</failure>\n  </testcase>`;
}

export function formatJunit(outcomes: readonly FileOutcome[], failOn: Severity, elapsedMs: number): string {
  const errors = outcomes.filter((outcome) => outcome.error?.code === ERR_UNREADABLE_INPUT).length;
  const failures = outcomes.filter((outcome) => fails(outcome, failOn)).length - errors;
  const counts = `tests="${outcomes.length}" failures="${failures}" errors="${errors}" time="${seconds(elapsedMs)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="oscal-validate" ${counts}>`,
    `<testsuite name="oscal-validate" ${counts} skipped="0">`,
    ...outcomes.map((outcome) => testcase(outcome, failOn)),
    "</testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
