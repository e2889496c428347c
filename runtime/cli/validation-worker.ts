// A CLI worker thread: reads and validates the files the main thread hands it, one at a time.
import { parentPort, workerData } from "node:worker_threads";
import { validateFile, type FileOutcome, type ValidationSettings } from "./file-outcome.js";

export interface FileJob {
  index: number;
  file: string;
}

export interface FileAnswer {
  index: number;
  outcome: FileOutcome;
}

const settings = workerData as ValidationSettings;
const port = parentPort!;

port.on("message", async ({ index, file }: FileJob) => {
  const answer: FileAnswer = { index, outcome: await validateFile(file, settings) };
  port.postMessage(answer);
});
