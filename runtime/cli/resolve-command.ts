// oscal-validate resolve: a profile resolved into its catalog from local files only. Relative hrefs are read inside
// the allowed directory (--documents DIR, else the profile's own directory); any other href only through --document.
import { realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
// Static: this module is itself loaded only for "resolve", and the bundle can require a dependency but not import it.
import { stringify } from "yaml";
import { fileLoader, readDocumentFile } from "../resolve/file-loader.js";
import { resolveProfile } from "../resolve/index.js";
import type { ResolveCommand } from "./arguments.js";
import { inputFormatOf } from "./input-format.js";
import { emit, printable, STDERR, write } from "./terminal.js";
import { EXIT_USAGE, EXIT_VALID } from "./verdict.js";

/** A baseline tailored to another release of its catalog warns for each parameter and objective it misses: the first ones tell. */
const SHOWN_WARNINGS = 10;

/**
 * The warnings not shown, counted by kind (a warning with what it quotes left out), most frequent first: a baseline
 * tailored to another release of its catalog misses hundreds of parameters and parts, and the counts say which.
 */
function warningKinds(warnings: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const warning of warnings) {
    const kind = warning.replace(/"[^"]*"/g, '"…"');
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .map(([kind, count]) => `  ${count} × ${printable(kind)}\n`)
    .join("");
}

/** The profile as the user named it, as a URI reference for the result's `source-profile` (never an absolute path they did not give). */
function sourceProfileReference(profile: string): string {
  return encodeURI(profile.split(path.sep).join("/"));
}

function serialize(document: unknown, output: string | undefined): string {
  return output !== undefined && inputFormatOf(output) === "yaml" ? stringify(document) : `${JSON.stringify(document, null, 2)}\n`;
}

/** Resolves, writes the catalog and returns the exit status: 2 with a message when the profile cannot be resolved. */
export function runResolve(command: ResolveCommand): number {
  /** `detail` starts with the chain of hrefs from the profile where there is one. */
  const fail = (detail: string): number => {
    write(STDERR, `oscal-validate: cannot resolve the profile: ${printable(detail)}\n`);
    return EXIT_USAGE;
  };
  const failOnProfile = (detail: string): number => fail(`${command.profile}: ${detail}`);
  let profileFile: string;
  try {
    profileFile = realpathSync(path.resolve(command.profile));
  } catch (error) {
    return failOnProfile(`the file cannot be read (${(error as NodeJS.ErrnoException).code ?? "read error"})`);
  }
  const loaded = readDocumentFile(profileFile);
  if ("unavailable" in loaded) return failOnProfile(loaded.unavailable);
  const result = resolveProfile(loaded.document, {
    loader: fileLoader({ allowedDir: command.documents?.dir ?? path.dirname(profileFile), files: command.documents?.files }),
    uri: pathToFileURL(profileFile).href,
    sourceProfile: sourceProfileReference(command.profile),
  });
  if (result.kind === "error") return fail(result.error.detail);
  for (const warning of result.warnings.slice(0, SHOWN_WARNINGS)) write(STDERR, `oscal-validate: warning: ${printable(warning)}\n`);
  const more = result.warnings.slice(SHOWN_WARNINGS);
  if (more.length > 0) write(STDERR, `oscal-validate: ${more.length} more warnings:\n${warningKinds(more)}`);
  const writeError = emit(serialize(result.document, command.output), command.output);
  if (writeError === undefined) return EXIT_VALID;
  write(STDERR, `oscal-validate: ${printable(writeError)}\n`);
  return EXIT_USAGE;
}
