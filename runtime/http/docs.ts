// The small static HTML pages the service serves (API documentation, error reference, permissions), generated once at
// start-up from the API definition, so every Problem's `documentation` link points at a real anchor.
import type { RateLimits } from "../access/access-control.js";
import { VALIDATOR_RELEASE } from "../core/validate.js";
import {
  API_KEY_PREFIX, CORS_ALLOWED_HEADERS, EXPOSED_HEADERS, PATHS, PROBLEMS, PROBLEM_CODES, RATE_LIMIT_HEADERS, SERVICE_DESCRIPTION,
  SERVICE_NAME, VALIDATE_PARAMETERS,
} from "./api-definition.js";

export interface PublishedLimits {
  maxBodyBytes: number;
  maxDecompressedBytes: number;
  minBodyBytesPerSecond: number;
  bodyRateWindowMs: number;
  validationTimeoutMs: number;
  anonymous: RateLimits;
  key: RateLimits;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Inline `code` spans of the definitions' Markdown-ish text. */
const inline = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");

function page(title: string, baseUrl: string, body: string): string {
  const nav = [
    [PATHS.docs, "API"],
    [PATHS.errors, "Errors"],
    [PATHS.permissions, "Permissions"],
    [PATHS.openapi, "OpenAPI"],
  ]
    .map(([path, label]) => `<a href="${baseUrl}${path}">${label}</a>`)
    .join(" · ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · ${SERVICE_NAME}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}section{margin-bottom:1.5rem}</style>
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
<h2>Limits</h2>
<ul><li>Raw body: ${bytes(limits.maxBodyBytes)}; decompressed body: ${bytes(limits.maxDecompressedBytes)}.</li>
${limits.minBodyBytesPerSecond === 0 ? "" : `<li>Upload pace: at least ${limits.minBodyBytesPerSecond} bytes per second over every ${limits.bodyRateWindowMs / 1000} s, or 429 and the connection is closed.</li>\n`}<li>One validation: at most ${limits.validationTimeoutMs / 1000} s, or 413.</li>
<li>Anonymous: ${limits.anonymous.perMinute} requests per minute and ${limits.anonymous.perDay} per day, per client.</li>
<li>API key: ${limits.key.perMinute} requests per minute and ${limits.key.perDay} per day, per key.</li></ul>
<table><tr><th>Response header</th><th>Meaning</th></tr>
${rateHeaders}
<tr><td><code>Retry-After</code></td><td>On 429 and 503: seconds to wait (integer).</td></tr>
</table>
<h2>Other endpoints</h2>
<ul><li><code>GET ${PATHS.index}</code>: discovery index.</li>
<li><code>GET ${PATHS.openapi}</code> (and <code>${PATHS.openapiVersioned}</code>): OpenAPI 3.1 description.</li>
<li><code>GET ${PATHS.health}</code>: liveness; <code>GET ${PATHS.ready}</code>: readiness.</li></ul>
<h2>CORS</h2>
<p>Every response carries <code>Access-Control-Allow-Origin: *</code> and exposes ${EXPOSED_HEADERS.map((h) => `<code>${h}</code>`).join(", ")}.
Preflight requests (OPTIONS) may use ${CORS_ALLOWED_HEADERS.map((h) => `<code>${h}</code>`).join(", ")}.</p>`,
  );
}

export function errorsPage(baseUrl: string): string {
  const sections = PROBLEM_CODES.map((code) => {
    const problem = PROBLEMS[code];
    return `<section id="${code}"><h2><code>${code}</code> (${problem.status})</h2>
<p><strong>${escapeHtml(problem.title)}.</strong> ${inline(problem.condition)}</p>
<p>What to do: ${inline(problem.resolution)}</p></section>`;
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
