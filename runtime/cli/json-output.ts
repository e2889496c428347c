// JSON output: an array with one entry per input, the core's report plus "file", or the error it met.
import type { FileOutcome } from "./file-outcome.js";

export function formatJson(outcomes: readonly FileOutcome[]): string {
  const entries = outcomes.map(({ file, report, error }) => (report ? { file, ...report } : { file, error }));
  return `${JSON.stringify(entries, null, 2)}\n`;
}
