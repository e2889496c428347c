// What the benchmarks time: the parse floor every ratio is measured against, and a report from the core.
import { validateBytes, type ValidateOptions } from "../runtime/core/validate.js";
import type { ValidationReport } from "../runtime/core/report.js";

/** The floor: strict UTF-8 decoding and JSON.parse, the least any validator of JSON bytes must do. */
export const decodeAndParse = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));

export function reportOf(bytes: Uint8Array, options: ValidateOptions): ValidationReport {
  const outcome = validateBytes(bytes, options);
  if (outcome.kind !== "report") throw new Error(`the benchmark expects a JSON document with a model: ${outcome.kind}`);
  return outcome.report;
}
