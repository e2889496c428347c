// GitHub Actions workflow commands: one annotation per finding, on the file and line it concerns.
import type { FileOutcome } from "./file-outcome.js";
import { STDIN } from "./file-outcome.js";
import { printable } from "./terminal.js";
import { omittedCount } from "./verdict.js";

/**
 * Message data: %, CR and LF would end or corrupt the command (GitHub turns %0D and %0A back into line breaks); any
 * other control character is written as an escape, so that a name from a document cannot colour or rewrite the log.
 */
export function escapeData(text: string): string {
  return printable(text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A"));
}

/** Property values additionally end at ":" and ",". */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function command(kind: "error" | "warning", file: string, properties: Record<string, string | number | undefined>, message: string): string {
  const all: Record<string, string | number | undefined> = { file: file === STDIN ? undefined : file, ...properties };
  const rendered = Object.entries(all)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${escapeProperty(String(value))}`)
    .join(",");
  return `::${kind}${rendered === "" ? "" : ` ${rendered}`}::${escapeData(message)}`;
}

export function formatGithub(outcomes: readonly FileOutcome[]): string {
  const lines: string[] = [];
  for (const outcome of outcomes) {
    const { file, report, error } = outcome;
    if (error) {
      lines.push(command("error", file, { line: error.line, col: error.column, title: error.code }, error.resolution ? `${error.detail} ${error.resolution}` : error.detail));
      continue;
    }
    for (const issue of report!.issues) {
      lines.push(command(issue.severity, file, { line: issue.line ?? 1, col: issue.column ?? 1, title: issue.ruleId }, `${issue.message} (at ${issue.path || "/"})`));
    }
    const omitted = omittedCount(outcome);
    if (omitted > 0) lines.push(command("warning", file, { title: "oscal-validate" }, `${omitted} more findings not reported because of --max-issues (${report!.issueCount} in all).`));
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
