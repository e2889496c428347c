// SARIF 2.1.0 output that code-scanning services take as is: every result located by region and JSON Pointer, URIs
// relative to %SRCROOT% and percent-encoded, rules described with help and a link to their documentation, and
// fingerprints that survive edits elsewhere in a file.
import { createHash } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ValidationIssue } from "../core/report.js";
import { RULE_CATALOG, SCHEMA_RULE_IDS_ANCHOR, type RuleCatalogEntry } from "../core/rule-catalog.js";
import { PATHS } from "../api/definition.js";
import { MANIFEST_SHA256, OSCAL_RELEASE, PACKAGE_VERSION } from "../package-info.js";
import { ERR_UNREADABLE_INPUT, STDIN, type FileOutcome } from "./file-outcome.js";
import { EXIT_USAGE, omittedCount } from "./verdict.js";

export interface SarifContext {
  /** The directory %SRCROOT% stands for; inputs under it get relative URIs. */
  cwd: string;
  /** Where rules link for help; undefined: no links, the rules carry their help text only. */
  docsBaseUrl: string | undefined;
  exitCode: number;
}

const SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
const SRCROOT = "%SRCROOT%";
const FINGERPRINT = "oscalFinding/v1";

/** Error codes of inputs that could not be validated, described for people reading a code-scanning alert. */
const ERROR_DESCRIPTIONS: Record<string, { short: string; full: string }> = {
  ERR_INVALID_JSON: { short: "Not well-formed JSON", full: "The file is not well-formed JSON (RFC 8259), so it cannot be validated as OSCAL." },
  ERR_INVALID_UTF8: { short: "Not valid UTF-8", full: "The file is not valid UTF-8, the only encoding OSCAL JSON allows." },
  ERR_UNKNOWN_MODEL: { short: "Not an OSCAL document", full: "The JSON document does not have exactly one OSCAL model root key (catalog, profile, ...)." },
  ERR_PAYLOAD_TOO_LARGE: { short: "Document nests too deeply", full: "The document nests arrays and objects more than 256 levels deep, the most the validator accepts." },
  ERR_INVALID_YAML: { short: "Not valid OSCAL YAML", full: "The file is not a YAML document that maps to JSON data (syntax, anchors and aliases, duplicate keys, non-JSON values)." },
  [ERR_UNREADABLE_INPUT]: {
    short: "Input not readable",
    full: "The input could not be read: it does not exist, is not readable, loops (a symbolic link), is not a regular file, or is larger than --max-file-size; or a directory or glob named holds no OSCAL document.",
  },
};

interface ReportingDescriptor {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri?: string;
  defaultConfiguration: { level: "error" | "warning" };
  properties?: Record<string, unknown>;
}

const semanticRules = new Map<string, RuleCatalogEntry>(RULE_CATALOG.map((rule) => [rule.id, rule]));

const isPackSet = (set: string) => set !== "nist" && set !== "ours";

/** `nist-schema:<release>:<model>:<keyword>:<schema location>:<keyword>`: the schema location may itself hold colons. */
function schemaRuleParts(ruleId: string): { model: string; location: string } | undefined {
  const match = /^nist-schema:[^:]+:([^:]+):([^:]+):(.*):\2$/.exec(ruleId);
  return match ? { model: match[1]!, location: match[3]! } : undefined;
}

function pascalCase(text: string): string {
  return text.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, __, letter: string) => letter.toUpperCase()).replace(/[^A-Za-z0-9]/g, "");
}

/** The help of a rule, with a link to its documentation when there is a place to link to. */
function help(text: string, markdown: string, helpUri: string | undefined, linkText: string): Pick<ReportingDescriptor, "help" | "helpUri"> {
  if (helpUri === undefined) return { help: { text, markdown } };
  return { help: { text: `${text} See ${helpUri}`, markdown: `${markdown}\n\n[${linkText}](${helpUri})` }, helpUri };
}

function describeRule(ruleId: string, keyword: string, severity: "error" | "warning", docsBaseUrl: string | undefined): ReportingDescriptor {
  const semantic = semanticRules.get(ruleId);
  const helpUri = docsBaseUrl === undefined ? undefined : `${docsBaseUrl}${PATHS.rules}#${semantic ? encodeURIComponent(ruleId) : SCHEMA_RULE_IDS_ANCHOR}`;
  if (semantic) {
    const enabling =
      semantic.level === "schema"
        ? "It runs at every level."
        : semantic.defaultOn
          ? "It runs with --level full."
          : `It is off by default; enable it with --level full --rules ${semantic.id}${isPackSet(semantic.set) ? ` or --constraints ${semantic.set}` : ""}.`;
    const origin =
      semantic.set === "nist"
        ? `an OSCAL ${OSCAL_RELEASE} metaschema constraint${semantic.constraintId ? ` (${semantic.constraintId})` : ""}`
        : semantic.set === "ours"
          ? "a reference check of this validator"
          : `a constraint of the ${semantic.set} rule pack (${semantic.constraintId})`;
    const fix = semantic.fix === undefined ? "" : ` To fix: ${semantic.fix}`;
    const why = semantic.remarks === undefined ? "" : ` Why: ${semantic.remarks}`;
    const full = `${semantic.description.replace(/\.$/, "")}.${fix} Checked by ${origin}; severity ${semantic.severity}. ${enabling}`;
    return {
      id: ruleId,
      name: pascalCase(`${semantic.keyword} ${semantic.id}`),
      shortDescription: { text: semantic.description },
      fullDescription: { text: full },
      // Why the rule exists, where its constraint says, goes to the help a reader opens, not the one-line descriptions.
      ...help(`${full}${why}`, `**${semantic.id}** (${semantic.keyword}): ${full}${why}`, helpUri, "Rule documentation"),
      defaultConfiguration: { level: semantic.severity },
      properties: { tags: ["oscal", "semantic", semantic.set], ...(semantic.constraintId === undefined ? {} : { constraintId: semantic.constraintId }) },
    };
  }
  const parts = schemaRuleParts(ruleId);
  const where = parts ? `${parts.location} of the NIST OSCAL ${OSCAL_RELEASE} ${parts.model} JSON schema` : `the NIST OSCAL ${OSCAL_RELEASE} JSON schema`;
  const full = `The value must satisfy the JSON Schema "${keyword}" keyword at ${where}.`;
  return {
    id: ruleId,
    name: pascalCase(`schema ${keyword}`),
    shortDescription: { text: `OSCAL JSON schema: ${keyword}` },
    fullDescription: { text: full },
    ...help(`${full} The finding's message says what the schema expects.`, `\`${keyword}\`: ${full}\n\nThe finding's message says what the schema expects.`, helpUri, "Rule documentation"),
    defaultConfiguration: { level: severity },
    properties: { tags: ["oscal", "schema"] },
  };
}

function describeError(code: string, docsBaseUrl: string | undefined): ReportingDescriptor {
  const description = ERROR_DESCRIPTIONS[code] ?? { short: code, full: `The input could not be validated (${code}).` };
  const helpUri = docsBaseUrl === undefined ? undefined : `${docsBaseUrl}${PATHS.errors}#${encodeURIComponent(code)}`;
  return {
    id: code,
    name: pascalCase(code.replace(/^ERR_/, "").toLowerCase()),
    shortDescription: { text: description.short },
    fullDescription: { text: description.full },
    ...help(description.full, description.full, helpUri, "Error documentation"),
    defaultConfiguration: { level: "error" },
  };
}

/** A file under `cwd` is relative to %SRCROOT%; anything else is an absolute file: URI. */
export function artifactLocation(file: string, cwd: string): { uri: string; uriBaseId?: string; description?: { text: string } } {
  if (file === STDIN) return { uri: "stdin", description: { text: "standard input" } };
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return { uri: pathToFileURL(absolute).href };
  return { uri: relative.split(path.sep).map(encodeURIComponent).join("/"), uriBaseId: SRCROOT };
}

function fingerprint(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("hex");
}

export function toSarif(outcomes: readonly FileOutcome[], context: SarifContext): object {
  const rules: ReportingDescriptor[] = [];
  const ruleIndex = new Map<string, number>();
  const indexOf = (id: string, describe: () => ReportingDescriptor) => {
    let index = ruleIndex.get(id);
    if (index === undefined) {
      index = rules.push(describe()) - 1;
      ruleIndex.set(id, index);
    }
    return index;
  };
  const results: object[] = [];
  const notifications: object[] = [];

  for (const outcome of outcomes) {
    const artifact = artifactLocation(outcome.file, context.cwd);
    const at = (line: number | undefined, column: number | undefined, pointer?: string) => [
      {
        physicalLocation: { artifactLocation: artifact, region: { startLine: line ?? 1, startColumn: column ?? 1 } },
        ...(pointer === undefined ? {} : { logicalLocations: [{ fullyQualifiedName: pointer === "" ? "/" : pointer, kind: "element" }] }),
      },
    ];
    const { error, report } = outcome;
    if (error?.code === ERR_UNREADABLE_INPUT) {
      notifications.push({ level: "error", message: { text: error.detail }, descriptor: { id: error.code }, locations: [{ physicalLocation: { artifactLocation: artifact } }] });
      continue;
    }
    if (error) {
      results.push({
        ruleId: error.code,
        ruleIndex: indexOf(error.code, () => describeError(error.code, context.docsBaseUrl)),
        level: "error",
        message: { text: error.resolution ? `${error.detail} ${error.resolution}` : error.detail },
        locations: at(error.line, error.column),
        partialFingerprints: { [FINGERPRINT]: fingerprint(error.code, artifact.uri) },
      });
      continue;
    }
    for (const issue of report!.issues) results.push(issueResult(issue, artifact.uri, at(issue.line, issue.column, issue.path), indexOf(issue.ruleId, () => describeRule(issue.ruleId, issue.keyword, issue.severity, context.docsBaseUrl))));
    const omitted = omittedCount(outcome);
    if (omitted > 0) {
      notifications.push({
        level: "warning",
        message: { text: `${report!.issues.length} of ${report!.issueCount} findings reported for this file; ${omitted} more not reported because of --max-issues.` },
        descriptor: { id: "truncated" },
        locations: [{ physicalLocation: { artifactLocation: artifact } }],
      });
    }
  }

  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "oscal-validate",
            version: PACKAGE_VERSION,
            semanticVersion: PACKAGE_VERSION,
            ...(context.docsBaseUrl === undefined ? {} : { informationUri: `${context.docsBaseUrl}/` }),
            rules,
            properties: { oscalRelease: OSCAL_RELEASE, ruleManifestSha256: MANIFEST_SHA256 },
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(context.cwd.endsWith(path.sep) ? context.cwd : `${context.cwd}${path.sep}`).href } },
        invocations: [{ executionSuccessful: context.exitCode !== EXIT_USAGE, exitCode: context.exitCode, toolExecutionNotifications: notifications }],
        columnKind: "unicodeCodePoints",
        results,
      },
    ],
  };
}

/** A rule that could not run (it needs another document) is neither passed nor failed: SARIF's kind "open". */
const NOT_EVALUATED = "not-evaluated";

/** The document and pointer of a finding in another document; nothing for one in the submitted document. */
const otherDocument = (issue: ValidationIssue): string[] => (issue.document === undefined ? [] : [issue.document, issue.documentPath ?? ""]);

function issueResult(issue: ValidationIssue, uri: string, locations: object[], ruleIndex: number): object {
  return {
    ruleId: issue.ruleId,
    ruleIndex,
    ...(issue.keyword === NOT_EVALUATED ? { kind: "open", level: "none" } : { level: issue.severity }),
    message: { text: `${issue.message} (at ${issue.path === "" ? "/" : issue.path})` },
    locations,
    // Findings in another document share the path of the node whose constraint reached there: where they really are
    // tells them apart (the message names that document too).
    partialFingerprints: { [FINGERPRINT]: fingerprint(issue.ruleId, uri, issue.path, ...otherDocument(issue)) },
    properties: { jsonPointer: issue.path, keyword: issue.keyword, ...(issue.document === undefined ? {} : { document: issue.document, documentPath: issue.documentPath }) },
  };
}
