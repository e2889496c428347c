// Messages between the HTTP thread and the worker threads, which validate documents and resolve profiles.
import type { BodyError } from "../core/body.js";
import type { ValidateOptions } from "../core/validate.js";
import type { ResolutionFailure } from "../resolve/index.js";

/** What a worker does with a body: validate it, or resolve it as a profile against the document library. */
export type WorkerTask = { kind: "validate"; options: ValidateOptions } | { kind: "resolve" };

export interface WorkerJob {
  id: number;
  /** Its buffer is transferred, not copied. */
  bytes: Uint8Array;
  task: WorkerTask;
}

/** What the pool answers for any job it could not run to its end. */
export type PoolFailure =
  /** An unexpected failure (parameters are checked before the body is read); answered as ERR_INTERNAL. */
  | { kind: "internal"; errorName: string; stack: string }
  /** The job ran past its time limit or its worker's heap limit; the worker was replaced. */
  | { kind: "over-budget"; resource: "time" | "memory" }
  /** The client went away before an answer; nothing is sent. */
  | { kind: "cancelled" };

export type ValidationAnswer = { kind: "report"; json: string; model: string; valid: boolean } | { kind: "body-error"; error: BodyError } | PoolFailure;

export type ResolutionAnswer =
  | { kind: "catalog"; json: string }
  | { kind: "unresolvable"; failure: ResolutionFailure }
  | { kind: "body-error"; error: BodyError }
  | PoolFailure;

export type WorkerMessage = { id: number; answer: ValidationAnswer | ResolutionAnswer } | { ready: true };

/**
 * Tells a queued or running validation that its client has gone. An AbortSignal would do, but creating one costs more
 * than validating a small document.
 */
export interface Cancellation {
  readonly cancelled: boolean;
  /** Called once, when the client goes; never when it has already gone at registration (check `cancelled` first). */
  onCancel(listener: () => void): void;
}
