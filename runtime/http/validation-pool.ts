// The pool of worker threads that validate documents and resolve profiles. Jobs wait here, not in a worker's message queue, so a job whose client has gone
// is dropped before it runs. Two lanes keep small documents flowing while large ones queue: small jobs are dispatched
// first, a few at a time per worker (so a worker never idles between them), while a large job has a worker to itself
// and never takes one of the small lane's reserved workers (one by default, never all). Every job runs under a
// time limit and each worker under a heap limit; a worker past either is terminated and replaced (about a quarter
// second of one core), the job that caused it answered `over-budget`, and the small jobs it held are queued again.
import { Worker } from "node:worker_threads";
import type { ValidateOptions } from "../core/validate.js";
import type { LibrarySettings } from "../resolve/library.js";
import type { Cancellation, ResolutionAnswer, ValidationAnswer, WorkerJob, WorkerMessage, WorkerTask } from "./validation-protocol.js";

export interface PoolSettings {
  workers: number;
  /** Longest run of one validation; past it the worker is replaced and the job answered `over-budget` (time). */
  timeoutMs: number;
  /** V8 old-generation limit of each worker, in MiB; past it the worker is replaced and the job answered `over-budget` (memory). */
  workerHeapMb: number;
  /** Bodies up to this many bytes take the small lane. */
  smallBodyBytes: number;
  /** Workers large jobs never take (at most all but one), so small ones never wait for a large one. */
  smallLaneWorkers: number;
  /** The document library each worker opens, for resolution and for rule packs; absent: none. */
  library?: LibrarySettings;
}

type Answer = ValidationAnswer | ResolutionAnswer;

interface Job {
  bytes: Uint8Array;
  task: WorkerTask;
  small: boolean;
  /** Settles once; later calls are ignored (an answer that arrives after a cancellation). */
  settle(answer: Answer): void;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Jobs handed to the worker, by message id, in the order it runs them. */
  running: Map<number, Job>;
  /** Set once the worker is being terminated: no job is handed to it any more. */
  stopping: boolean;
}

/** Small jobs handed to one worker at once: enough to hide the message round trip, few enough to requeue cheaply. */
const SMALL_JOBS_PER_WORKER = 16;
const WORKER_URL = new URL("./validation-worker.js", import.meta.url);
const CANCELLED = { kind: "cancelled" } as const;

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

  /**
   * Resolves with `cancelled` as soon as the client goes: a queued job is dropped, a running large one has its worker
   * replaced, a running small one (cheap by definition) finishes unread.
   */
  validate(bytes: Uint8Array, options: ValidateOptions, cancellation?: Cancellation): Promise<ValidationAnswer> {
    // A worker answers a validate task with a validation answer.
    return this.submit(bytes, { kind: "validate", options }, cancellation) as Promise<ValidationAnswer>;
  }

  /** Resolves a profile against the document library, under the same lanes and limits as a validation. */
  resolve(bytes: Uint8Array, cancellation?: Cancellation): Promise<ResolutionAnswer> {
    return this.submit(bytes, { kind: "resolve" }, cancellation) as Promise<ResolutionAnswer>;
  }

  private submit(bytes: Uint8Array, task: WorkerTask, cancellation: Cancellation | undefined): Promise<Answer> {
    if (cancellation?.cancelled || this.closing) return Promise.resolve(CANCELLED);
    return new Promise((resolve) => {
      let settled = false;
      const job: Job = {
        bytes,
        task,
        small: bytes.byteLength <= this.settings.smallBodyBytes,
        settle: (answer) => {
          if (settled) return;
          settled = true;
          clearTimeout(job.timer);
          resolve(answer);
        },
      };
      (job.small ? this.smallQueue : this.largeQueue).push(job);
      cancellation?.onCancel(() => this.cancel(job));
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const job of this.smallQueue.splice(0).concat(this.largeQueue.splice(0))) job.settle(CANCELLED);
    await Promise.all(this.slots.map((slot) => this.stop(slot, undefined, CANCELLED)));
  }

  private cancel(job: Job): void {
    const queue = job.small ? this.smallQueue : this.largeQueue;
    const index = queue.indexOf(job);
    if (index >= 0) queue.splice(index, 1);
    // Replacing the worker costs about a quarter second of one core; letting a large job run on could cost the whole
    // time limit of a core for an answer nobody reads.
    else if (!job.small) {
      const slot = this.slots.find((candidate) => [...candidate.running.values()].includes(job));
      if (slot !== undefined) void this.stop(slot, job, CANCELLED);
    }
    job.settle(CANCELLED);
  }

  private dispatch(): void {
    const usable = this.slots.filter((slot) => slot.ready && !slot.stopping);
    const holdsLarge = (slot: Slot): boolean => [...slot.running.values()].some((job) => !job.small);
    const fewestRunning = (candidates: Slot[]): Slot | undefined =>
      candidates.reduce<Slot | undefined>((best, slot) => (best === undefined || slot.running.size < best.running.size ? slot : best), undefined);
    // A large job may start while the small lane's workers stay free of large jobs. The worker it will take gets no new
    // small jobs meanwhile, so a stream of small ones cannot keep it from ever being idle.
    const reserved = Math.min(this.settings.smallLaneWorkers, this.slots.length - 1);
    const largeMayStart = this.largeQueue.length > 0 && usable.filter(holdsLarge).length + 1 + reserved <= usable.length;
    const forLarge = largeMayStart ? fewestRunning(usable.filter((slot) => !holdsLarge(slot))) : undefined;
    if (forLarge !== undefined && forLarge.running.size === 0) this.run(forLarge, this.largeQueue.shift()!);
    // Small jobs never change which workers hold large ones: the candidates are fixed, only their loads change.
    const smallLane = usable.filter((slot) => slot !== forLarge && !holdsLarge(slot));
    for (;;) {
      if (this.smallQueue.length === 0) return;
      const chosen = fewestRunning(smallLane.filter((slot) => slot.running.size < SMALL_JOBS_PER_WORKER));
      if (chosen === undefined) return;
      this.run(chosen, this.smallQueue.shift()!);
    }
  }

  private run(slot: Slot, job: Job): void {
    const id = this.nextId++;
    slot.running.set(id, job);
    clearTimeout(job.timer);
    // Large bodies run alone and are transferred. Small ones are sent as copies, so that they can be queued again when
    // their worker is replaced because of another job.
    const bytes = job.small ? job.bytes.slice() : job.bytes;
    const message: WorkerJob = { id, bytes, task: job.task };
    slot.worker.postMessage(message, [bytes.buffer as ArrayBuffer]);
    job.timer = setTimeout(() => void this.stop(slot, job, { kind: "over-budget", resource: "time" }), this.settings.timeoutMs);
  }

  /**
   * Terminates the slot's worker: `culprit` (if any) is answered with `answer`, the other small jobs it held are queued
   * again, and large ones (they run alone, so only the culprit) are answered too.
   */
  private stop(slot: Slot, culprit: Job | undefined, answer: Answer): Promise<number> {
    if (!slot.stopping) {
      slot.stopping = true;
      culprit?.settle(answer);
      const others = [...slot.running.values()].filter((job) => job !== culprit);
      slot.running.clear();
      if (this.closing) for (const job of others) job.settle(CANCELLED);
      else this.smallQueue.unshift(...others.filter((job) => job.small));
    }
    return slot.worker.terminate();
  }

  private spawn(index: number): Promise<void> {
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: this.settings.workerHeapMb }, workerData: { library: this.settings.library } });
    const slot: Slot = { worker, ready: false, running: new Map(), stopping: false };
    this.slots[index] = slot;
    return new Promise((resolve, reject) => {
      worker.on("message", (message: WorkerMessage) => {
        if ("ready" in message) {
          slot.ready = true;
          resolve();
        } else {
          slot.running.get(message.id)?.settle(message.answer);
          slot.running.delete(message.id);
        }
        this.dispatch();
      });
      worker.on("error", (error: Error & { code?: string }) => {
        reject(error);
        // Which of the jobs exhausted the heap cannot be told apart: each is answered as over budget.
        const answer: Answer =
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? { kind: "over-budget", resource: "memory" }
            : { kind: "internal", errorName: error.name, stack: `validation worker ${index} failed` };
        if (answer.kind === "internal") this.onWorkerFailure(`${error.name} in validation worker ${index}`);
        for (const job of slot.running.values()) job.settle(answer);
        slot.running.clear();
      });
      worker.on("exit", (code) => {
        const lost = [...slot.running.values()];
        slot.running.clear();
        if (!slot.stopping) this.onWorkerFailure(`validation worker ${index} exited with code ${code}; replacing it`);
        for (const job of lost) job.settle({ kind: "internal", errorName: "WorkerExit", stack: `worker ${index} exited with code ${code}` });
        if (this.closing) return;
        void this.spawn(index).then(() => this.dispatch(), () => undefined);
      });
    });
  }
}
