// What validating one input yields for the CLI: the core's report, or an error worded for a terminal rather than for
// an HTTP client. Shared by the in-process path and the worker threads.
import type { ValidationReport } from "../core/report.js";
import { validateBytes, type ValidateOptions } from "../core/validate.js";
import type { YamlValidationOutcome } from "../core/yaml.js";
import type { DocumentSettings } from "./documents.js";
import { asFileDetail, coreEntryPoint, inputFormatOf, type InputFormat } from "./input-format.js";
import { readInput, readStandardInput, UnreadableInput } from "./read-file.js";

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
  /** A file a walk found that is not an OSCAL document: neither validated nor counted. */
  skipped?: true;
}

export interface ValidationSettings {
  options: ValidateOptions;
  /** How standard input is parsed; files go by their extension. */
  stdinFormat: InputFormat;
  /** The documents pack constraints may read; the core's `documents` option is built from it in each thread. */
  documents?: DocumentSettings;
  /** --max-file-size: larger inputs are refused unread. */
  maxFileBytes: number;
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

/** An input that could not be validated at all; `detail` says why, naming it. */
export function unreadable(file: string, detail: string): FileOutcome {
  return { file, error: { code: ERR_UNREADABLE_INPUT, detail } };
}

/** JSON is the default for standard input; a YAML document there fails at its first line, which a hint explains. */
function withYamlHint(error: FileError, bytes: Uint8Array): FileError {
  const first = bytes.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09 && byte !== 0xef && byte !== 0xbb && byte !== 0xbf);
  if (error.code !== "ERR_INVALID_JSON" || error.resolution !== undefined || first === 0x7b || first === 0x5b) return error;
  return { ...error, resolution: "Standard input is read as JSON; if it is YAML, add --input-format yaml." };
}

/** Validates one input; a file a walk found (`onlyOscal`) is skipped, unvalidated, when it is not an OSCAL document. */
export async function validateFile(file: string, settings: ValidationSettings, onlyOscal = false): Promise<FileOutcome> {
  const format = file === STDIN ? settings.stdinFormat : inputFormatOf(file);
  // Only runs that may read other documents load the document reader (and through it the YAML parser).
  const documents = settings.documents === undefined ? undefined : await import("./documents.js");
  const source = documents?.documentSource(settings.documents!, file === STDIN ? undefined : file);
  const options = source === undefined ? settings.options : { ...settings.options, documents: source };
  const validateInput = await coreEntryPoint(format);
  // Read once nothing is left to wait for: a JSON file is read into the memory the validation reads it from, which
  // serves one document at a time.
  let bytes: Uint8Array | undefined;
  try {
    bytes = file === STDIN ? readStandardInput(settings.maxFileBytes) : readInput(file, format, { maxBytes: settings.maxFileBytes, onlyOscal });
  } catch (error) {
    if (error instanceof UnreadableInput) return unreadable(file, error.message);
    throw error;
  }
  if (bytes === undefined) return { file, skipped: true };
  let outcome;
  try {
    // A package's JSON file may be another's import too: one parse serves both.
    outcome = documents !== undefined && format === "json" && file !== STDIN ? validateBytes(bytes, options, documents.packageFileParse(file)) : validateInput(bytes, options);
  } catch (error) {
    // A document a constraint needed is unusable: no verdict on this input, and the run exits 2 as for unreadable input.
    if (documents !== undefined && error instanceof documents.DocumentError) return unreadable(file, `Cannot validate ${file}: ${error.message}.`);
    throw error;
  }
  if (outcome.kind === "report") return { file, report: outcome.report };
  return { file, error: file === STDIN && format === "json" ? withYamlHint(fileError(outcome), bytes) : fileError(outcome) };
}
