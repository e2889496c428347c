// What validating one input yields for the CLI: the core's report, or an error worded for a terminal rather than for
// an HTTP client. Shared by the in-process path and the worker threads.
import { readFileSync } from "node:fs";
import type { ValidationReport } from "../core/report.js";
import type { ValidateOptions } from "../core/validate.js";
import type { YamlValidationOutcome } from "../core/yaml.js";
import { coreEntryPoint, inputFormatOf, type InputFormat } from "./input-format.js";

/** The CLI's name for standard input, as an argument and in output. */
export const STDIN = "-";

/** An input the CLI could not read. */
export const ERR_UNREADABLE_INPUT = "ERR_UNREADABLE_INPUT";

export interface FileError {
  code: string;
  detail: string;
  /** A next step specific to the cause, where there is one. */
  resolution?: string;
  line?: number;
  column?: number;
}

export interface FileOutcome {
  file: string;
  report?: ValidationReport;
  error?: FileError;
}

export interface ValidationSettings {
  options: ValidateOptions;
  /** How standard input is parsed; files go by their extension. */
  stdinFormat: InputFormat;
}

function fileError(outcome: Exclude<YamlValidationOutcome, { kind: "report" }>): FileError {
  const { code, detail } = outcome.error;
  // The core words its UTF-8 and JSON details for HTTP clients ("The body is not ..."); a CLI user handed in a file.
  const error: FileError = { code, detail: detail.replace(/^The body is not/, "Not") };
  if (outcome.kind === "body-error") {
    const { resolution, line, column } = outcome.error;
    if (resolution !== undefined) error.resolution = resolution;
    if (line !== undefined) error.line = line;
    if (column !== undefined) error.column = column;
  }
  return error;
}

export function unreadable(file: string, reason: string): FileOutcome {
  return { file, error: { code: ERR_UNREADABLE_INPUT, detail: `Cannot read ${file === STDIN ? "standard input" : file}: ${reason}.` } };
}

async function validateBytesOf(file: string, bytes: Uint8Array, settings: ValidationSettings): Promise<FileOutcome> {
  const format = file === STDIN ? settings.stdinFormat : inputFormatOf(file);
  const outcome = (await coreEntryPoint(format))(bytes, settings.options);
  return outcome.kind === "report" ? { file, report: outcome.report } : { file, error: fileError(outcome) };
}

export async function validateFile(file: string, settings: ValidationSettings): Promise<FileOutcome> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file === STDIN ? 0 : file);
  } catch (error) {
    return unreadable(file, (error as NodeJS.ErrnoException).code ?? "read error");
  }
  return validateBytesOf(file, bytes, settings);
}
