// JSON output: an array with one entry per input, the core's report plus "file", or the error it met; a file a walk
// found that is not an OSCAL document is listed as skipped, where it was found.
import type { FileOutcome } from "./file-outcome.js";

const NOT_OSCAL = "not an OSCAL document";

export function formatJson(outcomes: readonly FileOutcome[]): string {
  const entries = outcomes.map(({ file, report, error }) => (report ? { file, ...report } : error ? { file, error } : { file, skipped: NOT_OSCAL }));
  return `${JSON.stringify(entries, null, 2)}\n`;
}
