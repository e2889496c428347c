// The small static HTML pages the service serves (API documentation, error reference, permissions, rule catalog),
// generated once at start-up from the API definition and the rule catalog, so every Problem's `documentation` link and
// every rule id points at a real anchor.
import type { RateLimits } from "../access/access-control.js";
import type { ValidationReport } from "../core/report.js";
import { RULE_CATALOG, SCHEMA_RULE_IDS_ANCHOR } from "../core/rule-catalog.js";
import { RULE_PACKS } from "../core/semantic.js";
import { validateBytes, VALIDATOR_RELEASE } from "../core/validate.js";
import {
  API_KEY_PREFIX, CORS_ALLOWED_HEADERS, EXPOSED_HEADERS, PATHS, PROBLEMS, PROBLEM_CODES, RATE_LIMIT_HEADERS, SCHEMAS,
  SERVICE_DESCRIPTION, SERVICE_NAME, VALIDATE_PARAMETERS, type ProblemDefinition,
} from "../api/definition.js";

export interface PublishedLimits {
  maxBodyBytes: number;
  maxDecompressedBytes: number;
  minBodyBytesPerSecond: number;
  bodyRateWindowMs: number;
  validationTimeoutMs: number;
  anonymous: RateLimits;
  key: RateLimits;
}

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Inline `code` spans of the definitions' Markdown-ish text. */
const inline = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");

function page(title: string, baseUrl: string, body: string): string {
  const nav = [
    [PATHS.docs, "API"],
    [PATHS.errors, "Errors"],
    [PATHS.permissions, "Permissions"],
    [PATHS.rules, "Rules"],
    [PATHS.openapi, "OpenAPI"],
    [PATHS.playground, "Validate a document"],
  ]
    .map(([path, label]) => `<a href="${baseUrl}${path}">${label}</a>`)
    .join(" · ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · ${SERVICE_NAME}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}section{margin-bottom:1.5rem}pre{overflow-x:auto}</style>
</head><body><nav>${nav}</nav><h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`;
}

const bytes = (n: number): string => (n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB (${n} bytes)` : `${n} bytes`);

export function apiPage(baseUrl: string, limits: PublishedLimits): string {
  const parameters = Object.entries(VALIDATE_PARAMETERS)
    .map(([name, definition]) => `<tr><td><code>${name}</code></td><td>${inline(definition.description)}</td></tr>`)
    .join("\n");
  const rateHeaders = Object.entries(RATE_LIMIT_HEADERS)
    .map(([name, description]) => `<tr><td><code>${name}</code></td><td>${inline(description)}</td></tr>`)
    .join("\n");
  return page(
    SERVICE_NAME,
    baseUrl,
    `<p>${inline(SERVICE_DESCRIPTION)}</p>
<h2>POST ${PATHS.validate}</h2>
<p>Send one OSCAL ${VALIDATOR_RELEASE} JSON document as the body with <code>Content-Type: application/json</code>
(optionally <code>Content-Encoding: gzip</code>). A completed validation is always 200 with a ValidationReport; branch on
<code>valid</code>. Errors are <code>application/problem+json</code> (<a href="${baseUrl}${PATHS.errors}">reference</a>).</p>
<pre>curl -sS -H 'Content-Type: application/json' --data-binary @catalog.json '${baseUrl}${PATHS.validate}?level=full'</pre>
<table><tr><th>Query parameter</th><th>Meaning</th></tr>
${parameters}
</table>
<p>Checks run in this order, and the first failing one answers: framing (one Content-Length, or Transfer-Encoding
chunked), method, path, API key, rate limit, query parameters, Content-Type, Content-Encoding, Content-Length, body,
validation.</p>
${reportSection(baseUrl)}
<h2>POST ${PATHS.resolve}</h2>
<p>Send one OSCAL profile (JSON, the same body rules, keys and rate limits as validation; no query parameter) and get the
catalog it resolves to, following NIST's profile resolution specification. Imports come only from the document
library the operator configured, by the canonical URLs its index lists (such as NIST's and FedRAMP's published ones) or
by their names in it, or from the profile's own base64 back-matter resources; nothing is fetched from the network.
A profile that cannot be resolved is a 422 Problem, <code>ERR_PROFILE_UNRESOLVABLE</code> or
<code>ERR_DOCUMENT_UNAVAILABLE</code>, whose detail names the chain of hrefs to the import at fault.</p>
<pre>curl -sS -H 'Content-Type: application/json' --data-binary @profile.json '${baseUrl}${PATHS.resolve}' -o catalog.json</pre>
<h2>Limits</h2>
<ul><li>Raw body: ${bytes(limits.maxBodyBytes)}; decompressed body: ${bytes(limits.maxDecompressedBytes)}.</li>
${limits.minBodyBytesPerSecond === 0 ? "" : `<li>Upload pace: at least ${limits.minBodyBytesPerSecond} bytes per second over every ${limits.bodyRateWindowMs / 1000} s, or 429 and the connection is closed.</li>\n`}<li>One validation or resolution: at most ${limits.validationTimeoutMs / 1000} s, or 413.</li>
<li>Anonymous: ${limits.anonymous.perMinute} requests per minute and ${limits.anonymous.perDay} per day, per client.</li>
<li>API key: ${limits.key.perMinute} requests per minute and ${limits.key.perDay} per day, per key.</li></ul>
<table><tr><th>Response header</th><th>Meaning</th></tr>
${rateHeaders}
<tr><td><code>Retry-After</code></td><td>On 429 and 503: seconds to wait (integer).</td></tr>
</table>
<h2>Other endpoints</h2>
<ul><li><code>GET ${PATHS.index}</code>: discovery index.</li>
<li><code>GET ${PATHS.openapi}</code> (and <code>${PATHS.openapiVersioned}</code>): OpenAPI 3.1 description.</li>
<li><code>GET ${PATHS.rules}</code>: the <a href="${baseUrl}${PATHS.rules}">semantic rule catalog</a>, an anchor per rule id.</li>
<li><code>GET ${PATHS.playground}</code>: a <a href="${baseUrl}${PATHS.playground}">validation page</a> for people: open, drop or paste a
document and see every finding in place, checked in the browser (nothing uploaded) or through this API.</li>
<li><code>GET ${PATHS.health}</code>: liveness; <code>GET ${PATHS.ready}</code>: readiness.</li></ul>
<h2>CORS</h2>
<p>Every response carries <code>Access-Control-Allow-Origin: *</code> and exposes ${EXPOSED_HEADERS.map((h) => `<code>${h}</code>`).join(", ")}.
Preflight requests (OPTIONS) may use ${CORS_ALLOWED_HEADERS.map((h) => `<code>${h}</code>`).join(", ")}.</p>`,
  );
}

export function errorsPage(baseUrl: string): string {
  const sections = PROBLEM_CODES.map((code) => {
    const problem: ProblemDefinition = PROBLEMS[code];
    const reference = problem.reference === undefined ? "" : `\n<p>See also: <a href="${baseUrl}${problem.reference.path}">${inline(problem.reference.label)}</a>.</p>`;
    return `<section id="${code}"><h2><code>${code}</code> (${problem.status})</h2>
<p><strong>${escapeHtml(problem.title)}.</strong> ${inline(problem.condition)}</p>
<p>What to do: ${inline(problem.resolution)}</p>${reference}</section>`;
  }).join("\n");
  return page(
    "Error reference",
    baseUrl,
    `<p>Every error is an RFC 9457 Problem (<code>application/problem+json</code>) with <code>type</code>, <code>title</code>,
<code>status</code>, <code>code</code>, <code>resolution</code>, <code>documentation</code> (a link to the section below) and,
where useful, <code>detail</code>. Problems never quote the submitted document.</p>
${sections}`,
  );
}

export function permissionsPage(baseUrl: string, limits: PublishedLimits): string {
  return page(
    "Permissions",
    baseUrl,
    `<section id="anonymous"><h2>Anonymous access</h2>
<p>Without an <code>Authorization</code> header every endpoint is available. Validation is limited to
${limits.anonymous.perMinute} requests per minute and ${limits.anonymous.perDay} per day per client (best effort per server instance).</p></section>
<section id="api-key"><h2>API key</h2>
<p>Send <code>Authorization: Bearer ${API_KEY_PREFIX}…</code>. A key raises the validation limits to ${limits.key.perMinute}
requests per minute and ${limits.key.perDay} per day per key; it grants nothing else (no workspace access, no stored data).
An unknown, revoked or malformed key is refused with 401 <code>ERR_INVALID_API_KEY</code>; there is no fallback to anonymous access.
Keys are shown once at creation; the service stores only their SHA-256.</p></section>
<section id="privacy"><h2>Privacy</h2>
<p>Documents are processed in memory and discarded when the response is sent. Nothing of a document is logged or stored.</p></section>`,
  );
}

// --- Reports: a real example, validated at start-up, so it always shows what the running code returns -----------------

/** Our own small catalog, schema-valid with three semantic findings. Never a submitted document. */
const EXAMPLE_DOCUMENT = {
  catalog: {
    uuid: "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b",
    metadata: {
      title: "Example catalog",
      "last-modified": "2024-05-01T12:00:00Z",
      version: "1.0",
      "oscal-version": VALIDATOR_RELEASE,
      links: [{ href: "#missing-resource", rel: "reference" }],
    },
    controls: [{ id: "ac-1", title: "Policy and procedures", props: [{ name: "status", value: "retired" }] }],
  },
};
const EXAMPLE_DOCUMENT_TEXT = JSON.stringify(EXAMPLE_DOCUMENT, null, 2);

/** The report of EXAMPLE_DOCUMENT at level=full; the second of two runs, so `durationMs` is not that of a cold start. */
function exampleReport(): ValidationReport {
  const bytes = new TextEncoder().encode(EXAMPLE_DOCUMENT_TEXT);
  validateBytes(bytes, { level: "full" });
  const outcome = validateBytes(bytes, { level: "full" });
  if (outcome.kind !== "report") throw new Error(`the documentation's example document gave ${outcome.kind}`);
  return outcome.report;
}

interface DescribedSchema {
  properties: Record<string, { description?: string }>;
  required: readonly string[];
}

function fieldRows(prefix: string, schema: DescribedSchema): string {
  return Object.entries(schema.properties)
    .map(([name, property]) => {
      const presence = schema.required.includes(name) ? "always" : "optional";
      return `<tr><td><code>${prefix}${name}</code></td><td>${presence}</td><td>${inline(property.description ?? "")}</td></tr>`;
    })
    .join("\n");
}

function reportSection(baseUrl: string): string {
  const report = exampleReport();
  const rulesUrl = `${baseUrl}${PATHS.rules}`;
  const ruleLinks = [...new Set(report.issues.map((issue) => issue.ruleId))]
    .map((id) => `<a href="${rulesUrl}#${encodeURIComponent(id)}"><code>${escapeHtml(id)}</code></a>`)
    .join(", ");
  return `<h2 id="reports">Reports</h2>
<p>A completed validation answers with a ValidationReport. This one is real: the service validated the example document
below with <code>level=full</code> when it started. Its findings come from the semantic layer (${ruleLinks}; every
semantic rule is described in the <a href="${rulesUrl}">rule catalog</a>); schema findings have rule ids of the form
<code>nist-schema:&lt;oscal_version&gt;:&lt;model&gt;:&lt;keyword&gt;:&lt;schema_path&gt;:&lt;keyword&gt;</code>.</p>
<details><summary>Example document</summary><pre id="example-document">${escapeHtml(EXAMPLE_DOCUMENT_TEXT)}</pre></details>
<pre id="example-report">${escapeHtml(JSON.stringify(report, null, 2))}</pre>
<table><tr><th>Field</th><th>Present</th><th>Meaning</th></tr>
${fieldRows("", SCHEMAS.ValidationReport)}
${fieldRows("issues[].", SCHEMAS.ValidationIssue)}
${fieldRows("meta.", SCHEMAS.ReportMeta)}
</table>
<p><code>line</code> and <code>column</code> are present when the findings were placed in the submitted text, which the
service always does.</p>`;
}

// --- The semantic rule catalog --------------------------------------------------------------------------------------

export function rulesPage(baseUrl: string): string {
  const rows = RULE_CATALOG.map((rule) => {
    const source = rule.set === "nist" ? "NIST" : escapeHtml(rule.set);
    const constraint = rule.constraintId === undefined ? source : `${source} <code>${escapeHtml(rule.constraintId)}</code>`;
    const origin = rule.set === "ours" ? "ours" : rule.metapath === undefined ? constraint : `${constraint}<br><small>Metapath: <code>${escapeHtml(rule.metapath)}</code></small>`;
    const why = rule.remarks === undefined ? "" : `<br>Why: ${escapeHtml(rule.remarks)}`;
    const fix = rule.fix === undefined ? "" : `<br>Fix: ${escapeHtml(rule.fix)}`;
    // A character reference for each line break keeps every rule on one line of the page's source.
    const example = rule.example === undefined ? "" : `<details><summary>Example: a finding at ${rule.example.pointer === "" ? "the document root" : `<code>${escapeHtml(rule.example.pointer)}</code>`}</summary><pre>${escapeHtml(rule.example.fragment).replaceAll("\n", "&#10;")}</pre></details>`;
    const unreachable = rule.unreachableReason === undefined ? "" : `<br>No failing example: ${escapeHtml(rule.unreachableReason)}`;
    return `<tr id="${escapeHtml(rule.id)}"><td><a href="#${encodeURIComponent(rule.id)}"><code>${escapeHtml(rule.id)}</code></a></td><td>${rule.severity}</td><td>${rule.defaultOn ? "on" : "off"}</td><td>${escapeHtml(rule.keyword)}</td><td>${rule.models.join(", ")}</td><td>${origin}</td><td>${escapeHtml(rule.description)}${why}${fix}${example}${unreachable}</td></tr>`;
  }).join("\n");
  const isPackRule = (rule: (typeof RULE_CATALOG)[number]) => rule.set !== "nist" && rule.set !== "ours";
  const defaultOff = RULE_CATALOG.filter((rule) => !rule.defaultOn && !isPackRule(rule)).map((rule) => `<code>${escapeHtml(rule.id)}</code>`);
  const packCounts = RULE_PACKS.map((name) => `${RULE_CATALOG.filter((rule) => rule.set === name).length} of the <code>${escapeHtml(name)}</code> pack`);
  return page(
    "Semantic rule catalog",
    baseUrl,
    `<p>${RULE_CATALOG.length} rules with ids of their own: those <code>level=full</code> checks once a document passes the
schema layer, compiled from NIST's OSCAL ${VALIDATOR_RELEASE} metaschema constraints plus a few reference checks of our
own; rule packs, an organisation's constraints (${packCounts.join(", ")}: FedRAMP's, whose Origin column gives each
constraint's own id, and ours across the documents of a package, on by default); and the JSON text rules (area JSON) that every run checks, at both levels. A finding's <code>ruleId</code> is one
of the ids below or a schema rule id; ids never change (new rules get new ids).</p>
<ul><li>Semantic rule ids are <code>&lt;AREA&gt;-&lt;NNN&gt;.&lt;letter&gt;</code>: MET metadata, CTL control-common, CAT catalog,
PRF profile, CMP component, IMP implementation-common, SSP, ASC assessment-common, AP, AR, POA, MAP mapping, DOC ours,
FRR FedRAMP's rule pack, PKG the oscal-package pack, JSON the document's text (always on, at every level, not selectable).
Constraints sharing a NIST id share the number and take successive letters.</li>
<li>Rules marked "off" run only when named in the <code>rules</code> query parameter (with <code>level=full</code>):
${defaultOff.join(", ")}, and every rule of a rule pack that is off by default. Each is named by its id, in a comma-separated list; a pack's
name (${RULE_PACKS.map((name) => `<code>${escapeHtml(name)}</code>`).join(", ")}) names all of its rules. An unknown id or name is refused with 400
<code>ERR_UNSUPPORTED_PARAMETER</code>.</li>
<li>Besides the document submitted, the service reads only its operator's document library. A pack rule that needs
another document the library does not hold (an SSP's baseline, the plan assessment results import, a diagram's file)
gives one <code>warning</code> with keyword <code>not-evaluated</code> and makes the report's <code>complete</code>
false; the command line and the library can supply local copies of such documents. The <code>oscal-package</code>
rules (area PKG) are on by default at <code>level=full</code>, so a plan, results, POA&amp;M, SSP or profile whose
imports are not in the library is reported with <code>complete</code> false.
As every semantic rule, pack rules run only on a document the schema layer accepts.</li>
<li id="${SCHEMA_RULE_IDS_ANCHOR}">Schema rule ids are not listed here: they are <code>nist-schema:&lt;oscal_version&gt;:&lt;model&gt;:&lt;keyword&gt;:&lt;schema_path&gt;:&lt;keyword&gt;</code>,
where <code>schema_path</code> is the failing keyword's location in that model's (patched) OSCAL ${VALIDATOR_RELEASE} JSON schema,
for example <code>nist-schema:${VALIDATOR_RELEASE}:catalog:required:#/definitions/oscal-catalog-oscal-metadata:metadata/required:required</code>.</li>
<li><code>meta.semanticRules</code> of a report identifies the rule set that ran: <code>count</code> rules, and the SHA-256 of
their sorted ids.</li></ul>
<p>Each rule's description says what it checks in OSCAL's terms, why where its constraint's remarks say, and how to
fix a finding where one sentence can say it; a NIST rule's Origin column gives its constraint as the metaschema writes it, in Metapath (findings never show
Metapath; <code>oscal-validate rules --explain RULE</code> prints the same for one rule). Most rules show a failing
example: where a finding points and the JSON the document holds there, taken from a real document changed until the
rule reported on it. A rule that can never report on a document the schema accepted says why instead.</p>
<table><tr><th>Rule id</th><th>Severity</th><th>Default</th><th>Constraint kind</th><th>Models</th><th>Origin</th><th>Description</th></tr>
${rows}
</table>`,
  );
}
