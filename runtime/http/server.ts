// Assembles the service from its settings: access backends, the validation worker pool, the handler, the transport,
// optional metrics; and shuts it down gracefully (stop accepting, finish in-flight requests, release everything).
//
// Thread model: one thread does all HTTP I/O, key checks and rate limiting (so counters are exact across workers
// without shared memory); validation and resolution, the CPU work, run on WORKERS worker threads that receive each body
// by transfer. Only the workers read the document library.
import { AccessControl } from "../access/access-control.js";
import { createAccessBackends } from "../access/create-access.js";
import { preloadValidators, resolveOptions } from "../core/validate.js";
import { createMetrics, startMetricsServer, type Metrics, type MetricsServer } from "../telemetry/metrics.js";
import { NodeHttpServer } from "./adapters/node.js";
import { UwsServer } from "./adapters/uws.js";
import { MemoryBudget } from "./body-reader.js";
import type { ServiceConfig } from "./config.js";
import { ServiceHandler } from "./handler.js";
import { log } from "./log.js";
import { buildStaticResponses } from "./static-content.js";
import type { RequestHandler, TransportServer } from "./transport.js";
import { validationAnswer } from "./validation-answer.js";
import { ValidationPool } from "./validation-pool.js";

export interface RunningService {
  port: number;
  baseUrl: string;
  transport: string;
  /** Stops accepting, waits for in-flight requests (at most `shutdownTimeoutMs`), then releases everything. */
  shutdown(): Promise<{ drained: boolean }>;
}

export async function startService(config: ServiceConfig): Promise<RunningService> {
  // Loads the semantic rule catalog (and, for inline validation, the validators) now rather than on the first request.
  resolveOptions({ level: "full" });
  if (config.inlineBodyBytes > 0) preloadValidators();
  const backends = createAccessBackends(config);
  const pool = await ValidationPool.start(
    {
      workers: config.workers,
      timeoutMs: config.validationTimeoutMs,
      workerHeapMb: config.workerHeapMb,
      smallBodyBytes: config.smallBodyBytes,
      smallLaneWorkers: config.smallLaneWorkers,
      library: config.documentLibrary,
    },
    (detail) => log("error", "worker-failure", { detail }),
  );
  // Optional aggregate telemetry, on its own listener so it never shares a port or rate limits with the public API.
  const metrics: Metrics | undefined = config.metricsPort === undefined ? undefined : createMetrics();
  const metricsServer: MetricsServer | undefined = metrics === undefined ? undefined : await startMetricsServer(metrics, config.metricsPort!, config.host);

  // The public base URL may depend on the port actually bound (PORT=0), so the handler is created once it is known;
  // it is assigned in the same tick as `listen` completes, before any connection can be served.
  let handler: ServiceHandler | undefined;
  const lateHandler: RequestHandler = { begin: (head) => handler!.begin(head), unparsable: () => handler!.unparsable() };
  const connectionLimits = { maxConnections: config.maxConnections, responseStallMs: config.responseStallMs };
  const transport: TransportServer = config.transport === "uws" ? new UwsServer(lateHandler, connectionLimits) : new NodeHttpServer(lateHandler, connectionLimits);
  const port = await transport.listen(config.host, config.port);
  const baseUrl = config.publicBaseUrl ?? `http://localhost:${port}`;
  const limits = {
    maxBodyBytes: config.maxBodyBytes,
    maxDecompressedBytes: config.maxDecompressedBytes,
    minBodyBytesPerSecond: config.minBodyBytesPerSecond,
    bodyRateWindowMs: config.bodyRateWindowMs,
    validationTimeoutMs: config.validationTimeoutMs,
    anonymous: config.anonymousLimits,
    key: config.keyLimits,
  };
  handler = new ServiceHandler({
    baseUrl,
    staticResponses: buildStaticResponses(baseUrl, limits),
    access: new AccessControl({ ...backends, anonymousLimits: config.anonymousLimits, keyLimits: config.keyLimits }),
    // A small body costs less to validate than the two thread hops to a worker and back; its cost is bounded by its
    // size, so it cannot hold the HTTP thread for long. Not so when rules may read library documents (at level full,
    // where oscal-package's rules are on): parsing one costs what the library's largest file does, so workers do it.
    validate: (bytes, options, cancellation) =>
      bytes.byteLength <= config.inlineBodyBytes && (config.documentLibrary === undefined || options.level !== "full")
        ? Promise.resolve(validationAnswer(bytes, options))
        : pool.validate(bytes, options, cancellation),
    resolve: (bytes, cancellation) => pool.resolve(bytes, cancellation),
    hasDocumentLibrary: config.documentLibrary !== undefined,
    ready: () => backends.ready(),
    limits,
    budget: new MemoryBudget(config.maxInflightBodyBytes, config.maxClientInflightBytes),
    trustedProxyHops: config.trustedProxyHops,
    ...(metrics === undefined ? {} : { observe: (sample) => metrics.observe(sample) }),
  });
  if (config.publicBaseUrl === undefined) {
    log("info", "public-base-url-unset", { detail: `PUBLIC_BASE_URL is not set: the links in answers (problem types, rule documentation) carry ${baseUrl}.` });
  }
  // Behind a trusted proxy the operator has put the front uWS needs; elsewhere on a reachable address, say what it lacks.
  if (config.transport === "uws" && config.trustedProxyHops === 0 && !isLoopback(config.host)) {
    log("warn", "proxy-required", {
      detail:
        "TRANSPORT=uws does not answer HTTP/1.0 clients or malformed request heads: serve it only through an HTTP/1.1 reverse proxy (nginx: proxy_http_version 1.1), or use TRANSPORT=node.",
    });
  }
  log("info", "listening", {
    port,
    host: config.host,
    baseUrl,
    transport: transport.description,
    workers: config.workers,
    maxConnections: config.maxConnections,
    documentLibrary: config.documentLibrary === undefined ? "none" : `${Object.keys(config.documentLibrary.index).length} indexed documents`,
    access: backends.description,
    ...(metricsServer === undefined ? {} : { metricsPort: metricsServer.port }),
  });

  return {
    port,
    baseUrl,
    transport: transport.description,
    async shutdown() {
      transport.stopAccepting();
      let timer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        handler!.whenIdle().then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), config.shutdownTimeoutMs))),
      ]);
      clearTimeout(timer);
      await transport.close();
      await Promise.all([pool.close(), backends.close(), metricsServer?.close()]);
      return { drained };
    },
  };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}
