// Aggregate validation telemetry for Prometheus: counts and durations by model, size bucket, outcome and level, nothing
// else. Each call to createMetrics owns its registry, so instances and tests never share counters.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { levelLabel, modelLabel, outcomeLabel, sizeBucketLabel } from "./labels.js";

export interface ValidationSample {
  model: string;
  sizeBytes: number;
  outcome: string;
  level: string;
  durationMs: number;
}

export interface Metrics {
  observe(sample: ValidationSample): void;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  contentType: string;
}

const LABEL_NAMES = ["model", "size_bucket", "outcome", "level"] as const;

// From 1 ms (a small document) to 5 s (a large catalog under full validation on a loaded host).
const DURATION_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export function createMetrics(): Metrics {
  const registry = new Registry();
  // Process metrics (CPU, memory, event loop, GC) carry no request data.
  collectDefaultMetrics({ register: registry });
  const validations = new Counter({
    name: "oscal_validations_total",
    help: "Validation requests by OSCAL model, body size bucket, outcome (valid, invalid or error code) and level.",
    labelNames: LABEL_NAMES,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "oscal_validation_duration_seconds",
    help: "Time to answer a validation request, by OSCAL model, body size bucket, outcome and level.",
    labelNames: LABEL_NAMES,
    buckets: DURATION_BUCKETS_SECONDS,
    registers: [registry],
  });

  return {
    observe(sample) {
      const labels = {
        model: modelLabel(sample.model),
        size_bucket: sizeBucketLabel(sample.sizeBytes),
        outcome: outcomeLabel(sample.outcome),
        level: levelLabel(sample.level),
      };
      validations.inc(labels);
      // prom-client throws on a non-finite value, and telemetry must never fail a request.
      if (Number.isFinite(sample.durationMs)) durations.observe(labels, Math.max(0, sample.durationMs) / 1000);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Serves GET /metrics on its own port, apart from the public API; port 0 picks a free one. */
export function startMetricsServer(metrics: Metrics, port: number, host?: string): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    metrics.render().then(
      (text) => response.writeHead(200, { "content-type": metrics.contentType }).end(text),
      () => response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Metrics unavailable\n"),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))),
      });
    });
  });
}
