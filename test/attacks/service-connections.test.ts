// Connections that hold descriptors or answers: past MAX_CONNECTIONS new connections are refused (the event loop does not
// spin on a listener it cannot accept from) and accepted again once some close; clients that pipeline requests and
// never read their answers cost the service a bounded amount of memory.
import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { openSocket } from "../http/support/raw-http.js";
import { startService, TRANSPORTS, type TestService } from "../http/support/service.js";

/** How long a probe of a service at its connection cap waits for an answer before counting it as not served. */
const CAPPED_PROBE_MS = 2_000;

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function residentMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

/** True when the service answers /healthz within `waitMs`. */
async function healthy(service: TestService, waitMs: number): Promise<boolean> {
  try {
    return (await fetch(service.url("/healthz"), { signal: AbortSignal.timeout(waitMs) })).status === 200;
  } catch {
    return false;
  }
}

async function openMany(service: TestService, count: number): Promise<Socket[]> {
  const sockets = await Promise.all(Array.from({ length: count }, () => openSocket(service.port).catch(() => undefined)));
  const open = sockets.filter((socket): socket is Socket => socket !== undefined);
  for (const socket of open) socket.on("error", () => undefined);
  return open;
}

/** At the cap the event loop idles (it does not spin on refused connections), and once the holders go it serves again. */
async function expectCalmThenServing(service: TestService, held: readonly Socket[]): Promise<void> {
  const before = cpuSeconds(service.child.pid!);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(cpuSeconds(service.child.pid!) - before).toBeLessThan(0.5);

  // Served again once the service has seen the holders go: however long a busy machine takes, within the test timeout.
  for (const socket of held) socket.destroy();
  while (!(await healthy(service, CAPPED_PROBE_MS)));
}

describe.each(TRANSPORTS)("connection attacks over %s", (transport) => {
  it("refuses connections past MAX_CONNECTIONS without spinning, and accepts again once they close", async () => {
    const service = await startService(transport, { MAX_CONNECTIONS: "64" });
    try {
      // node:http closes each connection past the cap as it is accepted; uWebSockets.js stops accepting within a tenth of
      // a second, so a burst may overshoot the cap by what arrives in that time: the connections come in batches.
      const held: Socket[] = [];
      for (let batch = 0; batch < 10; batch++) {
        held.push(...(await openMany(service, 16)));
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const stillOpen = held.filter((socket) => !socket.destroyed);
      expect(stillOpen.length).toBeLessThanOrEqual(64 + 16);
      expect(await healthy(service, CAPPED_PROBE_MS)).toBe(false);

      await expectCalmThenServing(service, held);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it("stays responsive near the open-file limit: the default cap keeps connections below it", async () => {
    // Under `ulimit -n 400` the default cap is 400 - 256 = 144 connections.
    const service = await startService(transport, {}, { openFileLimit: 400 });
    try {
      expect(service.output()).toContain('"maxConnections":144');
      const held: Socket[] = [];
      for (let batch = 0; batch < 20; batch++) {
        held.push(...(await openMany(service, 25)));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(held.filter((socket) => !socket.destroyed).length).toBeLessThanOrEqual(144 + 25);
      await expectCalmThenServing(service, held);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it("holds little memory for clients that pipeline requests and never read the answers", async () => {
    const service = await startService(transport, { RESPONSE_STALL_MS: "500" });
    try {
      const before = residentMiB(service.child.pid!);
      // Ten clients asking for 3,000 copies of the OpenAPI document each: about 850 MB of answers nobody reads.
      const clients = await openMany(service, 10);
      for (const socket of clients) {
        socket.pause();
        socket.write("GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(3_000));
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(residentMiB(service.child.pid!) - before).toBeLessThan(200);
      expect((await fetch(service.url("/healthz"))).status).toBe(200);
      for (const socket of clients) socket.destroy();
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});
