// The metrics of the real service after a known sequence of requests: exact counts per outcome and level, durations
// for each, and nothing of a document, a key or a client address anywhere in the exposition.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalog, JSON_HEADERS, post, SCHEMA_INVALID_CATALOG, VALIDATE, VALID_CATALOG } from "../http/support/documents.js";
import { startService, type TestService } from "../http/support/service.js";

const MARKER = "metrics-privacy-marker-5d1c9a";
const CLIENT_ADDRESS = "198.51.100.23";
const UNKNOWN_KEY = `sk_oscal_0123456789abcdef_${"Q".repeat(43)}`;

/** Sum of a metric's samples whose labels include every given name="value" pair. */
function total(text: string, metric: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const match = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== metric) continue;
    if (Object.entries(labels).every(([name, value]) => match[2]!.includes(`${name}="${value}"`))) sum += Number(match[3]);
  }
  return sum;
}

describe("service metrics after a known sequence of requests", () => {
  let service: TestService;
  let exposition: string;

  beforeAll(async () => {
    service = await startService("uws", { METRICS_PORT: "0", TRUST_PROXY: "true" });
    const client = { "X-Forwarded-For": CLIENT_ADDRESS };
    const marked = JSON.stringify(catalog({ metadata: { title: MARKER, "last-modified": "2024-01-01T00:00:00Z", version: MARKER, "oscal-version": "1.2.2" } }));
    const statuses = [
      (await post(service.url(VALIDATE), VALID_CATALOG, { ...JSON_HEADERS, ...client })).status,
      (await post(service.url(VALIDATE), marked, { ...JSON_HEADERS, ...client })).status,
      (await post(service.url(VALIDATE), SCHEMA_INVALID_CATALOG, { ...JSON_HEADERS, ...client })).status,
      (await post(service.url(`${VALIDATE}?level=full`), VALID_CATALOG, { ...JSON_HEADERS, ...client })).status,
      (await post(service.url(VALIDATE), `{"${MARKER}": `, { ...JSON_HEADERS, ...client })).status,
      (await post(service.url(VALIDATE), marked, { "Content-Type": "text/plain", ...client })).status,
      (await post(service.url(VALIDATE), marked, { ...JSON_HEADERS, Authorization: `Bearer ${UNKNOWN_KEY}` })).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 200, 400, 415, 401]);
    const metricsPort = Number(/"metricsPort":(\d+)/.exec(service.output())![1]);
    exposition = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  });
  afterAll(async () => {
    expect(await service.stop()).toBe(0);
  });

  it("counts every request once under its outcome, model and level", () => {
    expect(total(exposition, "oscal_validations_total")).toBe(7);
    expect(total(exposition, "oscal_validations_total", { outcome: "valid", model: "catalog", level: "schema", size_bucket: "lt_10kb" })).toBe(2);
    expect(total(exposition, "oscal_validations_total", { outcome: "valid", model: "catalog", level: "full" })).toBe(1);
    expect(total(exposition, "oscal_validations_total", { outcome: "invalid", model: "catalog", level: "schema" })).toBe(1);
    expect(total(exposition, "oscal_validations_total", { outcome: "ERR_INVALID_JSON", model: "none" })).toBe(1);
    expect(total(exposition, "oscal_validations_total", { outcome: "ERR_UNSUPPORTED_MEDIA_TYPE" })).toBe(1);
    expect(total(exposition, "oscal_validations_total", { outcome: "ERR_INVALID_API_KEY" })).toBe(1);
  });

  it("records a duration for each request", () => {
    expect(total(exposition, "oscal_validation_duration_seconds_count")).toBe(7);
    expect(total(exposition, "oscal_validation_duration_seconds_count", { outcome: "valid", level: "full" })).toBe(1);
  });

  it("holds nothing of a document, a key or a client address", () => {
    for (const secret of [MARKER, UNKNOWN_KEY, UNKNOWN_KEY.slice(9, 25), CLIENT_ADDRESS, "127.0.0.1"]) expect(exposition).not.toContain(secret);
  });
});
