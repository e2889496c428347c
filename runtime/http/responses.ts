// Response construction: the headers every response carries (CORS included, errors too) and RFC 9457 Problems whose
// `type` and `documentation` link to the service's own error reference.
import { CORS_ALLOWED_HEADERS, CORS_MAX_AGE_SECONDS, EXPOSED_HEADERS, MEDIA_TYPES, PATHS, PROBLEMS, type ProblemCode } from "../api/definition.js";
import type { OutgoingResponse } from "./transport.js";

const CORS_HEADERS = ["Access-Control-Allow-Origin", "*", "Access-Control-Expose-Headers", EXPOSED_HEADERS.join(", ")];
const BASE_HEADERS = [...CORS_HEADERS, "X-Content-Type-Options", "nosniff"];
const DYNAMIC_HEADERS = [...BASE_HEADERS, "Cache-Control", "no-store"];
const STATIC_HEADERS = [...BASE_HEADERS, "Cache-Control", "public, max-age=300"];
/** For files whose name carries a hash of their content: a new content is a new name. */
const IMMUTABLE_HEADERS = [...BASE_HEADERS, "Cache-Control", "public, max-age=31536000, immutable"];

const JSON_DYNAMIC_HEADERS = [...DYNAMIC_HEADERS, "Content-Type", MEDIA_TYPES.json];
const PROBLEM_HEADERS = [...DYNAMIC_HEADERS, "Content-Type", MEDIA_TYPES.problem];

export function staticResponse(contentType: string, body: string, extraHeaders: readonly string[] = []): OutgoingResponse {
  return { status: 200, headers: [...STATIC_HEADERS, "Content-Type", contentType, ...extraHeaders], body: Buffer.from(body) };
}

export function immutableResponse(contentType: string, body: Uint8Array, extraHeaders: readonly string[] = []): OutgoingResponse {
  return { status: 200, headers: [...IMMUTABLE_HEADERS, "Content-Type", contentType, ...extraHeaders], body };
}

export function jsonResponse(status: number, body: string, extraHeaders: readonly string[] = []): OutgoingResponse {
  return { status, headers: extraHeaders.length === 0 ? JSON_DYNAMIC_HEADERS : [...JSON_DYNAMIC_HEADERS, ...extraHeaders], body };
}

export function preflightResponse(allowedMethods: string): OutgoingResponse {
  return {
    status: 204,
    headers: [
      ...DYNAMIC_HEADERS,
      "Access-Control-Allow-Methods", allowedMethods,
      "Access-Control-Allow-Headers", CORS_ALLOWED_HEADERS.join(", "),
      "Access-Control-Max-Age", String(CORS_MAX_AGE_SECONDS),
    ],
    body: "",
  };
}

export interface ProblemOptions {
  detail?: string;
  /** Replaces the code's general next step where the cause calls for a more specific one. */
  resolution?: string;
  /** Flat name/value list added to the response. */
  headers?: readonly string[];
  incident?: string;
  /** RFC 9457 extension members, after the standard ones (each is described in the Problem schema). */
  extensions?: Readonly<Record<string, unknown>>;
}

export class ProblemResponder {
  private readonly documentation: string;

  constructor(baseUrl: string) {
    this.documentation = `${baseUrl}${PATHS.errors}`;
  }

  problem(code: ProblemCode, options: ProblemOptions = {}): OutgoingResponse {
    const definition = PROBLEMS[code];
    const documentation = `${this.documentation}#${code}`;
    const body = {
      type: documentation,
      title: definition.title,
      status: definition.status,
      code,
      ...(options.detail === undefined ? {} : { detail: options.detail }),
      resolution: options.resolution ?? definition.resolution,
      documentation,
      ...(options.incident === undefined ? {} : { incident: options.incident }),
      ...options.extensions,
    };
    const headers = options.headers === undefined ? PROBLEM_HEADERS : [...PROBLEM_HEADERS, ...options.headers];
    return { status: definition.status, headers, body: JSON.stringify(body) };
  }
}
