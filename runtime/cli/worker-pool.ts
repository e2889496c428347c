// Validates many files on several cores when that is faster: this thread and `threads - 1` worker threads take files
// from one queue, so a large tree uses the cores that are free while a small one costs no thread start-up. Results are
// stored by input position: output order never depends on which thread finished first.
import { statSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { validateFile, type FileOutcome, type ValidationSettings } from "./file-outcome.js";
import type { Worker as WorkerThread } from "node:worker_threads";
import type { FileJob, FileAnswer } from "./validation-worker.js";

/** The worker's bundle, which make build writes beside the CLI's (scripts/build-cli.mjs). */
const WORKER_URL = new URL("./validation-worker.cjs", import.meta.url);

/** Files a worker holds at once, so it rarely waits while this thread, busy validating a large file, cannot hand it more. */
const JOBS_IN_FLIGHT_PER_WORKER = 4;

/**
 * A worker thread pays a fixed start-up before its first file: a Node.js environment of its own (about 0.2 s), then
 * loading and compiling the validators of each model it meets (0.3 to 0.5 s for a mix), which this thread, warm
 * already, does in a fraction of that. On two cores a second thread made the 46 MB corpus slower (5.1 s against 3.1 s
 * at --level full), and a 273 MB tree 1.16 to 1.26 times faster: a thread is added per this many bytes of input.
 */
const BYTES_PER_EXTRA_THREAD = 128 * 1024 * 1024;

/**
 * The threads to validate `files` with: one more per 128 MB of input, no more than the cores not already busy (the
 * one-minute load average counts the busy ones: on a shared machine a thread with no core to run on only adds its
 * start-up), nor than `requested` (--jobs) or the files. One thread validates in-process, with no worker at all.
 */
export function threadCount(files: readonly string[], requested: number | undefined): number {
  const idleCores = Math.round(availableParallelism() - loadavg()[0]!);
  const most = Math.min(requested ?? availableParallelism(), idleCores, files.length);
  // The files are measured only when more than one thread could run.
  if (most <= 1) return 1;
  const bytes = files.reduce((sum, file) => sum + sizeOf(file), 0);
  return Math.min(most, 1 + Math.floor(bytes / BYTES_PER_EXTRA_THREAD));
}

/** A file that cannot be measured counts for nothing here; reading it will say why. */
function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export interface FileToValidate {
  file: string;
  /** Found by a walk: validated only if it is an OSCAL document. */
  onlyOscal: boolean;
}

/** Validates `files` with `threads` threads in all, calling `onDone` as each finishes; resolves in the order of `files`. */
export async function validateFiles(
  files: readonly FileToValidate[],
  settings: ValidationSettings,
  threads: number,
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
          worker.postMessage({ index, ...files[index]! } satisfies FileJob);
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

  const otherThreads = Math.min(threads, files.length) - 1;
  // The worker machinery is loaded only when a second thread is wanted: a single file should not pay for it. Not by
  // import(): the bundle runs as a script compiled with the code cache, which has no ES module loader to import with.
  const Worker = otherThreads > 0 ? process.getBuiltinModule("node:worker_threads").Worker : undefined;
  const workers = Worker === undefined ? [] : Array.from({ length: otherThreads }, () => runWorker(Worker));
  // This thread validates too, yielding after each file so that workers' answers are handled and they get more work.
  for (let index = take(); index !== undefined; index = take()) {
    const { file, onlyOscal } = files[index]!;
    finish(index, await validateFile(file, settings, onlyOscal));
    if (workers.length > 0) await new Promise((resume) => setImmediate(resume));
  }
  await Promise.all(workers);
  return outcomes;
}
