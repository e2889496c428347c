#!/usr/bin/env node
// oscal-validate: validates OSCAL JSON files with the same core as the HTTP service, for CI jobs and terminals.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { validateBytes, resolveOptions, VALIDATOR_RELEASE, type ValidateOptions } from "../core/validate.js";
import type { Level } from "../core/report.js";
import { toSarif, type FileOutcome } from "./sarif.js";
import { formatText } from "./text-output.js";

const USAGE = `Usage: oscal-validate [--level schema|full] [--rules ID,...] [--format text|json|sarif] FILE...

Validates OSCAL ${VALIDATOR_RELEASE} JSON documents. FILE may be - for standard input.

  --level schema|full   schema: the OSCAL JSON schemas (default); full: schema plus OSCAL constraint checks
  --rules ID,...        enable default-off semantic rules (with --level full)
  --format text|json|sarif
                        text (default), a JSON array of reports (each with "file"), or SARIF 2.1.0
  -h, --help            show this help

Exit status: 0 all inputs valid, 1 any input invalid, 2 usage error or unreadable input.
`;

const EXIT_VALID = 0;
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;

function fail(message: string): never {
  process.stderr.write(`oscal-validate: ${message}\n\n${USAGE}`);
  process.exit(EXIT_USAGE);
}

function parseCommandLine(): { files: string[]; options: ValidateOptions; format: "text" | "json" | "sarif" } {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        level: { type: "string" },
        rules: { type: "string" },
        format: { type: "string", default: "text" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  if (parsed.values.help) {
    process.stdout.write(USAGE);
    process.exit(EXIT_VALID);
  }
  const format = parsed.values.format;
  if (format !== "text" && format !== "json" && format !== "sarif") fail(`unknown --format "${format}"`);
  if (parsed.positionals.length === 0) fail("no input files");
  const options: ValidateOptions = {
    level: parsed.values.level as Level | undefined,
    rules: parsed.values.rules?.split(",").map((id) => id.trim()).filter((id) => id !== ""),
  };
  const resolved = resolveOptions(options);
  if (!resolved.ok) fail(resolved.error.detail);
  return { files: parsed.positionals, options, format };
}

function readInput(file: string): Buffer {
  return file === "-" ? readFileSync(0) : readFileSync(file);
}

function validateFile(file: string, options: ValidateOptions): { outcome: FileOutcome; unreadable: boolean } {
  let bytes: Buffer;
  try {
    bytes = readInput(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "read error";
    return { outcome: { file, error: { code: "ERR_UNREADABLE_INPUT", detail: `Cannot read ${file === "-" ? "standard input" : file}: ${reason}.` } }, unreadable: true };
  }
  const result = validateBytes(bytes, options);
  if (result.kind === "report") return { outcome: { file, report: result.report }, unreadable: false };
  const { code, detail } = result.error;
  const resolution = result.kind === "body-error" ? result.error.resolution : undefined;
  return { outcome: { file, error: { code, detail, ...(resolution === undefined ? {} : { resolution }) } }, unreadable: false };
}

function main(): void {
  const { files, options, format } = parseCommandLine();
  const showProgress = process.stderr.isTTY === true && files.length > 1;
  const outcomes: FileOutcome[] = [];
  let exitCode = EXIT_VALID;
  files.forEach((file, index) => {
    if (showProgress) process.stderr.write(`\r\x1b[2K[${index + 1}/${files.length}] ${file}`);
    const { outcome, unreadable } = validateFile(file, options);
    outcomes.push(outcome);
    if (unreadable) exitCode = EXIT_USAGE;
    else if ((outcome.error || !outcome.report!.valid) && exitCode === EXIT_VALID) exitCode = EXIT_INVALID;
  });
  if (showProgress) process.stderr.write("\r\x1b[2K");

  if (format === "json") {
    const entries = outcomes.map(({ file, report, error }) => (report ? { file, ...report } : { file, error }));
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  } else if (format === "sarif") {
    process.stdout.write(`${JSON.stringify(toSarif(outcomes, VALIDATOR_RELEASE), null, 2)}\n`);
  } else {
    process.stdout.write(formatText(outcomes, process.stdout.isTTY === true));
  }
  process.exitCode = exitCode;
}

main();
