// The library entry of the package (`import { validate } from "oscal-validator"`): one function over the validation
// core that takes bytes, text or a parsed value and answers with a report or a typed error, never an exception for bad
// input. Error codes are those of the CLI and the HTTP service.
import { isUint8Array } from "node:util/types";
import type { BodyErrorCode } from "./core/body.js";
import { validateBytes, validateDocument, validateText, type ValidationOutcome } from "./core/validate.js";
import { validateYamlBytes, validateYamlText, type YamlValidationOutcome } from "./core/yaml.js";
import { findNonJsonValue } from "./lib/json-value.js";
import { documentsResolvingProfiles } from "./resolve/pack-documents.js";
import type { Level, ValidationReport } from "./core/report.js";

export type { Level, Model, Severity, ValidationIssue, ValidationReport, ReportMeta, SemanticRulesMeta } from "./core/report.js";
export {
  isCatalogDocument,
  isProfileDocument,
  isComponentDefinitionDocument,
  isSystemSecurityPlanDocument,
  isAssessmentPlanDocument,
  isAssessmentResultsDocument,
  isPlanOfActionAndMilestonesDocument,
  isMappingCollectionDocument,
} from "#generated/models.js";
export type {
  CatalogDocument,
  ProfileDocument,
  ComponentDefinitionDocument,
  SystemSecurityPlanDocument,
  AssessmentPlanDocument,
  AssessmentResultsDocument,
  PlanOfActionAndMilestonesDocument,
  MappingCollectionDocument,
} from "#generated/models.js";
export { PACKAGE_VERSION, OSCAL_RELEASE, MANIFEST_SHA256 } from "./package-info.js";
export { resolveProfile, fileLoader } from "./resolve/index.js";
export { NOT_SUPPLIED } from "./packs/engine.js";
export type { ResolveOptions, ResolveResult, ResolutionFailure, ResolutionFault, DocumentLoader, LoadedDocument, Unavailable, FileLoaderSettings } from "./resolve/index.js";

/** Bytes (UTF-8, a leading byte-order mark allowed), text, or an already-parsed JSON value. */
export type ValidateInput = Uint8Array | string | object | number | boolean | null;

export interface ValidateOptions {
  /** `schema` (default) or `full`. */
  level?: Level;
  /** Default-off semantic rule ids to enable, rule-pack rules (`FRR-001.a`) included; only with level `full`. */
  rules?: readonly string[];
  /** Rule packs to enable by name, e.g. `["fedramp"]`; only with level `full`. */
  constraints?: readonly string[];
  /**
   * Documents pack constraints may read (`doc()`, `doc-available()`, `resolve-profile()`), by href as the document
   * writes it: a map to parsed documents, or a function returning one (undefined: not available, so a constraint
   * judges the missing document; NOT_SUPPLIED: beyond what the caller answers for, so the constraint is not
   * evaluated). Nothing is fetched.
   * A profile is read as the catalog it resolves to, its own imports taken from the same documents: resolved once for
   * the calls given the same map or function while it answers with the same objects (replace a document, do not
   * change it in place).
   * Absent: constraints that need another document are reported as not evaluated.
   */
  documents?: Readonly<Record<string, unknown>> | ((href: string) => unknown);
  /** The time pack constraints' `current-dateTime()` returns; the time of the call when absent. */
  now?: Date;
  /** Most findings a report lists (`issueCount` still counts all): 200 by default, as the service's; `Infinity` for all. */
  maxIssues?: number;
  /** How bytes and text are written: `json` (default) or `yaml` (OSCAL's YAML form). Ignored for parsed values. */
  format?: "json" | "yaml";
}

export type ValidationErrorCode = BodyErrorCode | "ERR_INVALID_YAML" | "ERR_UNSUPPORTED_PARAMETER";

export interface ValidationError {
  code: ValidationErrorCode;
  /** Never quotes the document. */
  detail: string;
  /** A next step specific to the cause, where there is one. */
  resolution?: string;
  /** The option at fault, for ERR_UNSUPPORTED_PARAMETER. */
  parameter?: string;
  /** 1-based position of a JSON syntax error in the text. */
  line?: number;
  column?: number;
}

export type ValidationResult = { kind: "report"; report: ValidationReport } | { kind: "error"; error: ValidationError };

const OPTION_NAMES: readonly string[] = ["level", "rules", "constraints", "documents", "now", "format", "maxIssues"];

/**
 * Validates one OSCAL JSON document. A `string` is JSON text (not bytes); a `Uint8Array` (or Buffer) is UTF-8 bytes;
 * anything else is taken as the parsed document and must be JSON data (plain objects and arrays, strings, finite
 * numbers, booleans, null). Bad input or options give `{ kind: "error" }`, never an exception.
 */
export function validate(input: ValidateInput, options?: ValidateOptions): ValidationResult {
  const checked = checkOptions(options);
  if (!checked.ok) return { kind: "error", error: checked.error };
  const { format, documents, ...rest } = checked.options;
  const coreOptions = documents === undefined ? rest : { ...rest, documents: documentsResolvingProfiles(documents) };
  if (isUint8Array(input)) return toResult(format === "yaml" ? validateYamlBytes(input, coreOptions) : validateBytes(input, coreOptions));
  if (typeof input === "string") return toResult(format === "yaml" ? validateYamlText(input, coreOptions) : validateText(input, coreOptions));
  const nonJson = findNonJsonValue(input);
  if (nonJson === undefined) return toResult(validateDocument(input, coreOptions));
  const where = nonJson.path === "" ? "the input itself" : `at ${nonJson.path}`;
  return { kind: "error", error: { code: "ERR_INVALID_JSON", detail: `The input is not a JSON value: ${where} is ${nonJson.found}.` } };
}

/** Options come from untyped callers too: anything but the documented shapes is an error, like a wrong query parameter. */
type CheckedOptions = { ok: true; options: ValidateOptions } | { ok: false; error: ValidationError };

function checkOptions(options: unknown): CheckedOptions {
  try {
    return checkOptionShapes(options);
  } catch {
    // A getter or a proxy trap threw.
    return optionProblem("options", "The options cannot be read; pass a plain object such as { level: \"full\" }.");
  }
}

function checkOptionShapes(options: unknown): CheckedOptions {
  if (options === undefined || options === null) return { ok: true, options: {} };
  if (typeof options !== "object" || Array.isArray(options)) return optionProblem("options", 'The options must be an object such as { level: "full" }.');
  const unknownName = Object.keys(options).find((name) => !OPTION_NAMES.includes(name));
  if (unknownName !== undefined) {
    const shown = unknownName.slice(0, 40);
    return optionProblem(shown, `Unknown option "${shown}": the options are ${OPTION_NAMES.join(", ")}.`);
  }
  const { level, rules, constraints, documents, now, format, maxIssues } = options as Record<string, unknown>;
  if (level !== undefined && typeof level !== "string") return optionProblem("level", 'The level must be "schema" or "full".');
  if (format !== undefined && format !== "json" && format !== "yaml") return optionProblem("format", 'The format must be "json" or "yaml".');
  if (maxIssues !== undefined && !(typeof maxIssues === "number" && maxIssues >= 0 && (Number.isInteger(maxIssues) || maxIssues === Infinity))) {
    return optionProblem("maxIssues", "The maxIssues option must be a whole number of at least 0, or Infinity.");
  }
  if (rules !== undefined && !isStringArray(rules)) return optionProblem("rules", "The rules must be an array of semantic rule id strings.");
  if (constraints !== undefined && !isStringArray(constraints)) return optionProblem("constraints", 'The constraints must be an array of rule pack names such as ["fedramp"].');
  if (documents !== undefined && typeof documents !== "function" && (typeof documents !== "object" || documents === null || Array.isArray(documents))) {
    return optionProblem("documents", "The documents must be an object mapping hrefs to parsed documents, or a function of the href.");
  }
  if (now !== undefined && !(now instanceof Date && !Number.isNaN(now.getTime()))) return optionProblem("now", "The now option must be a valid Date.");
  return {
    ok: true,
    options: {
      level: level as Level | undefined,
      rules: rules as string[] | undefined,
      constraints: constraints as string[] | undefined,
      documents: documents as ValidateOptions["documents"],
      now: now as Date | undefined,
      format: format as "json" | "yaml" | undefined,
      maxIssues: maxIssues as number | undefined,
    },
  };
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function optionProblem(parameter: string, detail: string): CheckedOptions {
  return { ok: false, error: { code: "ERR_UNSUPPORTED_PARAMETER", parameter, detail } };
}

function toResult(outcome: ValidationOutcome | YamlValidationOutcome): ValidationResult {
  return outcome.kind === "report" ? { kind: "report", report: outcome.report } : { kind: "error", error: outcome.error };
}
