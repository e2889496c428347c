// A validation worker thread: parses and validates the bodies the HTTP thread hands over and answers with the
// serialized report, so the CPU-heavy work never blocks request I/O.
import { parentPort } from "node:worker_threads";
import { preloadValidators, validateBytes } from "../core/validate.js";
import { describeError } from "./log.js";
import type { ValidationAnswer, ValidationJob, WorkerMessage } from "./validation-protocol.js";

const port = parentPort!;

function answer(job: ValidationJob): ValidationAnswer {
  try {
    const outcome = validateBytes(job.bytes, job.options);
    if (outcome.kind === "report") return { kind: "report", json: JSON.stringify(outcome.report), model: outcome.report.model, valid: outcome.report.valid };
    if (outcome.kind === "body-error") return { kind: "body-error", error: outcome.error };
    return { kind: "internal", errorName: "OptionError", stack: `unexpected option error for parameter ${outcome.error.parameter}` };
  } catch (error) {
    const { error: errorName, stack } = describeError(error);
    return { kind: "internal", errorName, stack };
  }
}

port.on("message", (job: ValidationJob) => {
  const message: WorkerMessage = { id: job.id, answer: answer(job) };
  port.postMessage(message);
});

preloadValidators();
port.postMessage({ ready: true } satisfies WorkerMessage);
