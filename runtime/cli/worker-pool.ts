// Validates many files on all cores: this thread and `jobs - 1` worker threads take files from one queue, so a tree
// of files uses every core while a single file costs no thread start-up. Results are stored by input position:
// output order never depends on which thread finished first.
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { validateFile, type FileOutcome, type ValidationSettings } from "./file-outcome.js";
import type { Worker as WorkerThread } from "node:worker_threads";
import type { FileJob, FileAnswer } from "./validation-worker.js";

/** The worker's bundle, which make build writes beside the CLI's (scripts/build-cli.mjs). */
const WORKER_URL = new URL("./validation-worker.cjs", import.meta.url);

/** Files a worker holds at once, so it rarely waits while this thread, busy validating a large file, cannot hand it more. */
const JOBS_IN_FLIGHT_PER_WORKER = 4;

/**
 * A thread pays a fixed start-up (loading and compiling the validators it meets, about a third of a second of CPU),
 * which validating some 15 MB of documents takes; below twice that, a second thread costs more than it saves.
 */
const BYTES_PER_THREAD = 32 * 1024 * 1024;

/** Threads worth starting for `files` when the user did not say: one per 32 MB, up to the available parallelism. */
export function defaultThreads(files: readonly string[]): number {
  const bytes = files.reduce((sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0);
  return Math.max(1, Math.min(availableParallelism(), Math.ceil(bytes / BYTES_PER_THREAD)));
}

/** Validates `files` with `jobs` threads in all, calling `onDone` as each finishes; resolves in the order of `files`. */
export async function validateFiles(
  files: readonly string[],
  settings: ValidationSettings,
  jobs: number,
  onDone: (doneCount: number, file: string) => void,
): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = new Array(files.length);
  let next = 0;
  let done = 0;
  const take = () => (next < files.length ? next++ : undefined);
  const finish = (index: number, outcome: FileOutcome) => {
    outcomes[index] = outcome;
    onDone(++done, outcome.file);
  };

  const runWorker = (Worker: typeof WorkerThread) =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(WORKER_URL, { workerData: settings });
      let inFlight = 0;
      const dispatch = () => {
        const index = take();
        if (index !== undefined) {
          inFlight++;
          worker.postMessage({ index, file: files[index]! } satisfies FileJob);
        } else if (inFlight === 0) {
          void worker.terminate().then(() => resolve(), reject);
        }
      };
      worker.on("message", ({ index, outcome }: FileAnswer) => {
        inFlight--;
        finish(index, outcome);
        dispatch();
      });
      worker.on("error", reject);
      for (let i = 0; i < JOBS_IN_FLIGHT_PER_WORKER; i++) dispatch();
    });

  const otherThreads = Math.min(jobs, files.length) - 1;
  // The worker machinery is loaded only when a second thread is wanted: a single file should not pay for it. Not by
  // import(): the bundle runs as a script compiled with the code cache, which has no ES module loader to import with.
  const Worker = otherThreads > 0 ? process.getBuiltinModule("node:worker_threads").Worker : undefined;
  const workers = Worker === undefined ? [] : Array.from({ length: otherThreads }, () => runWorker(Worker));
  // This thread validates too, yielding after each file so that workers' answers are handled and they get more work.
  for (let index = take(); index !== undefined; index = take()) {
    finish(index, await validateFile(files[index]!, settings));
    if (workers.length > 0) await new Promise((resume) => setImmediate(resume));
  }
  await Promise.all(workers);
  return outcomes;
}
