// The transport-free validation core: bytes (or a parsed document) in, a ValidationReport or a typed error out.
// The HTTP service, the CLI and the tests all call this module. It never logs and never keeps a document.
import { validatorsFor } from "#generated/models.js";
import manifest from "#generated/manifest.json" with { type: "json" };
import { parseBody, type BodyError } from "./body.js";
import { declaredOscalVersion, detectModel, PUBLISHED_OSCAL_VERSIONS } from "./model.js";
import { collectSchemaFindings } from "./schema-findings.js";
import { MAX_REPORTED_ISSUES, MODELS, type Level, type ValidationIssue, type ValidationReport } from "./report.js";
import { resolveSemanticRules, runSemanticLayer, type ActiveRules } from "./semantic.js";

export interface ValidateOptions {
  /** Validation depth; `schema` when absent. */
  level?: Level;
  /** Default-off semantic rule ids to enable (only with level `full`). */
  rules?: readonly string[];
  /** Pins the OSCAL specification version; only the release the validators target is accepted. */
  oscalVersion?: string;
  /** Most findings a report lists (`issueCount` still counts all); the service's MAX_REPORTED_ISSUES when absent. */
  maxIssues?: number;
}

export interface OptionError {
  code: "ERR_UNSUPPORTED_PARAMETER";
  parameter: "level" | "rules" | "oscal-version";
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
}

export const VALIDATOR_RELEASE: string = manifest.validator;
const PATCH_IDS: readonly string[] = manifest.patches.map((patch) => patch.id);

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
  const { maxIssues } = options;
  if (level === "schema") return { ok: true, options: { level, rules: undefined, maxIssues } };
  const rules = resolveSemanticRules(requested);
  if (!rules.ok) {
    return { ok: false, error: { code: "ERR_UNSUPPORTED_PARAMETER", parameter: "rules", detail: `Unknown semantic rule id "${rules.unknownId.slice(0, 60)}".` } };
  }
  return { ok: true, options: { level, rules: rules.active, maxIssues } };
}

export function validateBytes(bytes: Uint8Array, options: ValidateOptions = {}): ValidationOutcome {
  const started = performance.now();
  const resolved = resolveOptions(options);
  if (!resolved.ok) return { kind: "option-error", error: resolved.error };
  const parsed = parseBody(bytes);
  if (!parsed.ok) return { kind: "body-error", error: parsed.error };
  return validateParsed(parsed.document, resolved.options, started);
}

/** For library callers that already hold the parsed JSON value. */
export function validateDocument(document: unknown, options: ValidateOptions = {}): ValidationOutcome {
  const started = performance.now();
  const resolved = resolveOptions(options);
  if (!resolved.ok) return { kind: "option-error", error: resolved.error };
  return validateParsed(document, resolved.options, started);
}

/**
 * The validators recurse with the document, so a hostile one nested thousands of levels deep (real OSCAL nests a few
 * dozen) exhausts the stack. That is a limit of the service, reported as such rather than as a verdict on the document.
 */
const TOO_DEEP: BodyError = {
  code: "ERR_PAYLOAD_TOO_LARGE",
  detail: "The document nests too deeply to be validated (OSCAL documents nest a few dozen levels; this one nests thousands).",
  resolution: "Restructure the document so that groups, controls and parts nest at most a few hundred levels deep.",
};

export function validateParsed(document: unknown, options: ResolvedOptions, started = performance.now()): ValidationOutcome {
  try {
    return validateModelDocument(document, options, started);
  } catch (error) {
    if (error instanceof RangeError) return { kind: "body-error", error: TOO_DEEP };
    throw error;
  }
}

function validateModelDocument(document: unknown, options: ResolvedOptions, started: number): ValidationOutcome {
  const detected = detectModel(document);
  if (!detected.ok) return { kind: "body-error", error: detected.error };
  const { model } = detected;
  const oscalVersion = declaredOscalVersion(document, model);
  const validators = validatorsFor(model);
  const schemaIssues = validators.validate(document) ? [] : collectSchemaFindings(model, VALIDATOR_RELEASE, validators.collecting(), document);

  let issues: ValidationIssue[] = schemaIssues;
  let semanticRules: ValidationReport["meta"]["semanticRules"];
  const reachesSemanticLayer = options.level === "full" && schemaIssues.length === 0 && options.rules !== undefined;
  if (reachesSemanticLayer) {
    issues = runSemanticLayer(model, document, options.rules!);
    semanticRules = { count: options.rules!.ids.size, sha256: options.rules!.sha256 };
  }
  const maxIssues = options.maxIssues ?? MAX_REPORTED_ISSUES;
  const complete = PUBLISHED_OSCAL_VERSIONS.has(oscalVersion) && (options.level === "schema" || reachesSemanticLayer);
  const report: ValidationReport = {
    valid: !issues.some((issue) => issue.severity === "error"),
    model,
    oscalVersion,
    level: options.level,
    complete,
    issues: issues.length > maxIssues ? issues.slice(0, maxIssues) : issues,
    issueCount: issues.length,
    truncated: issues.length > maxIssues,
    meta: {
      engine: manifest.engine,
      validator: VALIDATOR_RELEASE,
      schemaSource: manifest.schemaSource,
      patches: [...PATCH_IDS],
      durationMs: Math.round(performance.now() - started),
      ...(semanticRules ? { semanticRules } : {}),
    },
  };
  return { kind: "report", report };
}

/** Loads every model's validators now rather than on first use: a server does this once, at start-up. */
export function preloadValidators(): void {
  for (const model of MODELS) validatorsFor(model);
}
