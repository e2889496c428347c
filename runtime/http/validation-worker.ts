// A worker thread: validates the bodies the HTTP thread hands over, or resolves them as profiles, and answers with the
// serialized result, so the CPU-heavy work never blocks request I/O. Each worker opens the document library itself:
// parsed documents cannot be shared between threads, so each parses a library document at its first use and keeps it.
import { parentPort, workerData } from "node:worker_threads";
import { preloadValidators } from "../core/validate.js";
import { DocumentLibrary, type LibrarySettings } from "../resolve/library.js";
import { resolutionAnswer } from "./resolution-answer.js";
import { validationAnswer } from "./validation-answer.js";
import type { WorkerJob, WorkerMessage } from "./validation-protocol.js";

const port = parentPort!;
const settings = (workerData as { library?: LibrarySettings } | undefined)?.library;
const library = settings === undefined ? undefined : new DocumentLibrary(settings);

port.on("message", (job: WorkerJob) => {
  const { task } = job;
  const answer =
    task.kind === "resolve"
      ? resolutionAnswer(job.bytes, library)
      : validationAnswer(job.bytes, library === undefined ? task.options : { ...task.options, documents: library.documents });
  port.postMessage({ id: job.id, answer } satisfies WorkerMessage);
});

preloadValidators();
port.postMessage({ ready: true } satisfies WorkerMessage);
