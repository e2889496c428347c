// The one description of the HTTP API: paths, parameters, problem codes, headers and the JSON schemas of every body.
// The handlers, the OpenAPI document and the documentation pages are all derived from this module, so they cannot drift;
// the command line (SARIF's links to the rule pages) and the telemetry (problem codes) read it too, not the service.
import { KEY_PREFIX } from "../access/api-keys.js";
import { MAX_REPORTED_ISSUES, MODELS } from "../core/report.js";
import { VALIDATOR_RELEASE } from "../core/validate.js";

export const API_VERSION = "v1";
export const SERVICE_NAME = "OSCAL Validation Service";
export const SERVICE_DESCRIPTION =
  `Validates one OSCAL ${VALIDATOR_RELEASE} JSON document per request against the release schemas (level=schema) ` +
  "and optionally a semantic layer of constraint and reference checks (level=full). Nothing is stored or logged.";

export const PATHS = {
  validate: "/api/oscal/v1/validate",
  resolve: "/api/oscal/v1/resolve",
  index: "/api/oscal/v1",
  openapi: "/openapi.json",
  openapiVersioned: "/api/oscal/v1/openapi.json",
  docs: "/docs",
  errors: "/docs/errors",
  permissions: "/docs/permissions",
  rules: "/docs/rules",
  playground: "/validate",
  /** Prefix of the validation page's scripts and stylesheet (content-hashed file names, made by the build). */
  playgroundAssets: "/validate/assets/",
  health: "/healthz",
  ready: "/readyz",
} as const;

/** Every API key starts with this (the key format is defined with the keys). */
export const API_KEY_PREFIX = KEY_PREFIX;

/** Query parameters of the validate endpoint; any other parameter is rejected. */
export const VALIDATE_PARAMETERS = {
  level: { values: ["schema", "full"], default: "schema", description: "Validation depth: `schema` runs the JSON Schema layer only; `full` adds the semantic layer when the schema layer passes." },
  rules: {
    description:
      "Comma-separated default-off semantic rule ids to enable on top of the default set, rule-pack rules (`FRR-NNN.a`, FedRAMP's constraints) included; a rule pack's name (`fedramp`) enables all of its rules. Valid only with `level=full`; an unknown id or name is rejected. Empty items are ignored. A pack rule that reads another document (an imported profile, say) reads it from the service's document library, by the href as the document writes it; without a library it reports a `not-evaluated` warning and makes `complete` false.",
  },
  "oscal-version": { values: [VALIDATOR_RELEASE], description: `Pins the OSCAL specification version; only \`${VALIDATOR_RELEASE}\` is accepted, other values are reserved for future releases.` },
} as const;

/** Methods of the validate and resolve paths, and of every other (read-only) path; sent in Allow and in CORS preflights. */
export const VALIDATE_METHODS = "POST, OPTIONS";
export const READ_METHODS = "GET, HEAD, OPTIONS";

export const MEDIA_TYPES = { json: "application/json", problem: "application/problem+json", html: "text/html; charset=utf-8" } as const;

/** Seconds a client should wait after a 503, sent as Retry-After. */
export const RETRY_AFTER_SECONDS = { keyService: 5, atCapacity: 1 } as const;

export interface ProblemDefinition {
  status: number;
  title: string;
  /** When it is raised: shown on the error reference page. */
  condition: string;
  /** A safe next step, sent in every Problem of this code. */
  resolution: string;
  /** Response headers that accompany this code (besides the common ones). */
  headers?: readonly string[];
  /** A documentation page the error reference links to for this code. */
  reference?: { path: (typeof PATHS)[keyof typeof PATHS]; label: string };
}

export const PROBLEMS = {
  ERR_INVALID_JSON: {
    status: 400,
    title: "Body is not well-formed JSON",
    condition: "The request body (after gzip decoding) is not well-formed JSON. The detail gives the line and column of the first syntax error.",
    resolution: "Fix the JSON syntax at the reported line and column, then send the document again.",
  },
  ERR_INVALID_UTF8: {
    status: 400,
    title: "Body is not valid UTF-8",
    condition: "The request body contains a byte sequence that is not valid UTF-8. The detail gives the byte offset.",
    resolution: "Re-encode the document as UTF-8 and send it again.",
  },
  ERR_UNKNOWN_MODEL: {
    status: 400,
    title: "No recognizable OSCAL root model",
    condition: `The body is valid JSON but is not an object with exactly one root key naming an OSCAL model (${MODELS.join(", ")}).`,
    resolution: "Send a single OSCAL document whose only root key is one of the supported model names.",
  },
  ERR_INVALID_CONTENT_ENCODING: {
    status: 400,
    title: "Body is not valid gzip",
    condition: "`Content-Encoding: gzip` was declared but the body is not a complete, valid gzip stream (for example it is truncated or empty); or the body cannot be delimited unambiguously: more than one Content-Length, a Transfer-Encoding other than plain `chunked`, or both (the connection is then closed).",
    resolution: "Compress the whole document with gzip, or send it uncompressed without a Content-Encoding header.",
  },
  ERR_UNSUPPORTED_PARAMETER: {
    status: 400,
    title: "Unsupported query parameter",
    condition: "A query parameter is unknown, repeated, or has an unsupported value: a `level` other than schema or full, `rules` without `level=full`, an unknown rule id, or an `oscal-version` other than the supported release.",
    resolution: "Correct or remove the parameter named in the detail; see the API documentation (/docs) for the accepted values and the rule catalog (/docs/rules) for the semantic rule ids `rules` accepts.",
    reference: { path: PATHS.rules, label: "Semantic rule catalog: every rule id `rules` accepts" },
  },
  ERR_INVALID_API_KEY: {
    status: 401,
    title: "Invalid API key",
    condition: "The Authorization header is malformed (not `Bearer sk_oscal_…`), empty or sent more than once, or names a key that is unknown or revoked. There is no fallback to anonymous access.",
    resolution: "Send a valid, unrevoked key as `Authorization: Bearer sk_oscal_…`, or omit the Authorization header to use anonymous access.",
    headers: ["WWW-Authenticate"],
  },
  ERR_NOT_FOUND: {
    status: 404,
    title: "Not found",
    condition: "No resource exists at the requested path.",
    resolution: "Check the path; the API index lists every endpoint.",
  },
  ERR_METHOD_NOT_ALLOWED: {
    status: 405,
    title: "Method not allowed",
    condition: "The path exists but does not accept this method. The Allow header lists the accepted methods (POST and OPTIONS on the validate and resolve paths).",
    resolution: "Use one of the methods listed in the Allow header.",
    headers: ["Allow"],
  },
  ERR_PAYLOAD_TOO_LARGE: {
    status: 413,
    title: "Payload too large",
    condition: "The raw request body is over the raw limit, the gzip-decoded body is over the decompressed limit, the document nests thousands of levels deep (deeper than the validators follow; real OSCAL nests a few dozen), or validating it (resolving it, on the resolve path) takes longer or needs more memory than the service allows one validation.",
    resolution: "Send a smaller document; compress large documents with gzip (Content-Encoding: gzip).",
  },
  ERR_PROFILE_UNRESOLVABLE: {
    status: 422,
    title: "Profile cannot be resolved",
    condition:
      "Resolve path only. The profile cannot be resolved into a catalog: it imports itself (a circular import), it imports a document that is neither a profile nor a catalog, it selects controls the imported catalog does not have, or it breaks a rule of NIST's profile resolution specification (no imports, more than one structuring directive, the combine method `merge`). The body may also be no profile at all. The detail names the chain of hrefs from the profile to the import at fault; `chain` lists them.",
    resolution: "Fix the import the detail names (the last href of `chain`), then send the profile again.",
  },
  ERR_DOCUMENT_UNAVAILABLE: {
    status: 422,
    title: "Imported document unavailable",
    condition:
      "Resolve path only. The profile imports a document the service's document library does not hold (nothing is fetched from the network), an href that would leave the library, or, when the operator has configured no library, any document that is not embedded in the profile as a base64 back-matter resource. The detail names the chain of hrefs and why; `chain` lists them.",
    resolution:
      "Import the catalogs and profiles the library holds by the canonical URLs its operator indexed, or by their names in it; or embed the document as a base64 back-matter resource and import it as `#uuid`.",
  },
  ERR_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: "Unsupported media type",
    condition: "The Content-Type is not `application/json` (a charset parameter other than utf-8 included), or the Content-Encoding is neither gzip nor identity.",
    resolution: "Send `Content-Type: application/json` and either no Content-Encoding or `Content-Encoding: gzip`.",
  },
  ERR_RATE_LIMITED: {
    status: 429,
    title: "Rate limit exceeded",
    condition: "The client (anonymous) or the key has used up a per-minute or per-day allowance; or the service holds as many request bodies as its memory budget (or this client's share of it) allows; or the body arrives slower than the minimum upload rate (the connection is then closed).",
    resolution: "Wait the number of seconds given in Retry-After, or use an API key for higher limits.",
    headers: ["Retry-After"],
  },
  ERR_INTERNAL: {
    status: 500,
    title: "Internal error",
    condition: "An unexpected failure. Nothing about it is disclosed; the `incident` id identifies the server's log entry.",
    resolution: "Retry later; if it persists, report the incident id to the operator.",
  },
  ERR_KEY_SERVICE_UNAVAILABLE: {
    status: 503,
    title: "Key verification unavailable",
    condition: "The API key (or its rate counter) cannot be verified right now. Anonymous requests are not affected.",
    resolution: "Retry after the number of seconds given in Retry-After.",
    headers: ["Retry-After"],
  },
} as const satisfies Record<string, ProblemDefinition>;

export type ProblemCode = keyof typeof PROBLEMS;
export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

/** Codes only the resolve endpoint answers with. */
const RESOLUTION_CODES: readonly ProblemCode[] = ["ERR_PROFILE_UNRESOLVABLE", "ERR_DOCUMENT_UNAVAILABLE"];

/** The codes the validate endpoint can answer with, for the OpenAPI document. */
export const VALIDATE_ERROR_CODES: readonly ProblemCode[] = PROBLEM_CODES.filter((code) => code !== "ERR_NOT_FOUND" && !RESOLUTION_CODES.includes(code));

/** The codes the resolve endpoint can answer with: a body that is no profile is unresolvable, never an unknown model. */
export const RESOLVE_ERROR_CODES: readonly ProblemCode[] = PROBLEM_CODES.filter((code) => code !== "ERR_NOT_FOUND" && code !== "ERR_UNKNOWN_MODEL");

export const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": "Requests allowed in the window closest to exhaustion (integer).",
  "RateLimit-Remaining": "Requests left in that window (integer, never negative).",
  "RateLimit-Reset": "Seconds until that window resets (integer).",
  "RateLimit-Policy": "Every window that applies, as `<limit>;w=<seconds>` items separated by commas, for example `10;w=60, 300;w=86400`.",
} as const;

/** Headers a browser tool may read from any response (Access-Control-Expose-Headers). */
export const EXPOSED_HEADERS = [...Object.keys(RATE_LIMIT_HEADERS), "Retry-After", "WWW-Authenticate", "Allow"] as const;
export const CORS_ALLOWED_HEADERS = ["Authorization", "Content-Type", "Content-Encoding"] as const;
export const CORS_MAX_AGE_SECONDS = 86_400;

// --- JSON schemas (2020-12, as OpenAPI 3.1 uses) of every body the service returns ---------------------------------

const string = { type: "string" } as const;
const uri = { type: "string", format: "uri" } as const;
const integer = { type: "integer" } as const;
const boolean = { type: "boolean" } as const;

export const SCHEMAS = {
  ValidationIssue: {
    type: "object",
    required: ["ruleId", "path", "message", "keyword", "severity"],
    properties: {
      ruleId: { ...string, description: "Stable id of the rule that produced the finding: `<AREA>-<NNN>.<letter>` for a semantic rule (see the rule catalog), `nist-schema:<oscal_version>:<model>:<keyword>:<schema_path>:<keyword>` for a schema rule." },
      path: { ...string, description: "RFC 6901 JSON Pointer into the submitted document: the object for `required`, the offending property for `additionalProperties`, the value otherwise." },
      line: { ...integer, minimum: 1, description: "1-based line of what `path` names in the submitted text (the member name for `additionalProperties`, the value otherwise)." },
      column: { ...integer, minimum: 1, description: "1-based column of that position, counted in Unicode code points from the start of the line (a leading byte-order mark does not count)." },
      document: {
        ...string,
        description:
          "Only on a rule pack's finding whose node is in another document, one a constraint read with `doc()` from the documents supplied (the service's document library): that document's href as the constraint used it, as written in the submitted document (an `import-profile` href, or the back-matter `rlink` href it names). `path`, `line` and `column` then point at the node of the submitted document whose constraint reached there (for FedRAMP's baseline rules, the SSP's root), and the message names the document. Absent for findings in the submitted document.",
      },
      documentPath: {
        ...string,
        description:
          "With `document`: RFC 6901 JSON Pointer to the node in that document; for a profile read as the catalog it resolves to (`resolve-profile()`), a pointer into that resolved catalog, as the message says.",
      },
      message: { ...string, description: "Plain-language description of the problem." },
      keyword: { ...string, description: "The JSON Schema keyword or semantic constraint that failed." },
      severity: { type: "string", enum: ["error", "warning"], description: "`error` makes the document invalid; `warning` is advisory." },
    },
  },
  ReportMeta: {
    type: "object",
    required: ["engine", "validator", "schemaSource", "patches", "durationMs"],
    properties: {
      engine: { ...string, description: "Name of the validation engine." },
      validator: { ...string, description: "The OSCAL release the precompiled validators target." },
      schemaSource: { ...string, description: "Where the schemas come from." },
      patches: { type: "array", items: string, description: "Documented deviations from the raw release schemas." },
      durationMs: { ...integer, minimum: 0, description: "Processing time in milliseconds." },
      semanticRules: {
        type: "object",
        description: "Only on level=full runs that reach the semantic layer: `count` active rules, `sha256` the hex SHA-256 of their sorted ids joined by newlines.",
        required: ["count", "sha256"],
        properties: { count: { ...integer, minimum: 0 }, sha256: { type: "string", pattern: "^[0-9a-f]{64}$" } },
      },
      release: {
        type: "object",
        description: "The OSCAL release the document declares and the one it was checked against; `note`, only when they differ, says so (it is not a finding).",
        required: ["declared", "checkedAgainst"],
        properties: { declared: string, checkedAgainst: string, note: string },
      },
    },
  },
  ValidationReport: {
    type: "object",
    required: ["valid", "model", "oscalVersion", "level", "complete", "issues", "issueCount", "truncated", "meta"],
    properties: {
      valid: { ...boolean, description: "True when no finding has severity error." },
      model: { type: "string", enum: [...MODELS], description: "The OSCAL model, from the document's single root key." },
      oscalVersion: { ...string, description: "The oscal-version declared in the document's metadata, or `unknown`." },
      level: { type: "string", enum: ["schema", "full"], description: "The depth that ran (echoes the request)." },
      complete: { ...boolean, description: "True when every requested level ran to completion for a recognized model and version." },
      issues: { type: "array", maxItems: MAX_REPORTED_ISSUES, items: { $ref: "#/components/schemas/ValidationIssue" }, description: `The findings, at most ${MAX_REPORTED_ISSUES}.` },
      issueCount: { ...integer, minimum: 0, description: "True total number of findings." },
      truncated: { ...boolean, description: `True when there were more than ${MAX_REPORTED_ISSUES} findings and \`issues\` holds the first ${MAX_REPORTED_ISSUES}.` },
      meta: { $ref: "#/components/schemas/ReportMeta", description: "How the validation ran." },
    },
  },
  Problem: {
    type: "object",
    required: ["type", "title", "status", "code", "resolution", "documentation"],
    properties: {
      type: uri,
      title: string,
      status: integer,
      code: { type: "string", enum: PROBLEM_CODES },
      detail: string,
      resolution: string,
      documentation: uri,
      incident: { ...string, description: "Only on ERR_INTERNAL: identifies the server's log entry." },
      chain: {
        type: "array",
        items: string,
        description: "Only on ERR_PROFILE_UNRESOLVABLE and ERR_DOCUMENT_UNAVAILABLE: the profile (`urn:uuid:` and its uuid), then each href followed, as the documents write it, down to the import at fault.",
      },
    },
  },
  ApiIndex: {
    type: "object",
    required: ["name", "version", "description", "documentation", "openapi", "permissions", "errors", "endpoints", "authentication"],
    properties: {
      name: string,
      version: { const: API_VERSION },
      description: string,
      documentation: uri,
      openapi: uri,
      permissions: uri,
      errors: uri,
      endpoints: {
        type: "object",
        required: ["validate"],
        properties: {
          validate: { $ref: "#/components/schemas/Endpoint" },
          resolve: { $ref: "#/components/schemas/Endpoint" },
        },
      },
      authentication: {
        type: "object",
        required: ["anonymous", "optionalApiKey"],
        properties: {
          anonymous: { const: true },
          optionalApiKey: {
            type: "object",
            required: ["scheme", "prefix", "purpose", "grantsWorkspaceAccess"],
            properties: { scheme: { const: "Bearer" }, prefix: { const: API_KEY_PREFIX }, purpose: string, grantsWorkspaceAccess: { const: false } },
          },
        },
      },
    },
  },
  Endpoint: {
    type: "object",
    required: ["method", "url", "contentType"],
    properties: { method: { const: "POST" }, url: uri, contentType: { const: MEDIA_TYPES.json } },
  },
  Health: {
    type: "object",
    required: ["status"],
    properties: { status: { type: "string", enum: ["ok", "ready", "unavailable"] }, reason: string },
  },
} as const;
