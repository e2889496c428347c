// Responses whose bodies never change while the process runs, serialized once at start-up.
import { API_KEY_PREFIX, API_VERSION, MEDIA_TYPES, PATHS, SERVICE_DESCRIPTION, SERVICE_NAME } from "../api/definition.js";
import { apiPage, errorsPage, permissionsPage, rulesPage, type PublishedLimits } from "./docs.js";
import { buildOpenApi } from "./openapi.js";
import { playgroundResources } from "./playground.js";
import { staticResponse } from "./responses.js";
import type { OutgoingResponse } from "./transport.js";

function buildApiIndex(baseUrl: string): object {
  return {
    name: SERVICE_NAME,
    version: API_VERSION,
    description: SERVICE_DESCRIPTION,
    documentation: `${baseUrl}${PATHS.docs}`,
    openapi: `${baseUrl}${PATHS.openapi}`,
    permissions: `${baseUrl}${PATHS.permissions}`,
    errors: `${baseUrl}${PATHS.errors}`,
    endpoints: {
      validate: { method: "POST", url: `${baseUrl}${PATHS.validate}`, contentType: MEDIA_TYPES.json },
      resolve: { method: "POST", url: `${baseUrl}${PATHS.resolve}`, contentType: MEDIA_TYPES.json },
    },
    authentication: {
      anonymous: true,
      optionalApiKey: {
        scheme: "Bearer",
        prefix: API_KEY_PREFIX,
        purpose: "Raises rate limits only; anonymous access stays available.",
        grantsWorkspaceAccess: false,
      },
    },
  };
}

/** A response to GET, with its gzip-encoded form where one is worth sending. */
export interface StaticResource extends OutgoingResponse {
  gzip?: OutgoingResponse;
}

/** True when an Accept-Encoding header value accepts gzip (listed, or covered by "*", without q=0). */
export function acceptsGzip(acceptEncoding: string): boolean {
  const weights = new Map<string, number>();
  for (const item of acceptEncoding.toLowerCase().split(",")) {
    const [coding = "", ...parameters] = item.split(";").map((part) => part.trim());
    const quality = parameters.find((parameter) => parameter.startsWith("q="));
    weights.set(coding, quality === undefined ? 1 : Number(quality.slice(2)));
  }
  const weight = weights.get("gzip") ?? weights.get("*") ?? 0;
  return weight > 0;
}

/** Path → the response to GET on it. */
export function buildStaticResponses(baseUrl: string, limits: PublishedLimits): ReadonlyMap<string, StaticResource> {
  const openapi = staticResponse(MEDIA_TYPES.json, JSON.stringify(buildOpenApi(baseUrl, limits)));
  return new Map([
    [PATHS.index, staticResponse(MEDIA_TYPES.json, JSON.stringify(buildApiIndex(baseUrl)))],
    [PATHS.openapi, openapi],
    [PATHS.openapiVersioned, openapi],
    [PATHS.docs, staticResponse(MEDIA_TYPES.html, apiPage(baseUrl, limits))],
    [PATHS.errors, staticResponse(MEDIA_TYPES.html, errorsPage(baseUrl))],
    [PATHS.permissions, staticResponse(MEDIA_TYPES.html, permissionsPage(baseUrl, limits))],
    [PATHS.rules, staticResponse(MEDIA_TYPES.html, rulesPage(baseUrl))],
    ...playgroundResources(baseUrl),
  ]);
}
