// The oscal-validate command line: options, their checks, and usage errors worded for a terminal.
import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ruleIdList, type Level, type Severity } from "../core/report.js";
import { DEFAULT_PACKS, RULE_PACKS } from "../core/semantic.js";
import { resolveOptions, type OptionError, type ValidateOptions } from "../core/validate.js";
import { OSCAL_RELEASE, PACKAGE_DOCS_URL } from "../package-info.js";
import type { DocumentSettings } from "./documents.js";
import { INPUT_FORMATS, type InputFormat } from "./input-format.js";
import { STDIN } from "./file-outcome.js";
import { DEFAULT_MAX_FILE_BYTES } from "./read-file.js";

export const OUTPUT_FORMATS = ["text", "json", "sarif", "github", "junit"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const RULES_FORMATS = ["text", "json"] as const;
export type RulesFormat = (typeof RULES_FORMATS)[number];

export interface ValidateCommand {
  command: "validate";
  inputs: string[];
  exclude: string[];
  options: ValidateOptions;
  stdinFormat: InputFormat;
  /** --max-file-size in bytes. */
  maxFileBytes: number;
  format: OutputFormat;
  output: string | undefined;
  /** The most threads the user allows; the pool starts no more than the input and the free cores warrant (see worker-pool.ts). */
  jobs: number | undefined;
  /** --verbose: list the files a walk skipped. */
  verbose: boolean;
  failOn: Severity;
  /** Where SARIF rules link for help; undefined: no links, the rules carry their help text only. */
  docsBaseUrl: string | undefined;
  /** --documents and --document: what pack constraints may read; absent, constraints needing a document are not evaluated. */
  documents: DocumentSettings | undefined;
}

/** `resolve PROFILE`: the profile resolved into a catalog, from local files only. */
export interface ResolveCommand {
  command: "resolve";
  profile: string;
  output: string | undefined;
  /** --documents: the directory relative hrefs may read (default: the profile's); --document: hrefs mapped to files. */
  documents: DocumentSettings | undefined;
}

export type Command =
  | ValidateCommand
  | ResolveCommand
  | { command: "rules"; format: RulesFormat; output: string | undefined; sets: string[]; explain: string | undefined }
  | { command: "help" }
  | { command: "version" };

export const USAGE = `Usage: oscal-validate [OPTION]... PATH...
       oscal-validate rules [--format text|json] [--set nist|ours|PACK]... [--explain RULE]
       oscal-validate resolve PROFILE [-o OUT] [--documents DIR] [--document HREF=FILE]...

Validates OSCAL ${OSCAL_RELEASE} JSON documents. PATH is a file, a directory (searched for .json, .yaml and .yml
files; hidden directories and node_modules are skipped), a glob such as 'ssp/**/*.json' (quoted or not), or - for
standard input. A file a directory or glob finds is validated only when it is an OSCAL document (its root has a
catalog, profile, ... member); others (package.json, workflows) are skipped and counted. A file named is always
validated. "rules" lists the semantic rules that --level full runs and --rules or --constraints enables
(--set keeps one set: NIST's constraints, our own checks, or a rule pack's; --explain RULE shows one rule in full:
what it checks, how to fix a finding, its constraint and, for NIST's, its Metapath). "resolve" writes the catalog a
profile resolves to (NIST's profile resolution; JSON, or YAML when OUT ends in .yaml or .yml): its relative hrefs
are read inside DIR (default: the profile's directory), any other href only as --document maps it; exit 2 when it
cannot be resolved (a missing or circular import, a control the catalog lacks).

Validation:
  --level schema|full      schema: the OSCAL JSON schemas (default); full: also the OSCAL constraint checks
  --rules ID,...           enable default-off semantic rules (with --level full; see "oscal-validate rules")
  --constraints NAME       enable every rule of a rule pack (with --level full; repeatable; this build holds:
                           ${RULE_PACKS.join(", ")}; ${DEFAULT_PACKS.join(", ")} on by default); packs named check
                           documents the schema rejects too
  --documents DIR          local documents pack constraints may read (doc(), doc-available(), resolve-profile()):
                           an href that is a relative path, or a file: URL, is looked up inside DIR; one that leaves
                           DIR or names another scheme (https:, ...) is not available. The network is never used.
  --document HREF=FILE     the document an href stands for, whatever it is (repeatable; the last "=" splits; wins
                           over --documents). With either option an href neither supplies is not available; with
                           neither, constraints that need another document are reported as not evaluated.
                           Files are JSON, or YAML by their extension; a profile is read as the catalog it
                           resolves to (its imports read as "oscal-validate resolve" reads them).
  --now DATE-TIME          the time current-dateTime() returns, e.g. 2026-01-01T00:00:00Z (default: now)
  --input-format json|yaml how standard input is parsed (default json); files go by their extension
  --exclude PATTERN        skip files and directories matching PATTERN (a glob; repeatable; without a slash it
                           matches a name at any depth)
  --max-file-size SIZE     refuse larger inputs unread: bytes, or with K, M or G (binary; default 256M)
  -j, --jobs N             validate on at most N threads; 1 validates in-process (default: as many as the cores).
                           A thread is added per 128 MB of input and only on a core not already busy, as each
                           thread pays a start-up cost: a small run stays in-process whatever N is

Output:
  -f, --format FORMAT      text (default), json (an array of reports, each with "file"), sarif (SARIF 2.1.0),
                           github (GitHub Actions workflow commands) or junit (JUnit XML)
  -o, --output FILE        write the output to FILE instead of standard output
  --max-issues N           report at most N findings per file (default: all; 0 counts them only); every format
                           says when it cut
  -v, --verbose            list the files a directory or glob found that are not OSCAL documents
  --fail-on error|warning  exit 1 when any finding has this severity or a higher one (default error)
  --docs-base-url URL      where SARIF rules link to for help (default: the pages published for this
                           version${PACKAGE_DOCS_URL === undefined ? "; this build names none, so rules carry their help text only" : `, ${PACKAGE_DOCS_URL}`})
  -h, --help               show this help
  -V, --version            show the version, the OSCAL release and the rule manifest checksum

A summary line goes to standard error. Colours are used on a terminal, never when NO_COLOR is set; FORCE_COLOR
forces them.

Exit status: 0 every input valid; 1 a finding at or above --fail-on, or a named input that is not an OSCAL JSON
document; 2 a usage error, an unreadable input (missing, a loop, a device, larger than --max-file-size), or a
directory or glob with no OSCAL document.
`;

export class UsageError extends Error {}

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${option} must be one of ${allowed.join(", ")}; got "${value}"`);
}

function wholeNumber(option: string, value: string, least: number): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < least) throw new UsageError(`--${option} must be a whole number of at least ${least}; got "${value}"`);
  return number;
}

const SIZE_UNITS: Readonly<Record<string, number>> = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** `1048576`, `512K`, `256M`, `1G` (binary multiples; a trailing B or iB is allowed). */
function byteSize(option: string, value: string): number {
  const match = /^(\d+)([KMG]?)(?:i?B)?$/i.exec(value);
  const bytes = match === null ? 0 : Number(match[1]) * SIZE_UNITS[match[2]!.toUpperCase()]!;
  if (bytes < 1 || !Number.isSafeInteger(bytes)) throw new UsageError(`--${option} must be a size in bytes, such as 1048576, 512K, 256M or 1G; got "${value}"`);
  return bytes;
}

/** Options that take a number: "-1" after one is its (wrong) value, not an option, so the check can say what is allowed. */
const NUMERIC_OPTIONS: ReadonlySet<string> = new Set(["--max-issues", "--jobs", "-j", "--max-file-size"]);

function joinNegativeValues(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--") return [...joined, ...args.slice(i)];
    const value = args[i + 1];
    if (NUMERIC_OPTIONS.has(args[i]!) && value !== undefined && /^-\d/.test(value)) {
      // parseArgs takes `--jobs=-2`, and a short option's value written right after it: `-j-2` (`-j=-2` would be "=-2").
      joined.push(args[i]!.startsWith("--") ? `${args[i]}=${value}` : `${args[i]}${value}`);
      i++;
    } else joined.push(args[i]!);
  }
  return joined;
}

/** parseArgs explains errors in its own words; the CLI names the option and points at --help. */
function parseError(error: NodeJS.ErrnoException): UsageError {
  // "Unknown option '--x'", "Option '-o, --output <value>' argument missing": the long name where there is one.
  const option = /'(?:-\w, )?(-[^ ']*)/.exec(error.message)?.[1];
  switch (error.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return new UsageError(`unknown option ${option ?? error.message}`);
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return new UsageError(option ? `option ${option} needs a value` : error.message);
    default:
      return new UsageError(error.message);
  }
}

/** Core option errors name HTTP parameters; these name the options. */
function optionError(error: OptionError, level: string | undefined): UsageError {
  if (error.parameter === "rules" && level !== "full") return new UsageError("--rules selects semantic rules and works only with --level full");
  if (error.parameter === "rules") return new UsageError(`--rules: ${error.detail} "oscal-validate rules" lists them.`);
  if (error.parameter === "constraints" && level !== "full") return new UsageError("--constraints selects rule packs and works only with --level full");
  if (error.parameter === "constraints") return new UsageError(`--constraints: ${error.detail} This build holds: ${RULE_PACKS.join(", ")}.`);
  return new UsageError(`--${error.parameter}: ${error.detail}`);
}

/** An ISO 8601 date-time with its offset: a clock that means the same on every machine. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i;

function dateTime(value: string): Date {
  const date = new Date(value);
  if (!DATE_TIME.test(value) || Number.isNaN(date.getTime())) throw new UsageError(`--now must be a date-time with a timezone, such as 2026-01-01T00:00:00Z; got "${value}"`);
  return date;
}

function documentSettings(dir: string | undefined, mappings: readonly string[]): DocumentSettings | undefined {
  if (dir === undefined && mappings.length === 0) return undefined;
  const files: Record<string, string> = {};
  for (const mapping of mappings) {
    const split = mapping.lastIndexOf("=");
    if (split <= 0 || split === mapping.length - 1) throw new UsageError(`--document must be HREF=FILE; got "${mapping}"`);
    files[mapping.slice(0, split)] = path.resolve(mapping.slice(split + 1));
  }
  if (dir === undefined) return { files };
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--documents must name a directory; got "${dir}"`);
  return { dir: realpathSync(dir), files };
}

export function parseCommandLine(args: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(args),
      allowPositionals: true,
      strict: true,
      options: {
        level: { type: "string" },
        rules: { type: "string" },
        constraints: { type: "string", multiple: true, default: [] },
        documents: { type: "string" },
        document: { type: "string", multiple: true, default: [] },
        now: { type: "string" },
        set: { type: "string", multiple: true, default: [] },
        explain: { type: "string" },
        "input-format": { type: "string", default: "json" },
        exclude: { type: "string", multiple: true, default: [] },
        "max-file-size": { type: "string" },
        jobs: { type: "string", short: "j" },
        verbose: { type: "boolean", short: "v" },
        format: { type: "string", short: "f", default: "text" },
        output: { type: "string", short: "o" },
        "max-issues": { type: "string" },
        "fail-on": { type: "string", default: "error" },
        "docs-base-url": { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "V" },
      },
    });
  } catch (error) {
    throw parseError(error as NodeJS.ErrnoException);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  if (values.version) return { command: "version" };
  if (positionals[0] === "rules") {
    if (positionals.length > 1) throw new UsageError(`"rules" takes no arguments; got "${positionals[1]}"`);
    const sets = values.set.map((set) => oneOf("set", set, ["nist", "ours", ...RULE_PACKS]));
    return { command: "rules", format: oneOf("format", values.format, RULES_FORMATS), output: values.output, sets, explain: values.explain };
  }
  if (positionals[0] === "resolve") {
    if (positionals.length !== 2) throw new UsageError('"resolve" takes one profile file');
    return { command: "resolve", profile: positionals[1]!, output: values.output, documents: documentSettings(values.documents, values.document) };
  }
  if (values.set.length > 0) throw new UsageError('--set filters "oscal-validate rules" and does not apply to validation');
  if (values.explain !== undefined) throw new UsageError('--explain belongs to "oscal-validate rules" and does not apply to validation');
  if (positionals.length === 0) throw new UsageError("no input files (give a file, directory or glob, or - for standard input)");
  const maxIssues = values["max-issues"] === undefined ? undefined : wholeNumber("max-issues", values["max-issues"], 0);
  const options: ValidateOptions = {
    level: values.level as Level | undefined,
    rules: values.rules === undefined ? undefined : ruleIdList(values.rules),
    constraints: values.constraints.flatMap(ruleIdList),
    maxIssues: maxIssues ?? Number.POSITIVE_INFINITY,
  };
  const resolved = resolveOptions(options);
  if (!resolved.ok) throw optionError(resolved.error, options.level);
  if (options.level !== "full") {
    const packInput = (["documents", "document", "now"] as const).find((name) => values[name] !== undefined && values[name].length > 0);
    if (packInput !== undefined) throw new UsageError(`--${packInput} is read by rule pack constraints and works only with --level full`);
  }
  if (values.now !== undefined) options.now = dateTime(values.now);
  const docsBaseUrl = values["docs-base-url"] ?? PACKAGE_DOCS_URL;
  if (docsBaseUrl !== undefined && !URL.canParse(docsBaseUrl)) throw new UsageError(`--docs-base-url must be an absolute URL; got "${docsBaseUrl}"`);
  return {
    command: "validate",
    inputs: positionals,
    exclude: values.exclude,
    options,
    stdinFormat: oneOf("input-format", values["input-format"], INPUT_FORMATS),
    format: oneOf("format", values.format, OUTPUT_FORMATS),
    output: values.output,
    maxFileBytes: values["max-file-size"] === undefined ? DEFAULT_MAX_FILE_BYTES : byteSize("max-file-size", values["max-file-size"]),
    jobs: values.jobs === undefined ? undefined : wholeNumber("jobs", values.jobs, 1),
    verbose: values.verbose === true,
    failOn: oneOf("fail-on", values["fail-on"], ["error", "warning"] as const),
    docsBaseUrl: docsBaseUrl?.replace(/\/+$/, ""),
    documents: documentSettings(values.documents, values.document) ?? packageSettings(positionals, options),
  };
}

/**
 * Without --documents or --document, a full run (whose rule packs may read other documents: oscal-package's are on by
 * default) takes them from the package its inputs form: each directory named (a walk), the directory of each file
 * named, the working directory for a pattern.
 */
function packageSettings(inputs: readonly string[], options: ValidateOptions): DocumentSettings | undefined {
  if (options.level !== "full") return undefined;
  const roots = inputs.flatMap((input) => {
    if (input === STDIN) return [];
    const stats = statSync(input, { throwIfNoEntry: false });
    const dir = stats === undefined ? process.cwd() : stats.isDirectory() ? input : path.dirname(input);
    try {
      return [realpathSync(dir)];
    } catch {
      return [];
    }
  });
  return roots.length === 0 ? undefined : { files: {}, roots: [...new Set(roots)] };
}
