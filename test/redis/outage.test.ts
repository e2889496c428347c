// Redis failing under a running service: a private redis-server is killed, frozen and restarted; the shared one is untouched.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessServiceUnavailable, type RateWindow } from "../../runtime/access/contracts.js";
import { createRedisAccess } from "../../runtime/access/redis-access.js";
import { eventually, freePort, privateRedis, type PrivateRedis } from "./redis-fixtures.js";

const COMMAND_TIMEOUT_MS = 300;
const MINUTE: RateWindow[] = [{ name: "minute", limit: 120, windowSeconds: 60 }];
const record = { id: "outage", sha256: "b".repeat(64), label: "outage", createdAt: "2026-01-01T00:00:00.000Z" };

/** Resolves to how long `call` took to reject with AccessServiceUnavailable. */
async function rejectionTime(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await expect(call()).rejects.toBeInstanceOf(AccessServiceUnavailable);
  return performance.now() - started;
}

describe("Redis outage", () => {
  let server: PrivateRedis;

  beforeAll(async () => {
    server = await privateRedis();
    await server.start();
  });

  afterAll(async () => {
    server.resume();
    await server.kill();
  });

  it("fails fast while Redis is down and recovers with the same access object once it is back", async () => {
    const access = createRedisAccess(server.url, { commandTimeoutMs: COMMAND_TIMEOUT_MS, keyPrefix: "outage:" });
    try {
      await access.keyStore.add(record);
      expect((await access.keyLimiter.hit("outage", MINUTE, Date.now())).allowed).toBe(true);

      await server.kill();
      const calls = [
        () => access.keyStore.get("outage"),
        () => access.keyStore.list(),
        () => access.keyStore.add({ ...record, id: "other" }),
        () => access.keyStore.revoke("outage", "2026-02-01T00:00:00.000Z"),
        () => access.keyLimiter.hit("outage", MINUTE, Date.now()),
      ];
      for (const call of calls) expect(await rejectionTime(call)).toBeLessThan(1000);
      expect(await access.ping()).toBe(false);

      await server.start();
      await eventually(async () => expect(await access.ping()).toBe(true), 5000);
      // The private server keeps nothing across a restart, so the store is empty and the budget is whole again.
      expect(await access.keyStore.get("outage")).toBeUndefined();
      await access.keyStore.add(record);
      expect(await access.keyStore.list()).toEqual([record]);
      expect(await access.keyLimiter.hit("outage", MINUTE, Date.now())).toMatchObject({ allowed: true, remaining: 119 });
    } finally {
      await access.close();
    }
  });

  it("times out against a Redis that accepts connections but does not answer", async () => {
    const access = createRedisAccess(server.url, { commandTimeoutMs: COMMAND_TIMEOUT_MS, keyPrefix: "outage:" });
    try {
      expect(await access.ping()).toBe(true);
      server.pause();
      const elapsed = await rejectionTime(() => access.keyLimiter.hit("frozen", MINUTE, Date.now()));
      expect(elapsed).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 10);
      expect(elapsed).toBeLessThan(1000);
      expect(await access.ping()).toBe(false);
      server.resume();
      await eventually(async () => expect(await access.ping()).toBe(true), 5000);
      expect((await access.keyLimiter.hit("thawed", MINUTE, Date.now())).allowed).toBe(true);
    } finally {
      server.resume();
      await access.close();
    }
  });

  it("can be created where nothing listens, rejects calls quickly and closes cleanly", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const access = createRedisAccess(url, { commandTimeoutMs: COMMAND_TIMEOUT_MS });
    expect(await rejectionTime(() => access.keyStore.get("anything"))).toBeLessThan(1000);
    expect(await rejectionTime(() => access.keyLimiter.hit("anyone", MINUTE, Date.now()))).toBeLessThan(1000);
    expect(await access.ping()).toBe(false);
    await access.close();
    await expect(access.keyLimiter.close()).resolves.toBeUndefined();
    await expect(access.keyStore.get("anything")).rejects.toBeInstanceOf(AccessServiceUnavailable);
  });
});
