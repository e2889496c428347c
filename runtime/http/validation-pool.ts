// The pool of validation worker threads. Each worker runs one job at a time; jobs wait here, not in a worker's message
// queue, so a job whose client has gone is dropped before it runs. Two lanes keep small documents flowing while large
// ones queue: small jobs are always dispatched first, and (with two or more workers) large jobs never occupy the last
// idle worker, so a small document waits at most for a small one. Every job runs under a time limit and each worker
// under a heap limit; a worker past either is terminated and replaced (about a quarter second of one core), and the
// job is answered as over budget.
import { Worker } from "node:worker_threads";
import type { ValidateOptions } from "../core/validate.js";
import type { ValidationAnswer, ValidationJob, WorkerMessage } from "./validation-protocol.js";

export interface PoolSettings {
  workers: number;
  /** Longest run of one validation; past it the worker is replaced and the job answered `over-budget` (time). */
  timeoutMs: number;
  /** V8 old-generation limit of each worker, in MiB; past it the worker is replaced and the job answered `over-budget` (memory). */
  workerHeapMb: number;
  /** Bodies up to this many bytes take the small lane. */
  smallBodyBytes: number;
}

interface Job {
  bytes: Uint8Array;
  options: ValidateOptions;
  settle(answer: ValidationAnswer): void;
  signal: AbortSignal | undefined;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | undefined;
  /** Why the current job's worker is being stopped, once decided (so the exit answers the job accordingly). */
  stopReason: ValidationAnswer | undefined;
  timer: NodeJS.Timeout | undefined;
}

const WORKER_URL = new URL("./validation-worker.js", import.meta.url);
const CANCELLED: ValidationAnswer = { kind: "cancelled" };

export class ValidationPool {
  private readonly slots: Slot[] = [];
  private readonly smallQueue: Job[] = [];
  private readonly largeQueue: Job[] = [];
  private nextId = 1;
  private closing = false;

  private constructor(
    private readonly settings: PoolSettings,
    private readonly onWorkerFailure: (detail: string) => void,
  ) {}

  /** Resolves once every worker has loaded its validators. */
  static async start(settings: PoolSettings, onWorkerFailure: (detail: string) => void): Promise<ValidationPool> {
    const pool = new ValidationPool(settings, onWorkerFailure);
    await Promise.all(Array.from({ length: settings.workers }, (_, index) => pool.spawn(index)));
    return pool;
  }

  /** Resolves with `cancelled` as soon as `signal` aborts: a queued job is dropped, a running one's worker replaced. */
  validate(bytes: Uint8Array, options: ValidateOptions, signal?: AbortSignal): Promise<ValidationAnswer> {
    if (signal?.aborted || this.closing) return Promise.resolve(CANCELLED);
    return new Promise((resolve) => {
      const job: Job = { bytes, options, signal, settle: resolve };
      const queue = bytes.byteLength <= this.settings.smallBodyBytes ? this.smallQueue : this.largeQueue;
      queue.push(job);
      signal?.addEventListener("abort", () => this.cancel(job), { once: true });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const job of this.smallQueue.splice(0).concat(this.largeQueue.splice(0))) job.settle(CANCELLED);
    await Promise.all(this.slots.map((slot) => this.stop(slot, CANCELLED)));
  }

  private cancel(job: Job): void {
    for (const queue of [this.smallQueue, this.largeQueue]) {
      const index = queue.indexOf(job);
      if (index >= 0) {
        queue.splice(index, 1);
        return job.settle(CANCELLED);
      }
    }
    // Replacing the worker costs about a quarter second of one core; letting the job run on could cost the whole
    // time limit of a core for an answer nobody reads.
    const slot = this.slots.find((candidate) => candidate.job === job);
    if (slot !== undefined) void this.stop(slot, CANCELLED);
  }

  private dispatch(): void {
    for (;;) {
      const idle = this.slots.filter((slot) => slot.ready && slot.job === undefined);
      if (idle.length === 0) return;
      const largeMayRun = this.slots.length < 2 || idle.length > 1;
      const job = this.smallQueue.shift() ?? (largeMayRun ? this.largeQueue.shift() : undefined);
      if (job === undefined) return;
      this.run(idle[0]!, job);
    }
  }

  private run(slot: Slot, job: Job): void {
    slot.job = job;
    const message: ValidationJob = { id: this.nextId++, bytes: job.bytes, options: job.options };
    slot.worker.postMessage(message, [job.bytes.buffer as ArrayBuffer]);
    slot.timer = setTimeout(() => void this.stop(slot, { kind: "over-budget", resource: "time" }), this.settings.timeoutMs);
  }

  /** Terminates the slot's worker; its job (if any) is answered with `answer` once it has exited. */
  private stop(slot: Slot, answer: ValidationAnswer): Promise<number> {
    slot.stopReason ??= answer;
    clearTimeout(slot.timer);
    return slot.worker.terminate();
  }

  private finishJob(slot: Slot, answer: ValidationAnswer): void {
    clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = undefined;
    job?.settle(answer);
  }

  private spawn(index: number): Promise<void> {
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: this.settings.workerHeapMb } });
    const slot: Slot = { worker, ready: false, job: undefined, stopReason: undefined, timer: undefined };
    this.slots[index] = slot;
    return new Promise((resolve, reject) => {
      worker.on("message", (message: WorkerMessage) => {
        if ("ready" in message) {
          slot.ready = true;
          resolve();
        } else if (slot.stopReason === undefined) this.finishJob(slot, message.answer);
        this.dispatch();
      });
      worker.on("error", (error: Error & { code?: string }) => {
        if (error.code === "ERR_WORKER_OUT_OF_MEMORY") slot.stopReason ??= { kind: "over-budget", resource: "memory" };
        else this.onWorkerFailure(`${error.name} in validation worker ${index}`);
        reject(error);
      });
      worker.on("exit", (code) => {
        const reason = slot.stopReason ?? { kind: "internal", errorName: "WorkerExit", stack: `worker ${index} exited with code ${code}` };
        this.finishJob(slot, reason);
        if (this.closing) return;
        if (reason.kind === "internal") this.onWorkerFailure(`validation worker ${index} exited with code ${code}; replacing it`);
        void this.spawn(index).then(() => this.dispatch(), () => undefined);
      });
    });
  }
}
