// A validation worker thread: parses and validates the bodies the HTTP thread hands over and answers with the
// serialized report, so the CPU-heavy work never blocks request I/O.
import { parentPort } from "node:worker_threads";
import { preloadValidators } from "../core/validate.js";
import { validationAnswer } from "./validation-answer.js";
import type { ValidationJob, WorkerMessage } from "./validation-protocol.js";

const port = parentPort!;

port.on("message", (job: ValidationJob) => {
  const message: WorkerMessage = { id: job.id, answer: validationAnswer(job.bytes, job.options) };
  port.postMessage(message);
});

preloadValidators();
port.postMessage({ ready: true } satisfies WorkerMessage);
