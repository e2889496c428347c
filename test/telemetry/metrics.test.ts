import { describe, expect, it } from "vitest";
import { createMetrics, startMetricsServer, type ValidationSample } from "../../runtime/telemetry/metrics.js";

/** Series of one metric from the text exposition, keyed by their labels in name order ("a=x,b=y"). */
function series(text: string, metric: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    const match = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== metric) continue;
    const labels = [...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map(([, name, value]) => `${name}=${value}`);
    found.set(labels.sort().join(","), Number(match[3]));
  }
  return found;
}

function labelKey(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([name, value]) => `${name}=${value}`)
    .sort()
    .join(",");
}

const SMALL_VALID_CATALOG: ValidationSample = { model: "catalog", sizeBytes: 2_000, outcome: "valid", level: "schema", durationMs: 3 };

describe("validation metrics", () => {
  it("counts each sample under its model, size bucket, outcome and level", async () => {
    const metrics = createMetrics();
    metrics.observe(SMALL_VALID_CATALOG);
    metrics.observe({ ...SMALL_VALID_CATALOG, durationMs: 1.5 });
    metrics.observe({ model: "profile", sizeBytes: 10 * 1024, outcome: "invalid", level: "full", durationMs: 40 });
    metrics.observe({ model: "system-security-plan", sizeBytes: 4 * 1024 * 1024, outcome: "valid", level: "full", durationMs: 900 });
    metrics.observe({ model: "none", sizeBytes: 12, outcome: "ERR_INVALID_JSON", level: "none", durationMs: 0.2 });
    const text = await metrics.render();

    expect(series(text, "oscal_validations_total")).toEqual(
      new Map([
        [labelKey({ model: "catalog", size_bucket: "lt_10kb", outcome: "valid", level: "schema" }), 2],
        [labelKey({ model: "profile", size_bucket: "lt_100kb", outcome: "invalid", level: "full" }), 1],
        [labelKey({ model: "system-security-plan", size_bucket: "gte_4mb", outcome: "valid", level: "full" }), 1],
        [labelKey({ model: "none", size_bucket: "lt_10kb", outcome: "ERR_INVALID_JSON", level: "none" }), 1],
      ]),
    );
    const catalogLabels = { model: "catalog", size_bucket: "lt_10kb", outcome: "valid", level: "schema" };
    expect(series(text, "oscal_validation_duration_seconds_count").get(labelKey(catalogLabels))).toBe(2);
    expect(series(text, "oscal_validation_duration_seconds_sum").get(labelKey(catalogLabels))).toBeCloseTo(0.0045, 9);
    const buckets = series(text, "oscal_validation_duration_seconds_bucket");
    expect(buckets.get(labelKey({ ...catalogLabels, le: "0.001" }))).toBe(0);
    expect(buckets.get(labelKey({ ...catalogLabels, le: "0.0025" }))).toBe(1);
    expect(buckets.get(labelKey({ ...catalogLabels, le: "0.005" }))).toBe(2);
    expect(buckets.get(labelKey({ ...catalogLabels, le: "5" }))).toBe(2);
  });

  it("puts sizes into fixed buckets at their boundaries", async () => {
    const metrics = createMetrics();
    const sizes = [0, 10 * 1024 - 1, 10 * 1024, 100 * 1024, 1024 * 1024 - 1, 1024 * 1024, 4 * 1024 * 1024 - 1, 24 * 1024 * 1024];
    for (const sizeBytes of sizes) metrics.observe({ ...SMALL_VALID_CATALOG, sizeBytes });
    const counts = series(await metrics.render(), "oscal_validations_total");
    const bySize = (size_bucket: string) => counts.get(labelKey({ model: "catalog", size_bucket, outcome: "valid", level: "schema" }));
    expect([bySize("lt_10kb"), bySize("lt_100kb"), bySize("lt_1mb"), bySize("lt_4mb"), bySize("gte_4mb")]).toEqual([2, 1, 2, 2, 1]);
  });

  it("never lets a label carry request data, even when a caller passes it by mistake", async () => {
    const metrics = createMetrics();
    const leaks = ["MARKER-7f3a9c", "sk_oscal_abc123_SECRETSECRET", "203.0.113.77", "2001:db8::77", 'catalog"} 1\nfake_metric{a="'];
    for (const leak of leaks) {
      metrics.observe({ model: leak, sizeBytes: 100, outcome: leak, level: leak, durationMs: 1 });
      metrics.observe({ model: "catalog", sizeBytes: 100, outcome: "valid", level: "schema", durationMs: 1, [leak]: leak } as ValidationSample);
    }
    metrics.observe({ model: "catalog", sizeBytes: Number.NaN, outcome: "valid", level: "schema", durationMs: Number.NaN });
    const text = await metrics.render();

    for (const leak of leaks) expect(text).not.toContain(leak);
    expect(text).not.toContain("fake_metric");
    const counts = series(text, "oscal_validations_total");
    expect(counts.get(labelKey({ model: "none", size_bucket: "lt_10kb", outcome: "other", level: "none" }))).toBe(leaks.length);
  });

  it("serves the metrics on GET /metrics over a real socket, and nothing else", async () => {
    const metrics = createMetrics();
    metrics.observe(SMALL_VALID_CATALOG);
    const server = await startMetricsServer(metrics, 0, "127.0.0.1");
    try {
      expect(server.port).toBeGreaterThan(0);
      const base = `http://127.0.0.1:${server.port}`;
      const response = await fetch(`${base}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(metrics.contentType);
      const text = await response.text();
      expect(text).toContain("# TYPE oscal_validations_total counter");
      expect(text).toContain("# TYPE oscal_validation_duration_seconds histogram");
      expect(text).toContain("process_cpu_user_seconds_total");
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
