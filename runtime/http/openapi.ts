// The OpenAPI 3.1 description, built once at start-up from the API definition and the running limits.
import { VALIDATOR_RELEASE } from "../core/validate.js";
import {
  API_KEY_PREFIX, API_VERSION, MEDIA_TYPES, PATHS, PROBLEMS, PROBLEM_CODES, RATE_LIMIT_HEADERS, READ_METHODS, RESOLVE_ERROR_CODES,
  SCHEMAS, SERVICE_DESCRIPTION, SERVICE_NAME, VALIDATE_ERROR_CODES, VALIDATE_METHODS, VALIDATE_PARAMETERS, type ProblemCode,
} from "../api/definition.js";
import type { PublishedLimits } from "./docs.js";

const json = (schemaName: string) => ({ [MEDIA_TYPES.json]: { schema: { $ref: `#/components/schemas/${schemaName}` } } });
const problemContent = { [MEDIA_TYPES.problem]: { schema: { $ref: "#/components/schemas/Problem" } } };
const cors = { "Access-Control-Allow-Origin": { $ref: "#/components/headers/Access-Control-Allow-Origin" } };
const rateHeaders = Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));

function errorResponses(codes: readonly ProblemCode[], withRateHeaders: boolean): Record<string, unknown> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
  const responses: Record<string, unknown> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, unknown> = { ...cors };
    for (const code of group) for (const header of (PROBLEMS[code] as { headers?: readonly string[] }).headers ?? []) headers[header] = { $ref: `#/components/headers/${header}` };
    if (withRateHeaders && status !== 401 && status !== 405) Object.assign(headers, rateHeaders);
    responses[String(status)] = {
      description: group.map((code) => `\`${code}\`: ${PROBLEMS[code].condition}`).join("\n\n"),
      headers,
      content: problemContent,
    };
  }
  return responses;
}

function getOperation(summary: string, description: string, content: Record<string, unknown>, operationId: string) {
  return { operationId, summary, description, security: [], responses: { "200": { description: summary, headers: cors, content }, ...errorResponses(["ERR_INTERNAL"], false) } };
}

/** A read-only resource: GET, HEAD (the same answer without its body) and the CORS preflight. */
function readPath(get: { operationId: string; summary: string; responses: Record<string, object> }) {
  const responsesWithoutBody = Object.fromEntries(
    Object.entries(get.responses).map(([status, response]) => [status, Object.fromEntries(Object.entries(response).filter(([field]) => field !== "content"))]),
  );
  return {
    get,
    head: { ...get, operationId: `${get.operationId}Head`, summary: `${get.summary} (headers only)`, responses: responsesWithoutBody },
    options: preflight(`${get.operationId}Preflight`, READ_METHODS),
  };
}

function preflight(operationId: string, methods: string) {
  return {
    operationId,
    summary: "CORS preflight",
    security: [],
    responses: {
      "204": {
        description: `CORS preflight answer: allows ${methods}.`,
        headers: {
          ...cors,
          "Access-Control-Allow-Methods": { schema: { type: "string", const: methods } },
          "Access-Control-Allow-Headers": { schema: { type: "string" } },
          "Access-Control-Max-Age": { schema: { type: "integer" } },
        },
      },
    },
  };
}

export function buildOpenApi(baseUrl: string, limits: PublishedLimits): object {
  const parameters = Object.entries(VALIDATE_PARAMETERS).map(([name, definition]) => ({
    name,
    in: "query",
    required: false,
    description: definition.description,
    schema: "values" in definition ? { type: "string", enum: [...definition.values], ...("default" in definition ? { default: definition.default } : {}) } : { type: "string" },
  }));
  const jsonDoc = { [MEDIA_TYPES.json]: { schema: { type: "object" } } };
  const contentEncoding = { name: "Content-Encoding", in: "header", required: false, description: "`gzip` or `identity`; recommended for large documents.", schema: { type: "string", enum: ["gzip", "identity"] } };
  const html = { [MEDIA_TYPES.html.split(";")[0]!]: { schema: { type: "string" } } };
  return {
    openapi: "3.1.0",
    info: {
      title: SERVICE_NAME,
      version: API_VERSION,
      description: `${SERVICE_DESCRIPTION}\n\nLimits: raw body ${limits.maxBodyBytes} bytes, decompressed body ${limits.maxDecompressedBytes} bytes; anonymous ${limits.anonymous.perMinute}/minute and ${limits.anonymous.perDay}/day per client; API key ${limits.key.perMinute}/minute and ${limits.key.perDay}/day per key.`,
    },
    servers: [{ url: baseUrl }],
    paths: {
      [PATHS.validate]: {
        post: {
          operationId: "validate",
          summary: `Validate one OSCAL ${VALIDATOR_RELEASE} JSON document`,
          description:
            "A completed validation is always 200; branch on `valid`. Checks run in this order: method, path, API key, rate limit, query parameters, Content-Type, Content-Encoding, Content-Length, body.",
          security: [{}, { apiKey: [] }],
          parameters: [...parameters, contentEncoding],
          requestBody: {
            required: true,
            description: "The OSCAL document itself: an object with exactly one root key naming the model.",
            content: {
              [MEDIA_TYPES.json]: {
                schema: { type: "object", minProperties: 1, maxProperties: 1, propertyNames: { enum: [...(SCHEMAS.ValidationReport.properties.model.enum as readonly string[])] } },
              },
            },
          },
          responses: {
            "200": { description: "The validation completed (the document may be valid or not).", headers: { ...cors, ...rateHeaders }, content: json("ValidationReport") },
            ...errorResponses(VALIDATE_ERROR_CODES, true),
          },
        },
        options: preflight("validatePreflight", VALIDATE_METHODS),
      },
      [PATHS.resolve]: {
        post: {
          operationId: "resolve",
          summary: "Resolve an OSCAL profile into the catalog it stands for",
          description:
            "Follows NIST's profile resolution specification. Imports come only from the document library the operator configured (by the canonical URLs its index lists, or by their names in it) or from the profile's own base64 back-matter resources; nothing is fetched from the network. Takes no query parameter; the body, key and rate-limit checks are the validate path's, and both paths share one allowance.",
          security: [{}, { apiKey: [] }],
          parameters: [contentEncoding],
          requestBody: {
            required: true,
            description: "An OSCAL profile (JSON): an object whose only root key is `profile`.",
            content: { [MEDIA_TYPES.json]: { schema: { type: "object", required: ["profile"], maxProperties: 1 } } },
          },
          responses: {
            "200": {
              description: "The resolved catalog, an OSCAL catalog document (`{\"catalog\": ...}`).",
              headers: { ...cors, ...rateHeaders },
              content: { [MEDIA_TYPES.json]: { schema: { type: "object", required: ["catalog"] } } },
            },
            ...errorResponses(RESOLVE_ERROR_CODES, true),
          },
        },
        options: preflight("resolvePreflight", VALIDATE_METHODS),
      },
      [PATHS.index]: readPath(getOperation("API index", "Discovery: links to every resource of the API.", json("ApiIndex"), "apiIndex")),
      [PATHS.openapi]: readPath(getOperation("OpenAPI description", "This document (canonical URL).", jsonDoc, "openapi")),
      [PATHS.openapiVersioned]: readPath(getOperation("OpenAPI description (versioned URL)", "Identical to /openapi.json; kept for compatibility.", jsonDoc, "openapiVersioned")),
      [PATHS.docs]: readPath(getOperation("API documentation", "HTML documentation of the API, with a real example report and every report field explained.", html, "docs")),
      [PATHS.errors]: readPath(getOperation("Error reference", "HTML reference with one anchor per problem code.", html, "errorReference")),
      [PATHS.permissions]: readPath(getOperation("Permissions", "What anonymous access and an API key allow.", html, "permissions")),
      [PATHS.rules]: readPath(getOperation("Semantic rule catalog", "HTML catalog of the semantic rules with one anchor per rule id (`#<rule-id>`), and how schema rule ids are formed.", html, "ruleCatalog")),
      [PATHS.playground]: readPath(getOperation("Validation page", `HTML page that validates a document in the browser (nothing uploaded) or through this API, and shows every finding in the source. Its scripts are served under ${PATHS.playgroundAssets} with content-hashed names.`, html, "validationPage")),
      [PATHS.health]: readPath(getOperation("Liveness", "200 while the process serves. Not rate limited.", json("Health"), "health")),
      [PATHS.ready]: readPath({
        ...getOperation("Readiness", "200 when ready to serve; 503 when a configured Redis does not answer. Not rate limited.", json("Health"), "ready"),
        responses: {
          "200": { description: "Ready.", headers: cors, content: json("Health") },
          "503": { description: "Not ready (a configured Redis does not answer).", headers: cors, content: json("Health") },
        },
      }),
    },
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: `Optional API key (prefix \`${API_KEY_PREFIX}\`); it raises rate limits only.` },
      },
      headers: {
        "Access-Control-Allow-Origin": { description: "Always `*`.", schema: { type: "string", const: "*" } },
        ...Object.fromEntries(Object.entries(RATE_LIMIT_HEADERS).map(([name, description]) => [name, { description, schema: name === "RateLimit-Policy" ? { type: "string" } : { type: "integer", minimum: 0 } }])),
        "Retry-After": { description: "Seconds to wait before retrying (integer).", schema: { type: "integer", minimum: 1 } },
        "WWW-Authenticate": { description: 'RFC 6750 challenge: `Bearer error="invalid_token"`.', schema: { type: "string" } },
        Allow: { description: "Methods the path accepts.", schema: { type: "string" } },
      },
    },
    "x-problem-codes": PROBLEM_CODES,
  };
}
