// Assembles the service from its settings: access backends, the validation worker pool, the handler, the transport,
// optional metrics; and shuts it down gracefully (stop accepting, finish in-flight requests, release everything).
//
// Thread model: one thread does all HTTP I/O, key checks and rate limiting (so counters are exact across workers
// without shared memory); validation, the CPU work, runs on WORKERS worker threads that receive each body by transfer.
import { AccessControl } from "../access/access-control.js";
import { createAccessBackends } from "../access/create-access.js";
import { resolveOptions } from "../core/validate.js";
import { createMetrics, startMetricsServer, type Metrics, type MetricsServer } from "../telemetry/metrics.js";
import { NodeHttpServer } from "./adapters/node.js";
import { UwsServer } from "./adapters/uws.js";
import { MemoryBudget } from "./body-reader.js";
import type { ServiceConfig } from "./config.js";
import { ServiceHandler } from "./handler.js";
import { log } from "./log.js";
import { buildStaticResponses } from "./static-content.js";
import type { RequestHandler, TransportServer } from "./transport.js";
import { ValidationPool } from "./validation-pool.js";

export interface RunningService {
  port: number;
  baseUrl: string;
  transport: string;
  /** Stops accepting, waits for in-flight requests (at most `shutdownTimeoutMs`), then releases everything. */
  shutdown(): Promise<{ drained: boolean }>;
}

export async function startService(config: ServiceConfig): Promise<RunningService> {
  // Loads the semantic rule catalog now rather than on the first request.
  resolveOptions({ level: "full" });
  const backends = createAccessBackends(config);
  const pool = await ValidationPool.start(
    {
      workers: config.workers,
      timeoutMs: config.validationTimeoutMs,
      workerHeapMb: config.workerHeapMb,
      smallBodyBytes: config.smallBodyBytes,
      smallLaneWorkers: config.smallLaneWorkers,
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
    validate: (bytes, options, signal) => pool.validate(bytes, options, signal),
    ready: () => backends.ready(),
    limits,
    budget: new MemoryBudget(config.maxInflightBodyBytes, config.maxClientInflightBytes),
    trustedProxyHops: config.trustedProxyHops,
    ...(metrics === undefined ? {} : { observe: (sample) => metrics.observe(sample) }),
  });
  log("info", "listening", {
    port,
    host: config.host,
    baseUrl,
    transport: transport.description,
    workers: config.workers,
    maxConnections: config.maxConnections,
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
