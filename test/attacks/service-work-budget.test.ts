// The work budget of one validation: a time limit and a heap limit per worker (past either the worker is replaced and
// the client gets 413), cancellation when the client leaves (so shutdown never waits on abandoned work), and a lane
// that keeps small documents flowing while many large ones queue. Uses legitimately slow documents: the SP 800-53
// catalog, and its groups six times over, at level=full. Nothing here depends on how fast the machine is: each service
// gets the limits its test needs, and order, not elapsed time, shows that small documents do not wait (the time limit
// itself is tested against a clock the test moves, in test/http/time-limits.test.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { corpusDir } from "../helpers/corpus.js";
import { VALIDATE, VALID_CATALOG, post } from "../http/support/documents.js";
import { openSocket, readResponse, requestHead, type RawResponse } from "../http/support/raw-http.js";
import { startService, TRANSPORTS, type TestService } from "../http/support/service.js";

/** A time limit no validation here comes near, for the services whose test is not about the time limit. */
const NO_TIME_LIMIT = { VALIDATION_TIMEOUT_MS: "3600000" };
const CATALOG_TEXT = readFileSync(path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json"), "utf8");
const CATALOG_GZIP = gzipSync(CATALOG_TEXT);
let largeCatalog: Uint8Array | undefined;
/**
 * The catalog's groups six times over (about 19 MB decoded, 2.4 MB gzip; invalid at level=full, its ids repeat): about a
 * third of a second to validate at level=full on a warm worker, and more heap to parse than a small worker heap holds.
 */
function largeCatalogGzip(): Uint8Array {
  if (largeCatalog !== undefined) return largeCatalog;
  const document = JSON.parse(CATALOG_TEXT) as { catalog: { groups: unknown[] } };
  const groups = document.catalog.groups;
  document.catalog.groups = Array.from({ length: 6 }, () => groups).flat();
  return (largeCatalog = gzipSync(JSON.stringify(document)));
}

/** Validations the service has completed (valid or invalid), from its metrics listener. */
async function completedCount(service: TestService): Promise<number> {
  const metricsPort = Number(/"metricsPort":(\d+)/.exec(service.output())![1]);
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  let total = 0;
  for (const match of text.matchAll(/^oscal_validations_total\{[^}]*outcome="(?:valid|invalid)"[^}]*\} (\d+)$/gm)) total += Number(match[1]);
  return total;
}
const GENEROUS = { ANON_RATE_PER_MINUTE: "100000", ANON_RATE_PER_DAY: "100000", MAX_CLIENT_INFLIGHT_BYTES: String(256 * 1024 * 1024) };

/** Sends the gzip catalog for level=full on its own connection; the socket stays open for the caller. */
async function sendCatalog(service: TestService, body: Uint8Array = CATALOG_GZIP): Promise<{ socket: Awaited<ReturnType<typeof openSocket>>; response: Promise<RawResponse> }> {
  const socket = await openSocket(service.port);
  socket.on("error", () => undefined);
  const response = readResponse(socket, 600_000);
  response.catch(() => undefined);
  socket.write(requestHead(`${VALIDATE}?level=full`, { "Content-Type": "application/json", "Content-Encoding": "gzip", "Content-Length": body.byteLength }));
  socket.write(body);
  return { socket, response };
}

async function servesSmall(service: TestService): Promise<void> {
  expect((await post(service.url(VALIDATE), VALID_CATALOG)).status).toBe(200);
}

describe.each(TRANSPORTS)("work budget over %s", (transport) => {
  it("answers 413 ERR_PAYLOAD_TOO_LARGE when a validation runs past VALIDATION_TIMEOUT_MS, and stays healthy", async () => {
    // A third of a second on a quiet machine, more on a busy one: always past 60 ms. No other validation is sent to this
    // service, since any would share the limit; that the replaced worker serves the next one is shown against a moved
    // clock in time-limits.test.ts.
    const body = largeCatalogGzip();
    const service = await startService(transport, { ...GENEROUS, WORKERS: "1", VALIDATION_TIMEOUT_MS: "60" });
    try {
      const { socket, response } = await sendCatalog(service, body);
      const answer = await response;
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ code: "ERR_PAYLOAD_TOO_LARGE", detail: expect.stringContaining("60 ms") });
      socket.destroy();
      expect((await fetch(service.url("/healthz"))).status).toBe(200);
      expect(service.output()).not.toContain("worker-failure");
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it("answers 413 when a validation needs more heap than WORKER_HEAP_MB, and replaces the worker", async () => {
    const body = largeCatalogGzip();
    const service = await startService(transport, { ...GENEROUS, ...NO_TIME_LIMIT, WORKERS: "1", WORKER_HEAP_MB: "32" });
    try {
      const { socket, response } = await sendCatalog(service, body);
      const answer = await response;
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ code: "ERR_PAYLOAD_TOO_LARGE", detail: expect.stringContaining("memory") });
      socket.destroy();
      await servesSmall(service);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it("drops the work of clients that have left, so it is never done and SIGTERM right after finds nothing in flight", async () => {
    // One worker and eight large catalogs at level=full: more than two seconds of work if it were not dropped. With no
    // shutdown grace at all, the service exits 0 only when no request is in flight when the signal comes.
    const body = largeCatalogGzip();
    const service = await startService(transport, { ...GENEROUS, ...NO_TIME_LIMIT, WORKERS: "1", METRICS_PORT: "0", SHUTDOWN_TIMEOUT_MS: "0" });
    const clients = await Promise.all(Array.from({ length: 8 }, () => sendCatalog(service, body)));
    await new Promise((resolve) => setTimeout(resolve, 800));
    for (const { socket } of clients) socket.destroy();
    await servesSmall(service);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // The small request, and the few catalogs done before their clients left (about one per third of a second on a quiet
    // machine, fewer on a busy one).
    expect(await completedCount(service)).toBeLessThanOrEqual(5);
    expect(await service.stop()).toBe(0);
  });

  it("keeps small documents flowing while many large ones queue", async () => {
    const service = await startService(transport, { ...GENEROUS, ...NO_TIME_LIMIT, WORKERS: "2" });
    try {
      // Sixteen catalogs at level=full are several seconds of work for the one worker large documents may take.
      const clients = await Promise.all(Array.from({ length: 16 }, () => sendCatalog(service)));
      let catalogsAnswered = 0;
      const answers = clients.map(({ response }) => response.then((answer) => (catalogsAnswered++, answer)));
      // Once one catalog is answered the others are queued behind it; small documents pass them all.
      await Promise.race(answers);
      await servesSmall(service);
      await servesSmall(service);
      expect(clients.length - catalogsAnswered).toBeGreaterThanOrEqual(4);
      for (const answer of answers) expect((await answer).status).toBe(200);
      for (const { socket } of clients) socket.destroy();
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});
