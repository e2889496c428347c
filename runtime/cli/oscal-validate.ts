// oscal-validate: validates OSCAL files and trees with the same core as the HTTP service, for CI jobs and terminals.
// make build bundles it into one CommonJS file, which the bin (oscal-validate-bin.cts) loads through the code cache.
import { now } from "../core/clock.js";
import { versionLine } from "../package-info.js";
import { parseCommandLine, USAGE, UsageError, type ValidateCommand } from "./arguments.js";
import { discoverFiles, type Discovered } from "./discover.js";
import { STDIN, unreadable, validateFile, type FileOutcome, type ValidationSettings } from "./file-outcome.js";
import { formatGithub } from "./github-output.js";
import { formatJson } from "./json-output.js";
import { formatJunit } from "./junit-output.js";
import { emit, isTerminal, printable, STDERR, STDOUT, wantsColor, write } from "./terminal.js";
import { formatText } from "./text-output.js";
import { EXIT_USAGE, exitCodeOf, summaryLine } from "./verdict.js";
import { threadCount, validateFiles, type FileToValidate } from "./worker-pool.js";

function usageError(message: string): never {
  // Set first: a write to a closed standard error ends the process with the status set by then.
  process.exitCode = EXIT_USAGE;
  write(STDERR, `oscal-validate: ${printable(message)}\nRun "oscal-validate --help" for usage.\n`);
  process.exit(EXIT_USAGE);
}

/** Standard input is read by this thread, after the files; each file by whichever thread validates it. */
async function validateAll(files: readonly FileToValidate[], settings: ValidationSettings, jobs: number | undefined): Promise<FileOutcome[]> {
  const showProgress = files.length > 1 && isTerminal(STDERR);
  const onDone = (done: number, file: string) => {
    if (showProgress) write(STDERR, `\r\x1b[2K[${done}/${files.length}] ${printable(file)}`);
  };
  const stdinIndex = files.findIndex(({ file }) => file === STDIN);
  const fromFiles = files.filter(({ file }) => file !== STDIN);
  const threads = threadCount(fromFiles.map(({ file }) => file), jobs);
  const outcomes = await validateFiles(fromFiles, settings, threads, onDone);
  if (stdinIndex >= 0) outcomes.splice(stdinIndex, 0, await validateFile(STDIN, settings));
  if (showProgress) write(STDERR, "\r\x1b[2K");
  return outcomes;
}

/** What a directory or glob that yielded no OSCAL document is reported as. */
function emptySearch(input: string, pattern: boolean, skipped: number): FileOutcome {
  const where = pattern ? `match ${input}` : `found under ${input}`;
  if (skipped === 0) return unreadable(input, pattern ? `No file matches ${input}.` : `No OSCAL documents found under ${input}: it holds no .json, .yaml or .yml file.`);
  return unreadable(input, `No OSCAL documents ${where}: ${skipped} JSON or YAML file${skipped === 1 ? "" : "s"} skipped, not OSCAL (--verbose lists them).`);
}

/** The outcomes in output order: each file's, each unreadable entry's, and an error for each search that found no document. */
function inOrder(discovered: readonly Discovered[], validated: ReadonlyMap<string, FileOutcome>): FileOutcome[] {
  const outcomes: FileOutcome[] = [];
  for (const item of discovered) {
    if (item.kind === "file") outcomes.push(validated.get(item.file)!);
    else if (item.kind === "unreadable") outcomes.push(unreadable(item.file, item.detail));
    else if (item.files.every((file) => validated.get(file)!.skipped)) outcomes.push(emptySearch(item.input, item.pattern, item.files.length));
  }
  return outcomes;
}

/** `outcomes` includes skipped files, which only JSON lists; the other formats report the documents. */
async function render(command: ValidateCommand, outcomes: readonly FileOutcome[], exitCode: number, elapsedMs: number): Promise<string> {
  if (command.format === "json") return formatJson(outcomes);
  const documents = outcomes.filter((outcome) => !outcome.skipped);
  switch (command.format) {
    case "sarif": {
      // Loaded only for SARIF: it brings the rule catalog and the API description along.
      const { toSarif } = await import("./sarif.js");
      return `${JSON.stringify(toSarif(documents, { cwd: process.cwd(), docsBaseUrl: command.docsBaseUrl, exitCode }), null, 2)}\n`;
    }
    case "github":
      return formatGithub(documents);
    case "junit":
      return formatJunit(documents, command.failOn, elapsedMs);
    case "text":
      return formatText(documents, command.output === undefined && wantsColor(STDOUT));
  }
}

async function runValidate(command: ValidateCommand): Promise<void> {
  const started = now();
  const discovered = discoverFiles(command.inputs, command.exclude);
  const files = discovered.flatMap((item) => (item.kind === "file" ? [{ file: item.file, onlyOscal: item.walked }] : []));
  const settings: ValidationSettings = { options: command.options, stdinFormat: command.stdinFormat, documents: command.documents, maxFileBytes: command.maxFileBytes };
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
  const validated = await validateAll(files, settings, command.jobs);
  const outcomes = inOrder(discovered, new Map(validated.map((outcome) => [outcome.file, outcome])));
  const documents = outcomes.filter((outcome) => !outcome.skipped);
  const skipped = outcomes.filter((outcome) => outcome.skipped).map((outcome) => outcome.file);
  const exitCode = exitCodeOf(documents, command.failOn);
  process.exitCode = exitCode;
  const elapsedMs = now() - started;
  const writeError = emit(await render(command, outcomes, exitCode, elapsedMs), command.output);
  if (command.verbose) for (const file of skipped) write(STDERR, `oscal-validate: skipped ${printable(file)}: not an OSCAL document\n`);
  write(STDERR, `${summaryLine(documents, skipped.length, command.verbose, elapsedMs)}\n`);
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
      const { explainRule, formatRules } = await import("./rules-output.js");
      const { RULE_CATALOG } = await import("../core/rule-catalog.js");
      let text: string;
      if (command.explain === undefined) text = formatRules(command.format, command.sets);
      else {
        const rule = RULE_CATALOG.find((entry) => entry.id === command.explain);
        if (rule === undefined) usageError(`--explain: no rule "${command.explain}"; "oscal-validate rules" lists them.`);
        text = explainRule(rule, command.format);
      }
      const writeError = emit(text, command.output);
      if (writeError !== undefined) usageError(writeError);
      break;
    }
    case "resolve": {
      const { runResolve } = await import("./resolve-command.js");
      process.exitCode = runResolve(command);
      break;
    }
    case "validate":
      await runValidate(command);
  }
}

// No top-level await: the bundle is CommonJS. Everything is written by now: the exit status is process.exitCode, and
// garbage collection V8 has queued after a large document (about 10 ms) need not run.
void main().then(() => process.exit());
