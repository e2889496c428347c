// One validation as the service answers it: the report serialized, or why there is none. The worker threads and the
// inline path for small bodies (on the HTTP thread) both answer through this one function.
import { validateBytes, type ValidateOptions } from "../core/validate.js";
import { describeError } from "./log.js";
import type { ValidationAnswer } from "./validation-protocol.js";

export function validationAnswer(bytes: Uint8Array, options: ValidateOptions): ValidationAnswer {
  try {
    const outcome = validateBytes(bytes, options);
    if (outcome.kind === "report") return { kind: "report", json: JSON.stringify(outcome.report), model: outcome.report.model, valid: outcome.report.valid };
    if (outcome.kind === "body-error") return { kind: "body-error", error: outcome.error };
    return { kind: "internal", errorName: "OptionError", stack: `unexpected option error for parameter ${outcome.error.parameter}` };
  } catch (error) {
    const { error: errorName, stack } = describeError(error);
    return { kind: "internal", errorName, stack };
  }
}
