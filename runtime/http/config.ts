// Service settings, read once from environment variables. Every setting has a documented default; invalid values stop
// the start-up with one message that lists every problem.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import type { RateLimits } from "../access/access-control.js";
import { readKeyStoreSettings, type KeyStoreSettings } from "../access/key-store-settings.js";
import { SettingsReader } from "../settings-reader.js";
import { checkLibrary, LIBRARY_INDEX, type LibrarySettings } from "../resolve/library.js";

export type Transport = "uws" | "node";

export interface ServiceConfig extends KeyStoreSettings {
  port: number;
  host: string;
  workers: number;
  /** Without a trailing slash; undefined means http://localhost:<listening port>. */
  publicBaseUrl: string | undefined;
  /** Number of trusted proxy hops in front of the service; 0 ignores X-Forwarded-For. */
  trustedProxyHops: number;
  maxBodyBytes: number;
  maxDecompressedBytes: number;
  /** Per-process budget for request bodies (and unsent answers) held in memory; over it, new bodies get 429 ERR_RATE_LIMITED. */
  maxInflightBodyBytes: number;
  /** The share of that budget one client (peer address, or X-Forwarded-For entry with TRUST_PROXY) may hold. */
  maxClientInflightBytes: number;
  /** A body must arrive at this rate on average over every `bodyRateWindowMs`, or it is cut off. */
  minBodyBytesPerSecond: number;
  bodyRateWindowMs: number;
  validationTimeoutMs: number;
  workerHeapMb: number;
  /** Bodies up to this size take the small lane of the worker pool. */
  smallBodyBytes: number;
  /** Bodies up to this size are validated on the HTTP thread itself, without a hop to a worker (0: never). */
  inlineBodyBytes: number;
  /** Workers kept for the small lane (large bodies never take them); at most WORKERS - 1 apply. */
  smallLaneWorkers: number;
  /** Open client connections at most; further connections are refused until some close. */
  maxConnections: number;
  /** A connection whose reader takes no bytes of its answer for this long is closed. */
  responseStallMs: number;
  anonymousLimits: RateLimits;
  keyLimits: RateLimits;
  transport: Transport;
  metricsPort: number | undefined;
  shutdownTimeoutMs: number;
  /** The document library profiles are resolved against and rule packs read, checked at start-up; undefined: none. */
  documentLibrary: LibrarySettings | undefined;
}

export const MIB = 1024 * 1024;

/** The settings, their environment variables and defaults, in the order the README's table lists them. */
export const SETTINGS_DOC: readonly { name: string; default: string; meaning: string }[] = [
  { name: "PORT", default: "8080", meaning: "TCP port of the API listener (0 picks a free port; the start-up log line names it)." },
  { name: "HOST", default: "0.0.0.0", meaning: "Address the API listener binds." },
  { name: "WORKERS", default: "number of cores", meaning: "Validation worker threads." },
  { name: "PUBLIC_BASE_URL", default: "http://localhost:<PORT>", meaning: "Origin used for absolute URLs in the index, Problems and docs." },
  { name: "TRUST_PROXY", default: "false", meaning: "`false`, `true` (one proxy hop) or the number of trusted proxy hops whose X-Forwarded-For entries identify the client." },
  { name: "MAX_BODY_BYTES", default: String(4 * MIB), meaning: "Raw request body limit (4 MiB)." },
  { name: "MAX_DECOMPRESSED_BYTES", default: String(24 * MIB), meaning: "Gzip-decoded body limit (24 MiB)." },
  { name: "MAX_INFLIGHT_BODY_BYTES", default: String(256 * MIB), meaning: "Per-process budget for bodies held in memory (raw + decoded); over it: 429 ERR_RATE_LIMITED with Retry-After: 1." },
  { name: "MAX_CLIENT_INFLIGHT_BYTES", default: "MAX_INFLIGHT_BODY_BYTES / 8", meaning: "The share of that budget one client may hold (32 MiB by default); over it: 429 ERR_RATE_LIMITED with Retry-After: 1." },
  { name: "MIN_BODY_BYTES_PER_SECOND", default: "8192", meaning: "Slowest accepted upload: a body that delivers less than this on average over a BODY_RATE_WINDOW_MS window is cut off with 429 ERR_RATE_LIMITED and the connection closed." },
  { name: "BODY_RATE_WINDOW_MS", default: "5000", meaning: "Window over which the upload rate is measured (the first window starts with the request head)." },
  { name: "VALIDATION_TIMEOUT_MS", default: "15000", meaning: "Longest run of one validation; past it the worker is replaced and the client gets 413 ERR_PAYLOAD_TOO_LARGE." },
  { name: "WORKER_HEAP_MB", default: "1024", meaning: "Heap limit of each validation worker, in MiB; past it the worker is replaced and the client gets 413 ERR_PAYLOAD_TOO_LARGE." },
  { name: "SMALL_BODY_BYTES", default: String(256 * 1024), meaning: "Bodies up to this size (256 KiB, after gzip decoding) are validated first and never wait for a worker held by a larger one." },
  {
    name: "INLINE_BODY_BYTES",
    default: "16384",
    meaning:
      "Bodies up to this size (16 KiB, after gzip decoding) are validated on the HTTP thread, without the two thread hops a worker costs (every check costs time linear in the size, so such a body takes at most a few milliseconds); 0 sends every body to a worker.",
  },
  { name: "SMALL_LANE_WORKERS", default: "1", meaning: "Workers that large bodies never take (at most WORKERS − 1 apply); 0 gives large bodies every worker, small ones then only go first." },
  { name: "MAX_CONNECTIONS", default: "open-file limit − 256", meaning: "Open client connections at most (19744 under `ulimit -n` 20000); further connections are refused until some close." },
  { name: "RESPONSE_STALL_MS", default: "10000", meaning: "A client that reads no byte of its answer for this long is disconnected." },
  { name: "ANON_RATE_PER_MINUTE", default: "10", meaning: "Anonymous requests per client per minute." },
  { name: "ANON_RATE_PER_DAY", default: "300", meaning: "Anonymous requests per client per day." },
  { name: "KEY_RATE_PER_MINUTE", default: "120", meaning: "Requests per API key per minute." },
  { name: "KEY_RATE_PER_DAY", default: "10000", meaning: "Requests per API key per day." },
  { name: "KEYS_FILE", default: "./.data/keys.json", meaning: "Embedded key store, shared with `oscal-keys` (unused when REDIS_URL is set)." },
  {
    name: "TRANSPORT",
    default: "node",
    meaning:
      "`node` (node:http: answers every HTTP/1.0 and 1.1 client, refuses malformed heads with 400) or `uws` (uWebSockets.js: less CPU per request, but it does not speak HTTP/1.0 and leaves malformed heads unanswered, so only behind an HTTP/1.1 reverse proxy).",
  },
  { name: "REDIS_URL", default: "unset", meaning: "When set, API keys and key rate counters live in Redis, shared by every instance." },
  { name: "REDIS_TIMEOUT_MS", default: "500", meaning: "Timeout of one Redis command; past it keyed requests get 503 ERR_KEY_SERVICE_UNAVAILABLE." },
  { name: "METRICS_PORT", default: "unset", meaning: "When set, a separate listener on HOST serves Prometheus metrics at GET /metrics." },
  { name: "SHUTDOWN_TIMEOUT_MS", default: "30000", meaning: "Longest wait for in-flight requests after SIGTERM/SIGINT." },
  {
    name: "DOCUMENT_LIBRARY",
    default: "unset",
    meaning: `Read-only directory of the catalogs and profiles that POST /api/oscal/v1/resolve may import and rule packs may read, with an optional ${LIBRARY_INDEX} mapping canonical URLs to its files; nothing outside it is read, nothing is fetched.`,
  },
  { name: "DOCUMENT_LIBRARY_MAX_FILE_BYTES", default: String(64 * MIB), meaning: "Largest file the document library reads (64 MiB)." },
  { name: "DOCUMENT_LIBRARY_MAX_DOCUMENTS", default: "1000", meaning: "Most files the document library's directory may hold; more stops the start-up." },
];

/** Descriptors kept for everything but client connections: workers, Redis, the key file, the metrics listener. */
const RESERVED_DESCRIPTORS = 256;

/** The default connection cap: the soft open-file limit (Linux; 1024 where it cannot be read) less the reserve. */
function defaultMaxConnections(): number {
  let limit = 1024;
  try {
    const match = /^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    if (match) limit = Number(match[1]);
  } catch {
    // Not Linux: keep the conservative default.
  }
  return Math.max(64, limit - RESERVED_DESCRIPTORS);
}

function readDocumentLibrary(reader: SettingsReader): LibrarySettings | undefined {
  const dir = reader.env.DOCUMENT_LIBRARY?.trim() || undefined;
  const limits = {
    maxFileBytes: reader.integer("DOCUMENT_LIBRARY_MAX_FILE_BYTES", 64 * MIB, 1, 1024 * MIB),
    maxDocuments: reader.integer("DOCUMENT_LIBRARY_MAX_DOCUMENTS", 1000, 1, 1_000_000),
  };
  if (dir === undefined) return undefined;
  const checked = checkLibrary(resolve(dir), limits);
  if (checked.ok) return checked.settings;
  reader.problems.push(...checked.problems.map((problem) => `DOCUMENT_LIBRARY: ${problem}`));
  return undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const reader = new SettingsReader(env);
  const { problems } = reader;
  const integer = reader.integer.bind(reader);
  const optionalInteger = (name: string, min: number, max: number): number | undefined =>
    env[name] === undefined || env[name]!.trim() === "" ? undefined : integer(name, 0, min, max);

  const transportRaw = (env.TRANSPORT ?? "").trim().toLowerCase() || "node";
  if (transportRaw !== "uws" && transportRaw !== "node") problems.push(`TRANSPORT=${JSON.stringify(env.TRANSPORT)}: expected "uws" or "node"`);

  const trustRaw = (env.TRUST_PROXY ?? "false").trim().toLowerCase();
  let trustedProxyHops = 0;
  if (trustRaw === "true") trustedProxyHops = 1;
  else if (trustRaw === "false" || trustRaw === "") trustedProxyHops = 0;
  else trustedProxyHops = integer("TRUST_PROXY", 0, 0, 32);

  let publicBaseUrl: string | undefined;
  if (env.PUBLIC_BASE_URL !== undefined && env.PUBLIC_BASE_URL.trim() !== "") {
    try {
      const url = new URL(env.PUBLIC_BASE_URL.trim());
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
      if (url.search || url.hash) throw new Error("has a query or fragment");
      publicBaseUrl = url.href.replace(/\/+$/, "");
    } catch (error) {
      problems.push(`PUBLIC_BASE_URL=${JSON.stringify(env.PUBLIC_BASE_URL)}: expected an absolute http(s) URL (${(error as Error).message})`);
    }
  }

  const port = integer("PORT", 8080, 0, 65535);
  const maxInflightBodyBytes = integer("MAX_INFLIGHT_BODY_BYTES", 256 * MIB, 1, 64 * 1024 * MIB);
  const config: ServiceConfig = {
    port,
    host: env.HOST?.trim() || "0.0.0.0",
    workers: integer("WORKERS", availableParallelism(), 1, 256),
    publicBaseUrl,
    trustedProxyHops,
    maxBodyBytes: integer("MAX_BODY_BYTES", 4 * MIB, 1, 1024 * MIB),
    maxDecompressedBytes: integer("MAX_DECOMPRESSED_BYTES", 24 * MIB, 1, 1024 * MIB),
    maxInflightBodyBytes,
    maxClientInflightBytes: integer("MAX_CLIENT_INFLIGHT_BYTES", Math.max(1, Math.floor(maxInflightBodyBytes / 8)), 1, maxInflightBodyBytes),
    minBodyBytesPerSecond: integer("MIN_BODY_BYTES_PER_SECOND", 8192, 0, 1024 * MIB),
    bodyRateWindowMs: integer("BODY_RATE_WINDOW_MS", 5000, 100, 600_000),
    validationTimeoutMs: integer("VALIDATION_TIMEOUT_MS", 15_000, 1, 3_600_000),
    workerHeapMb: integer("WORKER_HEAP_MB", 1024, 32, 64 * 1024),
    smallBodyBytes: integer("SMALL_BODY_BYTES", 256 * 1024, 0, 1024 * MIB),
    smallLaneWorkers: integer("SMALL_LANE_WORKERS", 1, 0, 256),
    inlineBodyBytes: integer("INLINE_BODY_BYTES", 16 * 1024, 0, MIB),
    maxConnections: integer("MAX_CONNECTIONS", defaultMaxConnections(), 1, 10_000_000),
    responseStallMs: integer("RESPONSE_STALL_MS", 10_000, 100, 600_000),
    anonymousLimits: { perMinute: integer("ANON_RATE_PER_MINUTE", 10, 1), perDay: integer("ANON_RATE_PER_DAY", 300, 1) },
    keyLimits: { perMinute: integer("KEY_RATE_PER_MINUTE", 120, 1), perDay: integer("KEY_RATE_PER_DAY", 10_000, 1) },
    transport: transportRaw === "uws" ? "uws" : "node",
    ...readKeyStoreSettings(reader, 500),
    metricsPort: optionalInteger("METRICS_PORT", 0, 65535),
    shutdownTimeoutMs: integer("SHUTDOWN_TIMEOUT_MS", 30_000, 0, 600_000),
    documentLibrary: readDocumentLibrary(reader),
  };
  if (config.maxDecompressedBytes < config.maxBodyBytes) problems.push("MAX_DECOMPRESSED_BYTES must not be smaller than MAX_BODY_BYTES");
  if (config.metricsPort !== undefined && config.metricsPort !== 0 && config.metricsPort === config.port) problems.push("METRICS_PORT must differ from PORT");
  reader.throwIfProblems();
  return config;
}
