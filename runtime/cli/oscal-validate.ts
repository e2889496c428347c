// oscal-validate: validates OSCAL files and trees with the same core as the HTTP service, for CI jobs and terminals.
// make build bundles it into one CommonJS file, which the bin (oscal-validate-bin.cts) loads through the code cache.
import { now } from "../core/clock.js";
import { versionLine } from "../package-info.js";
import { parseCommandLine, USAGE, UsageError, type ValidateCommand } from "./arguments.js";
import { discoverFiles } from "./discover.js";
import { STDIN, unreadable, validateFile, type FileOutcome, type ValidationSettings } from "./file-outcome.js";
import { formatGithub } from "./github-output.js";
import { formatJson } from "./json-output.js";
import { formatJunit } from "./junit-output.js";
import { emit, isTerminal, STDERR, STDOUT, wantsColor, write } from "./terminal.js";
import { formatText } from "./text-output.js";
import { EXIT_USAGE, exitCodeOf, summaryLine } from "./verdict.js";
import { defaultThreads, validateFiles } from "./worker-pool.js";

function usageError(message: string): never {
  // Set first: a write to a closed standard error ends the process with the status set by then.
  process.exitCode = EXIT_USAGE;
  write(STDERR, `oscal-validate: ${message}\nRun "oscal-validate --help" for usage.\n`);
  process.exit(EXIT_USAGE);
}

/** Standard input is read by this thread, after the files; each file by whichever thread validates it. */
async function validateAll(files: readonly string[], settings: ValidationSettings, jobs: number | undefined): Promise<FileOutcome[]> {
  const showProgress = files.length > 1 && isTerminal(STDERR);
  const onDone = (done: number, file: string) => {
    if (showProgress) write(STDERR, `\r\x1b[2K[${done}/${files.length}] ${file}`);
  };
  const stdinIndex = files.indexOf(STDIN);
  const fromFiles = files.filter((file) => file !== STDIN);
  const outcomes = await validateFiles(fromFiles, settings, jobs ?? defaultThreads(fromFiles), onDone);
  if (stdinIndex >= 0) outcomes.splice(stdinIndex, 0, await validateFile(STDIN, settings));
  if (showProgress) write(STDERR, "\r\x1b[2K");
  return outcomes;
}

async function render(command: ValidateCommand, outcomes: readonly FileOutcome[], exitCode: number, elapsedMs: number): Promise<string> {
  switch (command.format) {
    case "json":
      return formatJson(outcomes);
    case "sarif": {
      // Loaded only for SARIF: it brings the rule catalog and the API description along.
      const { toSarif } = await import("./sarif.js");
      return `${JSON.stringify(toSarif(outcomes, { cwd: process.cwd(), docsBaseUrl: command.docsBaseUrl, exitCode }), null, 2)}\n`;
    }
    case "github":
      return formatGithub(outcomes);
    case "junit":
      return formatJunit(outcomes, command.failOn, elapsedMs);
    case "text":
      return formatText(outcomes, command.output === undefined && wantsColor(STDOUT));
  }
}

async function runValidate(command: ValidateCommand): Promise<void> {
  const started = now();
  const { files, unmatched } = discoverFiles(command.inputs, command.exclude);
  const settings: ValidationSettings = { options: command.options, stdinFormat: command.stdinFormat, documents: command.documents };
  // Files named by --document are checked before any validation, so that a wrong one is a usage error; this thread
  // keeps them parsed for the files it validates itself.
  if (command.documents !== undefined) {
    const { DocumentError, readDocument } = await import("./documents.js");
    try {
      for (const file of Object.values(command.documents.files)) readDocument(file);
    } catch (error) {
      if (error instanceof DocumentError) usageError(`--document: ${error.message}`);
      throw error;
    }
  }
  const outcomes = (await validateAll(files, settings, command.jobs)).map((outcome) =>
    unmatched.has(outcome.file) ? unreadable(outcome.file, "no file matches this pattern") : outcome,
  );
  const exitCode = exitCodeOf(outcomes, command.failOn);
  process.exitCode = exitCode;
  const elapsedMs = now() - started;
  const writeError = emit(await render(command, outcomes, exitCode, elapsedMs), command.output);
  write(STDERR, `${summaryLine(outcomes, elapsedMs)}\n`);
  if (writeError !== undefined) usageError(writeError);
}

async function main(): Promise<void> {
  let command;
  try {
    command = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) usageError(error.message);
    throw error;
  }
  switch (command.command) {
    case "help":
      write(STDOUT, USAGE);
      break;
    case "version":
      write(STDOUT, `${versionLine("oscal-validate")}\n`);
      break;
    case "rules": {
      const { formatRules } = await import("./rules-output.js");
      const writeError = emit(formatRules(command.format, command.sets), command.output);
      if (writeError !== undefined) usageError(writeError);
      break;
    }
    case "validate":
      await runValidate(command);
  }
}

// No top-level await: the bundle is CommonJS. Everything is written by now: the exit status is process.exitCode, and
// garbage collection V8 has queued after a large document (about 10 ms) need not run.
void main().then(() => process.exit());
