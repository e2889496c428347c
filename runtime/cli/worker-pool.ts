// Validates many files on worker threads, one file at a time per worker, so a tree of files uses every core. Results
// come back by input position: output order never depends on which worker finished first.
import { Worker } from "node:worker_threads";
import { validateFile, type FileOutcome, type ValidationSettings } from "./file-outcome.js";
import type { FileJob, FileAnswer } from "./validation-worker.js";

const WORKER_URL = new URL("./validation-worker.js", import.meta.url);

/**
 * Validates `files` with `jobs` threads (in this thread when `jobs` is 1 or there is a single file) and calls
 * `onDone` as each finishes. Resolves to the outcomes in the order of `files`.
 */
export async function validateFiles(
  files: readonly string[],
  settings: ValidationSettings,
  jobs: number,
  onDone: (doneCount: number, file: string) => void,
): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = new Array(files.length);
  const threads = Math.min(jobs, files.length);
  if (threads <= 1) {
    files.forEach((file, index) => {
      outcomes[index] = validateFile(file, settings);
      onDone(index + 1, file);
    });
    return outcomes;
  }
  let next = 0;
  let done = 0;
  const runWorker = () =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(WORKER_URL, { workerData: settings });
      const dispatch = () => {
        if (next >= files.length) {
          void worker.terminate().then(() => resolve());
          return;
        }
        const job: FileJob = { index: next, file: files[next]! };
        next++;
        worker.postMessage(job);
      };
      worker.on("message", ({ index, outcome }: FileAnswer) => {
        outcomes[index] = outcome;
        onDone(++done, outcome.file);
        dispatch();
      });
      worker.on("error", reject);
      dispatch();
    });
  await Promise.all(Array.from({ length: threads }, runWorker));
  return outcomes;
}
