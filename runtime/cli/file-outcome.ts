// What validating one input yields for the CLI: the core's report, or an error worded for a terminal rather than for
// an HTTP client. Shared by the in-process path and the worker threads.
import type { ValidationReport } from "../core/report.js";
import type { ValidateOptions } from "../core/validate.js";
import type { YamlValidationOutcome } from "../core/yaml.js";
import type { DocumentSettings } from "./documents.js";
import { asFileDetail, coreEntryPoint, inputFormatOf, type InputFormat } from "./input-format.js";
import { readInput } from "./read-file.js";

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
  /** The documents pack constraints may read; the core's `documents` option is built from it in each thread. */
  documents?: DocumentSettings;
}

function fileError(outcome: Exclude<YamlValidationOutcome, { kind: "report" }>): FileError {
  const { code, detail } = outcome.error;
  const error: FileError = { code, detail: asFileDetail(detail) };
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

export async function validateFile(file: string, settings: ValidationSettings): Promise<FileOutcome> {
  const format = file === STDIN ? settings.stdinFormat : inputFormatOf(file);
  // Only runs given --documents or --document load the document reader (and through it the YAML parser).
  const documents = settings.documents === undefined ? undefined : await import("./documents.js");
  const options = documents === undefined ? settings.options : { ...settings.options, documents: documents.documentSource(settings.documents!) };
  const validateInput = await coreEntryPoint(format);
  // Read once nothing is left to wait for: a JSON file is read into the memory the validation reads it from, which
  // serves one document at a time.
  let bytes: Uint8Array;
  try {
    bytes = readInput(file === STDIN ? 0 : file, format === "json");
  } catch (error) {
    return unreadable(file, (error as NodeJS.ErrnoException).code ?? "read error");
  }
  let outcome;
  try {
    outcome = validateInput(bytes, options);
  } catch (error) {
    // A document a constraint needed is unusable: no verdict on this input, and the run exits 2 as for unreadable input.
    if (documents !== undefined && error instanceof documents.DocumentError) return unreadable(file, error.message);
    throw error;
  }
  return outcome.kind === "report" ? { file, report: outcome.report } : { file, error: fileError(outcome) };
}
