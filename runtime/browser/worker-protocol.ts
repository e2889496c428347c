// Messages between the validation page and its worker.
import type { Level, ValidationReport } from "../core/report.js";

export interface ValidationRequest {
  /** The document's bytes, transferred (not copied) to the worker. */
  bytes: ArrayBuffer;
  format: "json" | "yaml";
  level: Level;
  rules: string[];
}

/** An input the core refuses, with the error code the service and the CLI use for it. */
export interface InputError {
  code: string;
  detail: string;
  resolution?: string;
  line?: number;
  column?: number;
}

export type WorkerMessage =
  | { kind: "progress"; stage: string }
  | { kind: "report"; report: ValidationReport }
  | { kind: "error"; error: InputError }
  | { kind: "failure"; message: string };
