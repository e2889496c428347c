// The transport-free validation core: bytes (or a parsed document) in, a ValidationReport or a typed error out.
// The HTTP service, the CLI and the tests all call this module. It never logs and never keeps a document.
import { Buffer } from "node:buffer";
import { validatorsFor } from "#generated/models.js";
import manifest from "#generated/runtime-manifest.json" with { type: "json" };
import { parseBody, parseText, type BodyError, type ParsedBody } from "./body.js";
import { now } from "./clock.js";
import { jsonLocator, withLocations, type Locator } from "./locate.js";
import { withResidentDocument } from "./json-wasm.js";
import { checkParsedDocument, JSON_RULES, NESTING_TOO_DEEP } from "./json-structure.js";
import { boundedIssue } from "./issue-bounds.js";
import { declaredOscalVersion, detectModel, PUBLISHED_OSCAL_VERSIONS } from "./model.js";
import { collectSchemaFindings } from "./schema-findings.js";
import { releaseMeta } from "./release-notes.js";
import { MAX_REPORTED_ISSUES, MODELS, type Level, type ValidationIssue, type ValidationReport } from "./report.js";
import { enablesPacks, hasActivePacks, resolveSemanticRules, runRulePacks, runSemanticLayer, type ActiveRules, type PackInputs } from "./semantic.js";
import type { DocumentSource } from "../packs/engine.js";

export interface ValidateOptions {
  /** Validation depth; `schema` when absent. */
  level?: Level;
  /** Default-off semantic rule ids to enable (only with level `full`); pack rule ids too. */
  rules?: readonly string[];
  /** Rule packs to enable, by name (e.g. `["fedramp"]`; only with level `full`). */
  constraints?: readonly string[];
  /**
   * Documents pack constraints may load (`doc()`), by href as the document writes it: a map or a function (undefined:
   * not available). Absent: constraints needing another document are reported as not evaluated.
   */
  documents?: DocumentSource;
  /** The clock of pack constraints (`current-dateTime()`); now when absent. */
  now?: Date;
  /**
   * Whether packs also run on a document with schema findings (default true: FedRAMP checks partial documents). The
   * HTTP service passes false: its contract stops a full run at the schema layer.
   */
  packsOnSchemaErrors?: boolean;
  /** Pins the OSCAL specification version; only the release the validators target is accepted. */
  oscalVersion?: string;
  /** Most findings a report lists (`issueCount` still counts all); the service's MAX_REPORTED_ISSUES when absent. */
  maxIssues?: number;
}

export interface OptionError {
  code: "ERR_UNSUPPORTED_PARAMETER";
  parameter: "level" | "rules" | "constraints" | "oscal-version";
  detail: string;
}

export type ValidationOutcome =
  | { kind: "report"; report: ValidationReport }
  | { kind: "body-error"; error: BodyError }
  | { kind: "option-error"; error: OptionError };

/** Options resolved once, so a server can reject bad parameters before it reads a body. */
export interface ResolvedOptions {
  level: Level;
  rules: ActiveRules | undefined;
  maxIssues?: number;
  /** Rule-pack inputs: other documents, the clock, and whether packs run on documents with schema findings. */
  packs?: { documents?: DocumentSource; now?: Date; onSchemaErrors: boolean };
}

export const VALIDATOR_RELEASE: string = manifest.validator;
const PATCH_IDS: readonly string[] = manifest.patches.map((patch) => patch.id);
const NO_FINDINGS: { issues: readonly ValidationIssue[]; count: number } = { issues: [], count: 0 };

export function resolveOptions(options: ValidateOptions = {}): { ok: true; options: ResolvedOptions } | { ok: false; error: OptionError } {
  const level = options.level ?? "schema";
  if (level !== "schema" && level !== "full") {
    return { ok: false, error: { code: "ERR_UNSUPPORTED_PARAMETER", parameter: "level", detail: `Unsupported level "${String(level).slice(0, 40)}": use "schema" or "full".` } };
  }
  if (options.oscalVersion !== undefined && options.oscalVersion !== VALIDATOR_RELEASE) {
    return {
      ok: false,
      error: {
        code: "ERR_UNSUPPORTED_PARAMETER",
        parameter: "oscal-version",
        detail: `Unsupported oscal-version "${options.oscalVersion.slice(0, 40)}": this service validates against OSCAL ${VALIDATOR_RELEASE} only; other values are reserved for future releases.`,
      },
    };
  }
  const requested = options.rules ?? [];
  if (requested.length > 0 && level !== "full") {
    return { ok: false, error: { code: "ERR_UNSUPPORTED_PARAMETER", parameter: "rules", detail: 'The "rules" parameter selects semantic rules and is valid only together with level=full.' } };
  }
  const packs = options.constraints ?? [];
  if (packs.length > 0 && level !== "full") {
    return { ok: false, error: { code: "ERR_UNSUPPORTED_PARAMETER", parameter: "constraints", detail: 'The "constraints" parameter selects rule packs and is valid only together with level=full.' } };
  }
  const { maxIssues } = options;
  if (level === "schema") return { ok: true, options: { level, rules: undefined, maxIssues } };
  const rules = resolveSemanticRules(requested, packs);
  if (!rules.ok) {
    const error: OptionError =
      "unknownId" in rules
        ? { code: "ERR_UNSUPPORTED_PARAMETER", parameter: "rules", detail: `Unknown semantic rule id "${rules.unknownId.slice(0, 60)}".` }
        : { code: "ERR_UNSUPPORTED_PARAMETER", parameter: "constraints", detail: `Unknown rule pack "${rules.unknownPack.slice(0, 60)}".` };
    return { ok: false, error };
  }
  const packInputs = { documents: options.documents, now: options.now, onSchemaErrors: options.packsOnSchemaErrors ?? true };
  return { ok: true, options: { level, rules: rules.active, maxIssues, packs: packInputs } };
}

/** Memory a caller may read a document into and then validate with validateBytes, which reads it there (see json-wasm). */
export { documentBuffer } from "./json-wasm.js";

/**
 * `parse` is parseBody, or a caller's that answers as it does: the CLI's, which keeps the parse of a file that other
 * documents of its package import, so that it is parsed once.
 */
export function validateBytes(bytes: Uint8Array, options: ValidateOptions = {}, parse: (bytes: Uint8Array) => ParsedBody = parseBody): ValidationOutcome {
  const started = now();
  const resolved = resolveOptions(options);
  if (!resolved.ok) return { kind: "option-error", error: resolved.error };
  // The escape, the structure scan and the locator read the bytes in WebAssembly memory: copied in once for all three.
  return withResidentDocument(bytes, () => {
    const parsed = parse(bytes);
    if (!parsed.ok) return { kind: "body-error", error: parsed.error };
    return locateFindings(validateParsed(parsed.document, resolved.options, started, parsed.findings), jsonLocator(bytes, repeatsNames(parsed.findings)), started);
  });
}

/** Whether the text's findings include a repeated member name (the structure check reports every one). */
function repeatsNames(textFindings: readonly ValidationIssue[]): boolean {
  return textFindings.some((finding) => finding.keyword === JSON_RULES.duplicateName.keyword);
}

/**
 * Adds the line and column of each reported finding in the source text: only reports with findings pay for it.
 * `durationMs` includes the time spent locating.
 */
export function locateFindings(outcome: ValidationOutcome, locate: Locator, started: number): ValidationOutcome {
  if (outcome.kind !== "report" || outcome.report.issues.length === 0) return outcome;
  const { report } = outcome;
  const issues = withLocations(report.issues, locate);
  return { kind: "report", report: { ...report, issues, meta: { ...report.meta, durationMs: Math.round(now() - started) } } };
}

/** For JSON that arrives as a JavaScript string rather than bytes; a leading byte-order mark is dropped, as from bytes. */
export function validateText(text: string, options: ValidateOptions = {}): ValidationOutcome {
  const started = now();
  const resolved = resolveOptions(options);
  if (!resolved.ok) return { kind: "option-error", error: resolved.error };
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const parsed = parseText(body);
  if (!parsed.ok) return { kind: "body-error", error: parsed.error };
  // Columns count code points, and a lone surrogate (one code point) becomes U+FFFD (one too): positions are the same.
  return locateFindings(validateParsed(parsed.document, resolved.options, started, parsed.findings), jsonLocator(Buffer.from(body, "utf8"), repeatsNames(parsed.findings)), started);
}

/** For library callers that already hold the parsed JSON value. */
export function validateDocument(document: unknown, options: ValidateOptions = {}): ValidationOutcome {
  const started = now();
  const resolved = resolveOptions(options);
  if (!resolved.ok) return { kind: "option-error", error: resolved.error };
  const checked = checkParsedDocument(document);
  if (checked.tooDeep) return { kind: "body-error", error: NESTING_TOO_DEEP };
  return validateParsed(document, resolved.options, started, checked.findings);
}

/**
 * `document` is within the nesting limit (the callers above check it first); `textFindings` are those of its JSON text.
 * Stack exhaustion is still reported as the nesting limit it stands for, never as a crash.
 */
export function validateParsed(document: unknown, options: ResolvedOptions, started = now(), textFindings: readonly ValidationIssue[] = []): ValidationOutcome {
  try {
    return validateModelDocument(document, options, started, textFindings);
  } catch (error) {
    if (error instanceof RangeError) return { kind: "body-error", error: NESTING_TOO_DEEP };
    throw error;
  }
}

function validateModelDocument(document: unknown, options: ResolvedOptions, started: number, textFindings: readonly ValidationIssue[]): ValidationOutcome {
  const detected = detectModel(document);
  if (!detected.ok) return { kind: "body-error", error: detected.error };
  const { model } = detected;
  const oscalVersion = declaredOscalVersion(document, model);
  const validators = validatorsFor(model);
  const maxIssues = options.maxIssues ?? MAX_REPORTED_ISSUES;
  // The text's findings come first in the report: of the others, only those it lists are made into issues.
  const limit = Math.max(0, maxIssues - textFindings.length);
  const schema = validators.validate(document) ? NO_FINDINGS : collectSchemaFindings(model, { checkedAgainst: VALIDATOR_RELEASE, declared: oscalVersion }, validators.collecting(), document, limit);

  // Every schema finding is an error.
  let found = { issues: schema.issues, count: schema.count, errors: schema.count };
  let semanticRules: ValidationReport["meta"]["semanticRules"];
  const reachesSemanticLayer = options.level === "full" && schema.count === 0 && options.rules !== undefined;
  if (reachesSemanticLayer) found = runSemanticLayer(model, document, options.rules!, limit);
  // Packs a caller asks for run on schema-invalid documents too (FedRAMP checks partial documents), unless the caller
  // keeps the contract's schema gate (HTTP); the default rules, a default-on pack's included, need a valid document.
  let packsComplete = true;
  const { rules, packs } = options;
  const runsPacks = rules !== undefined && packs !== undefined && hasActivePacks(rules) && (reachesSemanticLayer || (packs.onSchemaErrors && enablesPacks(rules)));
  if (runsPacks) {
    const inputs: PackInputs = { documents: packs.documents, now: packs.now ?? new Date() };
    const ran = runRulePacks(model, document, rules, inputs, Math.max(0, limit - found.issues.length));
    if (ran.count > 0) found = { issues: [...found.issues, ...ran.issues], count: found.count + ran.count, errors: found.errors + ran.errors };
    packsComplete = ran.complete;
  }
  if (reachesSemanticLayer || runsPacks) semanticRules = { count: rules!.ids.size, sha256: rules!.sha256 };
  const issues = textFindings.length > 0 ? [...textFindings, ...found.issues] : found.issues;
  const issueCount = textFindings.length + found.count;
  const complete = PUBLISHED_OSCAL_VERSIONS.has(oscalVersion) && (options.level === "schema" || reachesSemanticLayer) && packsComplete;
  const report: ValidationReport = {
    valid: found.errors === 0 && !textFindings.some((issue) => issue.severity === "error"),
    model,
    oscalVersion,
    level: options.level,
    complete,
    issues: issues.slice(0, maxIssues).map(boundedIssue),
    issueCount,
    truncated: issueCount > maxIssues,
    meta: {
      engine: manifest.engine,
      validator: VALIDATOR_RELEASE,
      schemaSource: manifest.schemaSource,
      patches: [...PATCH_IDS],
      durationMs: Math.round(now() - started),
      ...(semanticRules ? { semanticRules } : {}),
      release: releaseMeta(oscalVersion, VALIDATOR_RELEASE),
    },
  };
  return { kind: "report", report };
}

/** Loads every model's validators now rather than on first use: a server does this once, at start-up. */
export function preloadValidators(): void {
  for (const model of MODELS) validatorsFor(model);
}
