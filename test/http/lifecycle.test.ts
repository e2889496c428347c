// Graceful shutdown and privacy: a request in flight during SIGTERM completes and the process exits 0; nothing of any
// document ever reaches the service's output, whatever path the request takes.
import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { exchangeRaw, openSocket, readResponse, requestHead } from "./support/raw-http.js";
import { JSON_HEADERS, VALIDATE, VALID_CATALOG, catalog, post } from "./support/documents.js";
import { startService, TRANSPORTS } from "./support/service.js";

describe.each(TRANSPORTS)("lifecycle over %s", (transport) => {
  it("finishes a request in flight on SIGTERM, refuses new connections, and exits 0", async () => {
    // No minimum body rate: the body is finished only once the service refuses connections, however long that takes.
    const service = await startService(transport, { MIN_BODY_BYTES_PER_SECOND: "0" });
    const healthz = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    const socket = await openSocket(service.port);
    const answer = readResponse(socket);
    socket.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(VALID_CATALOG) }));
    socket.write(VALID_CATALOG.slice(0, 40));
    // Once a later request is answered, the service has read the head before it: the first request is in flight.
    expect((await exchangeRaw(service.port, healthz, 300_000))?.status).toBe(200);
    const exited = service.stop("SIGTERM");
    // New connections go unanswered once the service has seen the signal, however long a busy machine takes for it.
    const unanswered = (): Promise<boolean> => exchangeRaw(service.port, healthz, 300_000).then((response) => response === undefined, () => true);
    await vi.waitFor(async () => expect(await unanswered()).toBe(true), { timeout: 300_000, interval: 50 });
    socket.write(VALID_CATALOG.slice(40));
    const response = await answer;
    socket.destroy();
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).valid).toBe(true);
    expect(await exited).toBe(0);
    expect(service.output()).toContain('"event":"stopped","drained":true');
  });

  it("never writes document content to its output", async () => {
    const marker = `PRIVACY-MARKER-${Math.random().toString(36).slice(2)}`;
    const service = await startService(transport, { ANON_RATE_PER_MINUTE: "1000" });
    const send = (body: BodyInit, query = "", headers: Record<string, string> = JSON_HEADERS) => post(service.url(`${VALIDATE}${query}`), body, headers);
    const valid = JSON.stringify(catalog({ metadata: { title: marker, "last-modified": "2024-01-01T00:00:00Z", version: marker, "oscal-version": "1.2.2" } }));
    const invalid = JSON.stringify(catalog({ [marker]: marker, controls: [{ id: marker }] }));
    const statuses = [
      (await send(valid)).status,
      (await send(valid, "?level=full")).status,
      (await send(invalid)).status,
      (await send(gzipSync(invalid), "", { ...JSON_HEADERS, "Content-Encoding": "gzip" })).status,
      (await send(Buffer.from(`{"catalog": ${marker}}`))).status,
      (await send(Buffer.from(`{"${marker}": {}}`))).status,
      (await send(Buffer.concat([Buffer.from(`{"catalog":"${marker}`), Buffer.from([0xff]), Buffer.from('"}')]))).status,
      (await send(gzipSync(valid).subarray(0, 30), "", { ...JSON_HEADERS, "Content-Encoding": "gzip" })).status,
      (await send(valid, `?rules=${marker}&level=full`)).status,
      (await send(valid, "", { "Content-Type": `text/${marker}` })).status,
      (await send(valid, "", { ...JSON_HEADERS, Authorization: `Bearer ${marker}` })).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 200, 400, 400, 400, 400, 400, 415, 401]);
    // A client that vanishes mid-body.
    const socket = await openSocket(service.port);
    socket.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Length": 10_000 }));
    socket.write(valid);
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await service.stop()).toBe(0);
    expect(service.output()).toContain('"event":"listening"');
    expect(service.output()).not.toContain(marker);
  });
});
