// Both adapters write a large answer only as fast as the client reads it: a reader gets every byte intact, and a reader
// that stops is disconnected after the stall limit, with the answer's memory released (onSettled). The disconnection is
// asserted, not its timing: a busy machine only delays it, and the test timeout bounds the wait.
import { createHash, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NodeHttpServer } from "../../runtime/http/adapters/node.js";
import { UwsServer } from "../../runtime/http/adapters/uws.js";
import type { OutgoingResponse, RequestHandler, TransportServer } from "../../runtime/http/transport.js";
import { closed, openSocket } from "./support/raw-http.js";

const ANSWER = randomBytes(24 * 1024 * 1024);
/** The stall limit of the test whose client stops reading: short, since a busy machine only makes the stall longer. */
const STALL_MS = 300;
/** The stall limit of the test whose client reads: one no pause of a busy machine comes near. */
const NO_STALL_LIMIT_MS = 600_000;

type MakeServer = (handler: RequestHandler, responseStallMs: number) => TransportServer;

function serve(make: MakeServer, responseStallMs: number, settled: () => void): TransportServer {
  const answer = (): OutgoingResponse => ({ status: 200, headers: ["Content-Type", "application/octet-stream"], body: ANSWER, onSettled: settled });
  return make({ begin: () => ({ kind: "respond", response: answer() }), unparsable: answer }, responseStallMs);
}

const ADAPTERS: (readonly [string, MakeServer])[] = [
  ["uws", (handler, responseStallMs) => new UwsServer(handler, { maxConnections: 1000, responseStallMs })],
  ["node", (handler, responseStallMs) => new NodeHttpServer(handler, { maxConnections: 1000, responseStallMs })],
];

describe.each(ADAPTERS)("answers under backpressure over %s", (_, make) => {
  let server: TransportServer | undefined;
  afterEach(async () => {
    server?.stopAccepting();
    await server?.close();
  });

  it("delivers a large answer intact to a client that reads it", async () => {
    let settled = 0;
    server = serve(make, NO_STALL_LIMIT_MS, () => settled++);
    const port = await server.listen("127.0.0.1", 0);
    const response = await fetch(`http://127.0.0.1:${port}/`);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.byteLength).toBe(ANSWER.byteLength);
    expect(createHash("sha256").update(body).digest("hex")).toBe(createHash("sha256").update(ANSWER).digest("hex"));
    // The server learns that its last write was flushed a moment after the client has read it.
    await vi.waitFor(() => expect(settled).toBe(1), { timeout: 60_000 });
  });

  it("disconnects a client that stops reading, and releases the answer", async () => {
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    server = serve(make, STALL_MS, () => settle());
    const port = await server.listen("127.0.0.1", 0);
    const socket = await openSocket(port);
    socket.on("error", () => undefined);
    socket.pause();
    socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await settled;
    // A paused socket notices nothing; once it reads again it finds the connection closed before the answer's end.
    let received = 0;
    socket.on("data", (chunk: Buffer) => (received += chunk.byteLength));
    socket.resume();
    await closed(socket);
    expect(received).toBeLessThan(ANSWER.byteLength);
  });
});
