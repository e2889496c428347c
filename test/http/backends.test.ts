// Optional backends: Redis for keys (readiness and 503 when it does not answer, anonymous access unaffected) and the
// separate Prometheus metrics listener; and the in-flight memory budget.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { JSON_HEADERS, VALIDATE, VALID_CATALOG, post } from "./support/documents.js";
import { openSocket, readResponse, requestHead } from "./support/raw-http.js";
import { startService, TRANSPORTS, type TestService } from "./support/service.js";

describe.each(TRANSPORTS)("optional backends over %s", (transport) => {
  let service: TestService;

  beforeAll(async () => {
    // Nothing listens on port 1: Redis never answers.
    service = await startService(transport, { REDIS_URL: "redis://127.0.0.1:1", REDIS_TIMEOUT_MS: "200", METRICS_PORT: "0" });
  });
  afterAll(async () => {
    expect(await service.stop()).toBe(0);
  });

  it("is live but not ready while Redis does not answer", async () => {
    expect((await fetch(service.url("/healthz"))).status).toBe(200);
    const ready = await fetch(service.url("/readyz"));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "unavailable", reason: "redis" });
  });

  it("answers keyed requests with 503 ERR_KEY_SERVICE_UNAVAILABLE and keeps serving anonymous ones", async () => {
    const keyed = await post(service.url(VALIDATE), VALID_CATALOG, { ...JSON_HEADERS, Authorization: `Bearer sk_oscal_0123456789abcdef_${"A".repeat(43)}` });
    expect(keyed.status).toBe(503);
    expect(keyed.headers.get("retry-after")).toBe("5");
    expect(((await keyed.json()) as { code: string }).code).toBe("ERR_KEY_SERVICE_UNAVAILABLE");
    expect((await post(service.url(VALIDATE), VALID_CATALOG)).status).toBe(200);
  });

  it("serves aggregate metrics on the separate metrics port", async () => {
    await post(service.url(VALIDATE), VALID_CATALOG);
    const metricsPort = Number(/"metricsPort":(\d+)/.exec(service.output())![1]);
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/oscal_validations_total\{[^}]*outcome="valid"[^}]*\} [1-9]/);
    expect((await fetch(service.url("/metrics"))).status).toBe(404);
  });
});

describe.each(TRANSPORTS)("in-flight memory budget over %s", (transport) => {
  const budget = VALID_CATALOG.length * 4;

  it("answers 429 ERR_RATE_LIMITED with Retry-After while the bytes received fill the budget, and serves again once they are released", async () => {
    const service = await startService(transport, { MAX_INFLIGHT_BODY_BYTES: String(budget), MAX_CLIENT_INFLIGHT_BYTES: String(budget) });
    try {
      const holder = await openSocket(service.port);
      const held = readResponse(holder);
      holder.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Length": budget - 10 }));
      holder.write(" ".repeat(budget - 20));
      // Refused once the service holds the holder's bytes (a busy machine may take a while to read them).
      const refused = await vi.waitFor(async () => {
        const response = await post(service.url(VALIDATE), VALID_CATALOG);
        expect(response.status).toBe(429);
        return response;
      }, { timeout: 60_000, interval: 100 });
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toMatchObject({ code: "ERR_RATE_LIMITED", status: 429 });

      holder.write(" ".repeat(10));
      expect((await held).status).toBe(400);
      holder.destroy();
      expect((await post(service.url(VALIDATE), VALID_CATALOG)).status).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it("holds nothing for a declared Content-Length whose bytes have not arrived", async () => {
    const service = await startService(transport, { MAX_INFLIGHT_BODY_BYTES: String(budget), MAX_CLIENT_INFLIGHT_BYTES: String(budget) });
    try {
      const holder = await openSocket(service.port);
      holder.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Length": budget - 10 }));
      holder.write("{");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await post(service.url(VALIDATE), VALID_CATALOG)).status).toBe(200);
      holder.destroy();
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});
