// The pool of validation worker threads. Each job goes to the worker with the fewest jobs in flight, so one large
// catalog occupies one core while small documents keep flowing through the others. A worker that dies is replaced and
// its jobs fail as internal errors.
import { Worker } from "node:worker_threads";
import type { ValidateOptions } from "../core/validate.js";
import type { ValidationAnswer, ValidationJob, WorkerMessage } from "./validation-protocol.js";

interface PooledWorker {
  worker: Worker;
  pending: Map<number, (answer: ValidationAnswer) => void>;
}

const WORKER_URL = new URL("./validation-worker.js", import.meta.url);

export class ValidationPool {
  private readonly workers: PooledWorker[] = [];
  private nextId = 1;
  private closing = false;

  private constructor(private readonly onWorkerFailure: (detail: string) => void) {}

  /** Resolves once every worker has loaded its validators. */
  static async start(size: number, onWorkerFailure: (detail: string) => void): Promise<ValidationPool> {
    const pool = new ValidationPool(onWorkerFailure);
    await Promise.all(Array.from({ length: size }, (_, index) => pool.spawn(index)));
    return pool;
  }

  validate(bytes: Uint8Array, options: ValidateOptions): Promise<ValidationAnswer> {
    let chosen = this.workers[0]!;
    for (const candidate of this.workers) if (candidate.pending.size < chosen.pending.size) chosen = candidate;
    const id = this.nextId++;
    return new Promise((resolve) => {
      chosen.pending.set(id, resolve);
      const job: ValidationJob = { id, bytes, options };
      chosen.worker.postMessage(job, [bytes.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }

  private spawn(index: number): Promise<void> {
    const worker = new Worker(WORKER_URL);
    const pooled: PooledWorker = { worker, pending: new Map() };
    this.workers[index] = pooled;
    return new Promise((resolve, reject) => {
      worker.on("message", (message: WorkerMessage) => {
        if ("ready" in message) return resolve();
        const settle = pooled.pending.get(message.id);
        pooled.pending.delete(message.id);
        settle?.(message.answer);
      });
      worker.on("error", (error) => {
        reject(error);
        this.onWorkerFailure(`${error.name} in validation worker ${index}`);
      });
      worker.on("exit", (code) => {
        if (this.closing) return;
        this.onWorkerFailure(`validation worker ${index} exited with code ${code}; replacing it`);
        for (const settle of pooled.pending.values()) settle({ kind: "internal", errorName: "WorkerExit", stack: `worker ${index} exited with code ${code}` });
        pooled.pending.clear();
        void this.spawn(index).catch(() => undefined);
      });
    });
  }
}
