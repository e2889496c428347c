// Messages between the HTTP thread and the validation worker threads.
import type { BodyError } from "../core/body.js";
import type { ValidateOptions } from "../core/validate.js";

export interface ValidationJob {
  id: number;
  /** Its buffer is transferred, not copied. */
  bytes: Uint8Array;
  options: ValidateOptions;
}

export type ValidationAnswer =
  | { kind: "report"; json: string; model: string; valid: boolean }
  | { kind: "body-error"; error: BodyError }
  /** Parameters are checked before the body is read, so this means a defect; it is answered as ERR_INTERNAL. */
  | { kind: "internal"; errorName: string; stack: string }
  /** The validation ran past its time limit or its worker's heap limit; the worker was replaced. */
  | { kind: "over-budget"; resource: "time" | "memory" }
  /** The client went away before an answer; nothing is sent. */
  | { kind: "cancelled" };

export type WorkerMessage = { id: number; answer: ValidationAnswer } | { ready: true };

/**
 * Tells a queued or running validation that its client has gone. An AbortSignal would do, but creating one costs more
 * than validating a small document.
 */
export interface Cancellation {
  readonly cancelled: boolean;
  /** Called once, when the client goes; never when it has already gone at registration (check `cancelled` first). */
  onCancel(listener: () => void): void;
}
