// Build-time proof that every regular expression the generated code runs matches in linear time. A backtracking
// pattern such as `^[^\n\r]+@[^\n\r]+$` takes quadratic time on a hostile value (100,000 "@" and a newline: 20 s), so
// the build fails on one unless a documented patch (patches/) replaces it with an equivalent linear pattern.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ts from "typescript";
import { check, type Diagnostics, type Parameters as RecheckParameters } from "recheck";

export interface EmittedPattern {
  source: string;
  flags: string;
  /** Where the pattern is run, for the failure message. */
  origin: string;
}

/**
 * The automaton checker decides exactly (no fuzzing, so no randomness) for patterns of the size OSCAL uses; a pattern
 * too large for it (ajv-formats' URI) falls back to seeded fuzzing. The fuzzer's phases are bounded by steps alone:
 * their default time limits made a linear pattern look super-linear on a busy machine, where matching takes longer.
 * The overall timeout only guards the build against a pathological pattern (an undecided pattern fails the build like
 * a super-linear one), with room for a machine several times slower than a quiet one (the URI pattern: about 2 s).
 */
const RECHECK_PARAMETERS: RecheckParameters = {
  checker: "auto",
  randomSeed: 0,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  timeout: 120_000,
};

/** Every regular expression literal and every `RegExp(...)` construction in a module's text (TypeScript by its name). */
export function patternsInCode(code: string, origin: string): EmittedPattern[] {
  const file = ts.createSourceFile(origin, code, ts.ScriptTarget.ES2022, false, /\.c?ts$/.test(origin) ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: EmittedPattern[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      const end = node.text.lastIndexOf("/");
      found.push({ source: node.text.slice(1, end), flags: node.text.slice(end + 1), origin });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === "RegExp") {
      const [source, flags] = node.arguments ?? [];
      // A pattern computed at run time cannot be proven linear here, so the generated code must not have one.
      if (!source || !ts.isStringLiteral(source) || (flags !== undefined && !ts.isStringLiteral(flags))) {
        throw new Error(`${origin}: a RegExp is built from a non-literal pattern (${node.getText(file).slice(0, 80)}), which cannot be checked at build time`);
      }
      found.push({ source: source.text, flags: flags?.text ?? "", origin });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * The patterns of every source file a run-time module is bundled from, found by bundling it as scripts/build-cli.mjs
 * does (type-only imports are no part of it), each named by its path relative to `root`.
 */
export async function patternsInBundle(entry: string, root: string): Promise<EmittedPattern[]> {
  const { metafile } = await build({ absWorkingDir: root, entryPoints: [entry], bundle: true, write: false, metafile: true, platform: "node", format: "cjs", logLevel: "silent" });
  return Object.keys(metafile.inputs)
    .sort()
    .flatMap((file) => patternsInCode(readFileSync(path.join(root, file), "utf8"), file));
}

/**
 * The ajv-formats formats that are functions (not regular expressions, which the generated code inlines as literals)
 * and the module-level patterns each one runs. The generated code calls them from ajv-formats at run time, so their
 * patterns are read from that module's source; a format missing here fails the build until its patterns are listed.
 */
const FUNCTION_FORMAT_PATTERNS: Record<string, readonly string[]> = {
  uri: ["NOT_URI_FRAGMENT", "URI"],
  "date-time": ["DATE_TIME_SEPARATOR", "DATE", "TIME"],
  date: ["DATE"],
  time: ["TIME"],
};

const FORMAT_REFERENCE = /require\("ajv-formats\/dist\/formats"\)\.fullFormats(?:\.([\w$]+)|\["([^"]+)"\])/g;

let formatConstants: Map<string, EmittedPattern> | undefined;

/** The regular expression constants of ajv-formats' formats module, read once per build. */
function formatModuleConstants(): Map<string, EmittedPattern> {
  if (formatConstants !== undefined) return formatConstants;
  const formatsModule = createRequire(import.meta.url).resolve("ajv-formats/dist/formats");
  const moduleConstants = new Map<string, EmittedPattern>();
  const file = ts.createSourceFile(formatsModule, readFileSync(formatsModule, "utf8"), ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS);
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || !declaration.initializer || !ts.isRegularExpressionLiteral(declaration.initializer)) continue;
      const [pattern] = patternsInCode(declaration.initializer.text, formatsModule);
      moduleConstants.set(declaration.name.text, pattern!);
    }
  }
  formatConstants = moduleConstants;
  return moduleConstants;
}

/** The patterns behind the ajv-formats function formats the generated code calls. */
export function formatFunctionPatterns(code: string, origin: string): EmittedPattern[] {
  const moduleConstants = formatModuleConstants();
  const found: EmittedPattern[] = [];
  for (const match of code.matchAll(FORMAT_REFERENCE)) {
    const format = match[1] ?? match[2]!;
    const names = FUNCTION_FORMAT_PATTERNS[format];
    if (!names) throw new Error(`${origin}: the format "${format}" runs patterns this build does not know; list them in FUNCTION_FORMAT_PATTERNS`);
    for (const name of names) {
      const pattern = moduleConstants.get(name);
      if (!pattern) throw new Error(`ajv-formats no longer defines the pattern ${name} that the "${format}" format ran`);
      found.push({ ...pattern, origin: `${origin} (format "${format}")` });
    }
  }
  return found;
}

export interface SuperLinearPattern {
  pattern: EmittedPattern;
  /** recheck's verdict: "2nd degree polynomial", "exponential", or why it could not decide. */
  verdict: string;
}

/** Patterns that are not proven linear, each (source, flags) checked once. Complexity: one analysis per distinct pattern. */
export async function superLinearPatterns(patterns: readonly EmittedPattern[]): Promise<SuperLinearPattern[]> {
  const distinct = new Map<string, EmittedPattern>();
  for (const pattern of patterns) {
    const key = `${pattern.flags}/${pattern.source}`;
    if (!distinct.has(key)) distinct.set(key, pattern);
  }
  const failures: SuperLinearPattern[] = [];
  for (const pattern of distinct.values()) {
    const diagnostics: Diagnostics = await check(pattern.source, pattern.flags, RECHECK_PARAMETERS);
    if (diagnostics.status === "safe") continue;
    const verdict = diagnostics.status === "vulnerable" ? diagnostics.complexity.summary : `undecided (${diagnostics.error.kind})`;
    failures.push({ pattern, verdict });
  }
  return failures;
}

/** Fails the build on any pattern not proven linear, naming each with where it runs. */
export async function assertLinearPatterns(patterns: readonly EmittedPattern[]): Promise<number> {
  const failures = await superLinearPatterns(patterns);
  if (failures.length > 0) {
    const list = failures.map(({ pattern, verdict }) => `  /${pattern.source}/${pattern.flags} in ${pattern.origin}: ${verdict}`).join("\n");
    throw new Error(
      `${failures.length} regular expression(s) may take super-linear time; replace each with an equivalent linear one in a documented patch (patches/):\n${list}`,
    );
  }
  return new Set(patterns.map((pattern) => `${pattern.flags}/${pattern.source}`)).size;
}
