// Bodies that hold the service's memory budget: trickled bodies (a large Content-Length, a byte now and then) hold
// nothing and are cut off at the minimum rate; one client cannot hold more than its share of the budget. The rate is
// asserted by its answer (429, connection closed), not by when it comes: a busy machine only makes a trickle slower
// (the rate window itself is tested against a moved clock in test/http/time-limits.test.ts).
import { describe, expect, it, vi } from "vitest";
import { JSON_HEADERS, VALIDATE, VALID_CATALOG, post } from "../http/support/documents.js";
import { closed, openSocket, readResponse, requestHead } from "../http/support/raw-http.js";
import { startService, TRANSPORTS, type TestService } from "../http/support/service.js";

async function serves(service: TestService, headers: Record<string, string> = {}): Promise<void> {
  expect((await post(service.url(VALIDATE), VALID_CATALOG, { ...JSON_HEADERS, ...headers })).status).toBe(200);
}

describe.each(TRANSPORTS)("slow and greedy bodies over %s", (transport) => {
  it("cuts off bodies slower than the minimum rate with 429 and a closed connection, while other requests are served", async () => {
    const service = await startService(transport, {
      TRUST_PROXY: "true",
      ANON_RATE_PER_MINUTE: "1000",
      MAX_INFLIGHT_BODY_BYTES: String(8 * 1024 * 1024),
      MIN_BODY_BYTES_PER_SECOND: "1024",
      BODY_RATE_WINDOW_MS: "500",
    });
    try {
      // 32 connections from 8 addresses, each declaring 4 MiB and sending a byte every 300 ms.
      const slow = await Promise.all(
        Array.from({ length: 32 }, async (_, i) => {
          const socket = await openSocket(service.port);
          socket.on("error", () => undefined);
          const response = readResponse(socket, 600_000);
          socket.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Length": 4 * 1024 * 1024, "X-Forwarded-For": `198.51.100.${i % 8}` }));
          const drip = setInterval(() => socket.writable && socket.write("{"), 300);
          return { socket, response, drip };
        }),
      );
      await serves(service);
      for (const { socket, response, drip } of slow) {
        const answer = await response;
        clearInterval(drip);
        expect(answer.status).toBe(429);
        expect(answer.headers["retry-after"]).toBe("1");
        expect(answer.headers.connection).toBe("close");
        expect(JSON.parse(answer.body)).toMatchObject({ code: "ERR_RATE_LIMITED", detail: expect.stringContaining("1024 bytes per second") });
        await closed(socket);
      }
      await serves(service);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it("refuses a client past its share of the memory budget with 429, and serves every other client", async () => {
    const share = 64 * 1024;
    const service = await startService(transport, {
      TRUST_PROXY: "true",
      ANON_RATE_PER_MINUTE: "1000",
      MAX_INFLIGHT_BODY_BYTES: String(16 * share),
      MAX_CLIENT_INFLIGHT_BYTES: String(share),
      MIN_BODY_BYTES_PER_SECOND: "0",
    });
    try {
      const greedy = { "X-Forwarded-For": "198.51.100.1" };
      const holder = await openSocket(service.port);
      holder.on("error", () => undefined);
      holder.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Length": 4 * share, ...greedy }));
      holder.write(" ".repeat(share - 100));
      // Refused once the service holds the greedy client's bytes (a busy machine may take a while to read them).
      const refused = await vi.waitFor(async () => {
        const response = await post(service.url(VALIDATE), VALID_CATALOG, { ...JSON_HEADERS, ...greedy });
        expect(response.status).toBe(429);
        return response;
      }, { timeout: 60_000, interval: 100 });
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(((await refused.json()) as { code: string }).code).toBe("ERR_RATE_LIMITED");
      await serves(service, { "X-Forwarded-For": "198.51.100.2" });

      holder.destroy();
      // Served again once the service has seen the holder go and released its share.
      await vi.waitFor(async () => expect((await post(service.url(VALIDATE), VALID_CATALOG, { ...JSON_HEADERS, ...greedy })).status).toBe(200), { timeout: 60_000, interval: 100 });
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});
