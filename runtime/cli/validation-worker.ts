// A CLI worker thread: reads and validates the files the main thread hands it, one at a time.
import { parentPort, workerData } from "node:worker_threads";
import { validateFile, type FileOutcome, type ValidationSettings } from "./file-outcome.js";
import type { FileToValidate } from "./worker-pool.js";

export interface FileJob extends FileToValidate {
  index: number;
}

export interface FileAnswer {
  index: number;
  outcome: FileOutcome;
}

const settings = workerData as ValidationSettings;
const port = parentPort!;

port.on("message", async ({ index, file, onlyOscal }: FileJob) => {
  const answer: FileAnswer = { index, outcome: await validateFile(file, settings, onlyOscal) };
  port.postMessage(answer);
});
