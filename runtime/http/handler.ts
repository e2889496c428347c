// The transport-free request handler: routing, the validate and resolve pipelines, and every error answer. Adapters
// call `begin` with a request head and, for the validate and resolve endpoints, stream the body into the returned sink.
//
// Order of checks on POST /api/oscal/v1/validate (the first failing one answers): framing (every path) → method → path
// → API key → rate limit → query parameters → Content-Type → Content-Encoding → Content-Length → body (raw limit, gzip,
// decompressed limit, memory budget and client share, minimum rate) → UTF-8, JSON, model → validation (time and heap
// budget). Every answer after the rate-limit check carries the RateLimit-* headers. POST /api/oscal/v1/resolve runs the
// same checks (it takes no query parameter), then resolution in place of validation.
import { randomUUID } from "node:crypto";
import type { AccessControl, AccessDecision } from "../access/access-control.js";
import type { RateDecision } from "../access/contracts.js";
import { excerpt } from "../core/issue-bounds.js";
import type { ValidateOptions } from "../core/validate.js";
import type { ResolutionFailure } from "../resolve/index.js";
import { PATHS, READ_METHODS, RETRY_AFTER_SECONDS, VALIDATE_METHODS, type ProblemCode } from "../api/definition.js";
import { BodyReader, MemoryBudget, type BodyLimits } from "./body-reader.js";
import { describeError, log } from "./log.js";
import { checkContentType, clientAddress, framingProblem, parseContentEncoding, parseResolveQuery, parseValidateQuery } from "./request-checks.js";
import { jsonResponse, preflightResponse, ProblemResponder } from "./responses.js";
import { acceptsGzip, type StaticResource } from "./static-content.js";
import { bodyLength, type BodySink, type Exchange, type OutgoingResponse, type RequestHandler, type RequestHead } from "./transport.js";
import type { Cancellation, PoolFailure, ResolutionAnswer, ValidationAnswer } from "./validation-protocol.js";

/** One aggregate telemetry sample per validate request: never anything of the document itself. */
export interface RequestSample {
  model: string;
  sizeBytes: number;
  outcome: string;
  level: "schema" | "full" | "none";
  durationMs: number;
}

export interface HandlerParts {
  baseUrl: string;
  staticResponses: ReadonlyMap<string, StaticResource>;
  access: AccessControl;
  /** Resolves `cancelled` once the client has gone. */
  validate(bytes: Uint8Array, options: ValidateOptions, cancellation: Cancellation): Promise<ValidationAnswer>;
  /** Resolves a profile against the document library. */
  resolve(bytes: Uint8Array, cancellation: Cancellation): Promise<ResolutionAnswer>;
  /** Whether the operator configured a document library (a Problem for a document it lacks says which). */
  hasDocumentLibrary: boolean;
  ready(): Promise<boolean>;
  limits: BodyLimits & { validationTimeoutMs: number };
  budget: MemoryBudget;
  trustedProxyHops: number;
  observe?(sample: RequestSample): void;
}

const WWW_AUTHENTICATE = ["WWW-Authenticate", 'Bearer error="invalid_token"'];

export class ServiceHandler implements RequestHandler {
  readonly problems: ProblemResponder;
  private readonly notFound: OutgoingResponse;
  private readonly validateMethodNotAllowed: OutgoingResponse;
  private readonly readMethodNotAllowed: OutgoingResponse;
  private readonly unparsableRequest: OutgoingResponse;
  private readonly validatePreflight = preflightResponse(VALIDATE_METHODS);
  private readonly readPreflight = preflightResponse(READ_METHODS);
  private readonly health = jsonResponse(200, JSON.stringify({ status: "ok" }));
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly parts: HandlerParts) {
    this.problems = new ProblemResponder(parts.baseUrl);
    this.notFound = this.problems.problem("ERR_NOT_FOUND", { detail: "No resource exists at this path." });
    this.validateMethodNotAllowed = this.problems.problem("ERR_METHOD_NOT_ALLOWED", { detail: `This path accepts ${VALIDATE_METHODS}.`, headers: ["Allow", VALIDATE_METHODS] });
    this.readMethodNotAllowed = this.problems.problem("ERR_METHOD_NOT_ALLOWED", { detail: `This path accepts ${READ_METHODS}.`, headers: ["Allow", READ_METHODS] });
    this.unparsableRequest = this.framingRefusal("The request cannot be parsed: its head or its body's framing is invalid.");
  }

  begin(head: RequestHead): Exchange {
    const { method, path } = head;
    const framing = framingProblem(head.headerValues("content-length"), head.headerValues("transfer-encoding"));
    if (framing !== undefined) return { kind: "respond", response: this.framingRefusal(framing) };
    if (path === PATHS.validate || path === PATHS.resolve) {
      if (method === "POST") return { kind: "stream", sink: this.track(new DocumentExchange(this, this.parts, head, path === PATHS.validate ? "validate" : "resolve")) };
      return { kind: "respond", response: method === "OPTIONS" ? this.validatePreflight : this.validateMethodNotAllowed };
    }
    const resource = this.parts.staticResponses.get(path);
    const dynamic = path === PATHS.health || path === PATHS.ready;
    if (resource === undefined && !dynamic) return { kind: "respond", response: this.notFound };
    if (method === "OPTIONS") return { kind: "respond", response: this.readPreflight };
    // HEAD answers as GET does; the adapters send no body for it (RFC 9110, 9.3.2).
    if (method !== "GET" && method !== "HEAD") return { kind: "respond", response: this.readMethodNotAllowed };
    if (resource !== undefined) {
      const response = resource.gzip !== undefined && acceptsGzip(head.header("accept-encoding")) ? resource.gzip : resource;
      return { kind: "respond", response };
    }
    if (path === PATHS.health) return { kind: "respond", response: this.health };
    return { kind: "stream", sink: this.track(new ReadinessExchange(this.parts)) };
  }

  unparsable(): OutgoingResponse {
    return this.unparsableRequest;
  }

  /** Nothing after such a request can be trusted to start where the client meant it to: the connection is closed. */
  private framingRefusal(detail: string): OutgoingResponse {
    return { ...this.problems.problem("ERR_INVALID_CONTENT_ENCODING", { detail }), closeConnection: true };
  }

  /** Resolves when no request is in flight (for graceful shutdown). */
  whenIdle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Logs the failure's name and stack frames under a new incident id and answers with nothing else. */
  internalError(failure: { error: string; stack: string }): OutgoingResponse {
    const incident = randomUUID();
    log("error", "internal-error", { incident, ...failure });
    return this.problems.problem("ERR_INTERNAL", { detail: `Unexpected failure; incident ${incident}.`, incident });
  }

  rateHeaders(rate: RateDecision, policy: string): string[] {
    return ["RateLimit-Limit", String(rate.limit), "RateLimit-Remaining", String(rate.remaining), "RateLimit-Reset", String(rate.resetSeconds), "RateLimit-Policy", policy];
  }

  private track<T extends BodySink>(sink: T): T {
    this.inFlight++;
    const done = (): void => {
      if (--this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    };
    sink.response.then(done, done);
    return sink;
  }
}

/** GET /readyz: no body, one asynchronous check. */
class ReadinessExchange implements BodySink {
  readonly response: Promise<OutgoingResponse>;
  constructor(parts: HandlerParts) {
    this.response = parts.ready().then(
      (ready) => (ready ? jsonResponse(200, '{"status":"ready"}') : jsonResponse(503, '{"status":"unavailable","reason":"redis"}')),
      () => jsonResponse(503, '{"status":"unavailable","reason":"redis"}'),
    );
  }
  write(): void {}
  end(): void {}
  abort(): void {}
}

type Refusal = { code: ProblemCode; detail: string };

const KEYED_RATE_LIMIT_RESOLUTION = "Wait the number of seconds given in Retry-After; the key's allowance is per minute and per day.";
const TOO_SLOW_RESOLUTION = "Send the whole body without pauses; on a slow link, compress it with gzip (Content-Encoding: gzip).";
const OVER_BUDGET_RESOLUTION = "Validate the document with the command-line validator, or at level=schema, or split it into smaller documents.";
const RESOLUTION_OVER_BUDGET_RESOLUTION = "Resolve the profile with the command-line validator (`oscal-validate resolve`).";
const NO_LIBRARY_RESOLUTION =
  "This service has no document library: embed what the profile imports as base64 back-matter resources, or resolve it with the command-line validator (`oscal-validate resolve`).";
const AT_CAPACITY_RESOLUTION = "Retry after the number of seconds given in Retry-After; the service is holding as many documents as it can.";

/** One POST to the validate or the resolve endpoint, from its head to its answer. */
class DocumentExchange implements BodySink, Cancellation {
  readonly response: Promise<OutgoingResponse>;
  private readonly startedMs = performance.now();
  private readonly reader: BodyReader | undefined;
  cancelled = false;
  private cancelListener: (() => void) | undefined;
  private readonly keyed: boolean;
  /** Whose share of the memory budget the body and the answer count against. */
  private readonly client: string;

  constructor(
    private readonly handler: ServiceHandler,
    private readonly parts: HandlerParts,
    head: RequestHead,
    private readonly endpoint: "validate" | "resolve",
  ) {
    // Everything the head says is read now: the head is only valid during `begin`.
    const authorizations = head.headerValues("authorization");
    this.keyed = authorizations.length > 0;
    // Every X-Forwarded-For line, in order, as one list: uWS would otherwise see only the first line and node:http all.
    this.client = clientAddress(() => head.remoteAddress(), head.headerValues("x-forwarded-for").join(", "), parts.trustedProxyHops);
    // An Authorization header that is empty or repeated is refused, never read as anonymous or as one of its values.
    const ambiguous = authorizations.length > 1 || authorizations[0] === "";
    const admission: Promise<AccessDecision> = ambiguous
      ? Promise.resolve({ ok: false, code: "ERR_INVALID_API_KEY" })
      : parts.access.admit(authorizations[0] ?? "", this.client, Date.now());
    const query = endpoint === "validate" ? parseValidateQuery(head.query) : parseResolveQuery(head.query);
    const mediaTypeDetail = checkContentType(head.header("content-type"));
    const encoding = parseContentEncoding(head.header("content-encoding"));
    const declaredLength = head.header("transfer-encoding") === "" ? parseLength(head.header("content-length")) : undefined;

    let refusal: Refusal | undefined;
    if (!query.ok) refusal = { code: "ERR_UNSUPPORTED_PARAMETER", detail: query.detail };
    else if (mediaTypeDetail !== undefined) refusal = { code: "ERR_UNSUPPORTED_MEDIA_TYPE", detail: mediaTypeDetail };
    else if (!encoding.ok) refusal = { code: "ERR_UNSUPPORTED_MEDIA_TYPE", detail: encoding.detail };
    else if (declaredLength !== undefined && declaredLength > parts.limits.maxBodyBytes) {
      refusal = { code: "ERR_PAYLOAD_TOO_LARGE", detail: `The request body (Content-Length ${declaredLength}) is larger than ${parts.limits.maxBodyBytes} bytes.` };
    }
    // The body starts flowing while the key and the rate limit are checked; it is only validated once both pass.
    if (refusal === undefined && encoding.ok) this.reader = new BodyReader(parts.limits, parts.budget, this.client, encoding.value === "gzip");
    const options = query.ok ? query.value : {};
    this.response = this.answer(admission, refusal, options).catch((error: unknown) => {
      this.reader?.release();
      return this.handler.internalError(describeError(error));
    });
  }

  write(chunk: Uint8Array): void {
    this.reader?.write(chunk);
  }

  end(): void {
    this.reader?.end();
  }

  abort(): void {
    this.cancelled = true;
    this.cancelListener?.();
    this.cancelListener = undefined;
    this.reader?.abort();
  }

  onCancel(listener: () => void): void {
    this.cancelListener = listener;
  }

  private async answer(admission: Promise<AccessDecision>, refusal: Refusal | undefined, options: ValidateOptions): Promise<OutgoingResponse> {
    const problems = this.handler.problems;
    const decision = await admission;
    if (!decision.ok && decision.code === "ERR_INVALID_API_KEY") {
      this.reader?.abort();
      return this.finish(problems.problem("ERR_INVALID_API_KEY", { detail: "The API key is malformed, unknown or revoked.", headers: WWW_AUTHENTICATE }), "ERR_INVALID_API_KEY");
    }
    if (!decision.ok && decision.code === "ERR_KEY_SERVICE_UNAVAILABLE") {
      this.reader?.abort();
      const headers = ["Retry-After", String(RETRY_AFTER_SECONDS.keyService)];
      return this.finish(problems.problem("ERR_KEY_SERVICE_UNAVAILABLE", { detail: "API keys cannot be verified right now.", headers }), "ERR_KEY_SERVICE_UNAVAILABLE");
    }
    const rateHeaders = this.handler.rateHeaders(decision.rate, decision.policy);
    if (!decision.ok) {
      this.reader?.abort();
      const retryAfter = String(decision.rate.retryAfterSeconds ?? decision.rate.resetSeconds);
      const detail = `Rate limit of ${decision.rate.limit} requests exceeded; retry in ${retryAfter} s.`;
      const resolution = this.keyed ? KEYED_RATE_LIMIT_RESOLUTION : undefined;
      return this.finish(problems.problem("ERR_RATE_LIMITED", { detail, resolution, headers: [...rateHeaders, "Retry-After", retryAfter] }), "ERR_RATE_LIMITED");
    }
    if (refusal !== undefined) return this.finish(problems.problem(refusal.code, { detail: refusal.detail, headers: rateHeaders }), refusal.code);

    const body = await this.reader!.result;
    if (this.cancelled) return this.finish(problems.problem("ERR_INTERNAL"), "aborted");
    if (!body.ok) {
      const atCapacity = body.code === "ERR_RATE_LIMITED";
      const headers = atCapacity ? [...rateHeaders, "Retry-After", String(RETRY_AFTER_SECONDS.atCapacity)] : rateHeaders;
      const resolution = body.tooSlow ? TOO_SLOW_RESOLUTION : atCapacity ? AT_CAPACITY_RESOLUTION : undefined;
      const response = problems.problem(body.code, { detail: body.detail, resolution, headers });
      return this.finish(body.tooSlow ? { ...response, closeConnection: true } : response, body.code);
    }
    const sizeBytes = body.bytes.byteLength;
    if (this.endpoint === "resolve") return this.resolved(body.bytes, rateHeaders);
    let answer: ValidationAnswer;
    try {
      answer = await this.parts.validate(body.bytes, options, this);
    } finally {
      this.reader!.release();
    }
    const level = options.level ?? "schema";
    if (answer.kind === "report") return this.finish(this.heldUntilSent(jsonResponse(200, answer.json, rateHeaders)), answer.valid ? "valid" : "invalid", answer.model, sizeBytes, level);
    if (answer.kind === "body-error") {
      const { code, detail, resolution } = answer.error;
      return this.finish(problems.problem(code, { detail, resolution, headers: rateHeaders }), code, "none", sizeBytes, level);
    }
    const { response, code } = this.failed(answer, rateHeaders);
    return this.finish(response, answer.kind === "cancelled" ? "aborted" : code, "none", sizeBytes, level);
  }

  /** Resolution's answer: the catalog, or a Problem naming the chain of imports to the one at fault. */
  private async resolved(bytes: Uint8Array, rateHeaders: readonly string[]): Promise<OutgoingResponse> {
    let answer: ResolutionAnswer;
    try {
      answer = await this.parts.resolve(bytes, this);
    } finally {
      this.reader!.release();
    }
    const problems = this.handler.problems;
    if (answer.kind === "catalog") return this.heldUntilSent(jsonResponse(200, answer.json, rateHeaders));
    if (answer.kind === "body-error") {
      const { code, detail, resolution } = answer.error;
      return problems.problem(code, { detail, resolution, headers: rateHeaders });
    }
    if (answer.kind === "unresolvable") return this.unresolvable(answer.failure, rateHeaders);
    return this.failed(answer, rateHeaders).response;
  }

  private unresolvable(failure: ResolutionFailure, rateHeaders: readonly string[]): OutgoingResponse {
    const unavailable = failure.fault === "document-unavailable";
    return this.handler.problems.problem(unavailable ? "ERR_DOCUMENT_UNAVAILABLE" : "ERR_PROFILE_UNRESOLVABLE", {
      detail: bounded(failure.detail, MAX_DETAIL_CHARS),
      resolution: unavailable && !this.parts.hasDocumentLibrary ? NO_LIBRARY_RESOLUTION : undefined,
      headers: rateHeaders,
      extensions: { chain: failure.chain.map((href) => bounded(href, MAX_HREF_CHARS)) },
    });
  }

  /** The answer when the work did not run to its end: the client went, it was over budget, or it failed. */
  private failed(answer: PoolFailure, rateHeaders: readonly string[]): { response: OutgoingResponse; code: ProblemCode } {
    const problems = this.handler.problems;
    if (answer.kind === "cancelled") return { response: problems.problem("ERR_INTERNAL"), code: "ERR_INTERNAL" };
    if (answer.kind === "over-budget") {
      const work = this.endpoint === "validate" ? "Validating this document" : "Resolving this profile";
      const detail =
        answer.resource === "time" ? `${work} took longer than the service allows (${this.parts.limits.validationTimeoutMs} ms).` : `${work} needed more memory than the service allows.`;
      const resolution = this.endpoint === "validate" ? OVER_BUDGET_RESOLUTION : RESOLUTION_OVER_BUDGET_RESOLUTION;
      return { response: problems.problem("ERR_PAYLOAD_TOO_LARGE", { detail, resolution, headers: rateHeaders }), code: "ERR_PAYLOAD_TOO_LARGE" };
    }
    const internal = this.handler.internalError({ error: answer.errorName, stack: answer.stack });
    return { response: { ...internal, headers: [...internal.headers, ...rateHeaders] }, code: "ERR_INTERNAL" };
  }

  /**
   * A report is counted against the memory budget (and the client's share) until it has left: a client that does not
   * read its answers holds its own share, not the whole service. It is always admitted: the work is already done.
   */
  private heldUntilSent(response: OutgoingResponse): OutgoingResponse {
    const length = bodyLength(response.body);
    this.parts.budget.tryReserve(this.client, length, true);
    return { ...response, onSettled: () => this.parts.budget.release(this.client, length) };
  }

  /** Counts a validate request in the telemetry (resolve requests are not validations and are not counted). */
  private finish(response: OutgoingResponse, outcome: string, model = "none", sizeBytes = 0, level: RequestSample["level"] = "none"): OutgoingResponse {
    if (this.endpoint === "validate") this.parts.observe?.({ model, sizeBytes, outcome, level, durationMs: performance.now() - this.startedMs });
    return response;
  }
}

/** Hrefs come from the body and may be as long as it: a Problem echoes a bounded excerpt. */
const MAX_HREF_CHARS = 256;
const MAX_DETAIL_CHARS = 1024;

/** `text`, or its excerpt (the core's, whole code points) ending in "…" within `max` characters. */
function bounded(text: string, max: number): string {
  return text.length > max ? excerpt(text, max - 1) : text;
}

function parseLength(value: string): number | undefined {
  return /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}
