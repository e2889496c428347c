// What the benchmarks time: the parse floor every ratio is measured against, and a report from the core.
import { validateBytes, type ValidateOptions } from "../runtime/core/validate.js";
import type { ValidationReport } from "../runtime/core/report.js";

/** The floor: strict UTF-8 decoding and JSON.parse, the least any validator of JSON bytes must do. */
export const decodeAndParse = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));

/**
 * The floor's parse without its decoding, of text decoded beforehand: a reference, not a goal's measure. Where fresh
 * memory is dear (a host whose page faults are slow), decoding to a new string of the document's size costs more than
 * parsing it, and ratios to the floor alone would flatter a path that decodes less.
 */
export const parseDecoded = (bytes: Uint8Array): (() => unknown) => {
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  return () => JSON.parse(text);
};

export function reportOf(bytes: Uint8Array, options: ValidateOptions): ValidationReport {
  const outcome = validateBytes(bytes, options);
  if (outcome.kind !== "report") throw new Error(`the benchmark expects a JSON document with a model: ${outcome.kind}`);
  return outcome.report;
}
