// What a hostile or merely old client does on the wire, on both transports: a request refused for its framing ends its
// connection (nothing sent after it runs), HTTP/1.0 clients and malformed heads are answered on the default transport,
// a second server cannot share a port in use, and a slow validation is answered rather than reset by the idle timer.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NodeHttpServer } from "../../runtime/http/adapters/node.js";
import type { OutgoingResponse, RequestHandler } from "../../runtime/http/transport.js";
import { freePort } from "../redis/redis-fixtures.js";
import { VALIDATE, VALID_CATALOG } from "./support/documents.js";
import { startService, TRANSPORTS, type TestService } from "./support/service.js";

/** Longer than any idle timeout of either transport: a server that leaves a client hanging closes by then. */
const CLOSE_WAIT_MS = 15_000;

/** Sends `payload` on a new connection and returns everything the server wrote until it closed the connection. */
function exchangeUntilClose(port: number, payload: string): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = "";
    const socket = connect(port, "127.0.0.1", () => socket.write(payload));
    const timer = setTimeout(() => finish(false), CLOSE_WAIT_MS);
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => finish(true));
  });
}

const statusLines = (text: string): string[] => text.split("\r\n").filter((line) => /^HTTP\/1\.[01] \d{3}/.test(line));

function validatePost(extraHeaders = "", version = "HTTP/1.1"): string {
  return `POST ${VALIDATE} ${version}\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(VALID_CATALOG)}\r\n${extraHeaders}\r\n${VALID_CATALOG}`;
}

describe.each(TRANSPORTS)("a request refused for its framing, over %s", (transport) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(transport, { ANON_RATE_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    expect(await service.stop()).toBe(0);
  });

  const badFraming = `POST ${VALIDATE} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n`;

  it("is answered 400 and its connection closed", async () => {
    const { text, closed } = await exchangeUntilClose(service.port, badFraming);
    expect(statusLines(text)).toEqual(["HTTP/1.1 400 Bad Request"]);
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(closed).toBe(true);
  });

  it("runs nothing sent after it on the same connection", async () => {
    const { text, closed } = await exchangeUntilClose(service.port, badFraming + validatePost());
    expect(statusLines(text).filter((line) => !line.includes(" 400 "))).toEqual([]);
    expect(text).not.toContain('"valid"');
    expect(closed).toBe(true);
  });
});

describe("the default transport", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService("node", { TRANSPORT: "", ANON_RATE_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    expect(await service.stop()).toBe(0);
  });

  it("is node:http", () => {
    expect(service.output()).toContain('"transport":"node:http"');
  });

  it("says at start-up which address its links carry when PUBLIC_BASE_URL is not set", () => {
    expect(service.output()).toContain(`"event":"public-base-url-unset","detail":"PUBLIC_BASE_URL is not set: the links in answers (problem types, rule documentation) carry http://localhost:${service.port}.`);
  });

  it.each([
    ["an HTTP/1.0 GET", "GET /healthz HTTP/1.0\r\n\r\n", 200],
    ["an HTTP/1.0 validate request", validatePost("", "HTTP/1.0"), 200],
    ["a folded header line", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", 400],
    ["bare line feeds", "GET /healthz HTTP/1.1\nHost: x\n\n", 400],
    ["a space before the colon", "GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n", 400],
    ["a NUL in a value", "GET /healthz HTTP/1.1\r\nHost: x\0y\r\n\r\n", 400],
    ["a bare carriage return in a value", "GET /healthz HTTP/1.1\r\nHost: x\ry\r\n\r\n", 400],
  ])("answers %s", async (_name, payload, status) => {
    const { text, closed } = await exchangeUntilClose(service.port, payload);
    expect(statusLines(text)[0]).toMatch(new RegExp(`^HTTP/1\\.[01] ${status} `));
    expect(closed).toBe(true);
  });
});

describe.each(TRANSPORTS)("a second server on a port in use, over %s", (transport) => {
  it("fails to start instead of sharing the port", async () => {
    // A port chosen by the kernel (PORT=0) is never shared; a port named in the settings is what two versions would share.
    const first = await startService(transport, { PORT: String(await freePort()) });
    try {
      await expect(startService(transport, { PORT: String(first.port) })).rejects.toThrow(/exited with 1/);
      expect((await fetch(first.url("/healthz"))).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  });
});

describe("node:http with an answer that takes longer than the idle timeout", () => {
  it("answers instead of resetting the connection", async () => {
    const idleTimeoutMs = 100;
    const answer: OutgoingResponse = { status: 200, headers: ["Content-Type", "application/json"], body: '{"valid":true}' };
    // The answer is given only after several idle periods have passed with the client silent, waiting for it.
    const handler: RequestHandler = {
      begin: () => ({
        kind: "stream",
        sink: { write() {}, end() {}, abort() {}, response: new Promise((resolve) => setTimeout(() => resolve(answer), idleTimeoutMs * 8)) },
      }),
      unparsable: () => answer,
    };
    const server = new NodeHttpServer(handler, { maxConnections: 100, responseStallMs: 10_000 }, idleTimeoutMs);
    const port = await server.listen("127.0.0.1", 0);
    try {
      const response = await fetch(`http://127.0.0.1:${port}${VALIDATE}`, { method: "POST", body: VALID_CATALOG });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('{"valid":true}');
    } finally {
      server.stopAccepting();
      await server.close();
    }
  });
});
