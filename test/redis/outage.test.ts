// Redis failing under a running service: a private redis-server is killed, frozen and restarted; the shared one is untouched.
// Failing fast is shown without timing it: against a Redis that is down or absent, calls reject even when the command
// timeout is longer than the test timeout, so they cannot be waiting for it; a frozen Redis is answered by the timeout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessServiceUnavailable, type RateWindow } from "../../runtime/access/contracts.js";
import { createRedisAccess } from "../../runtime/access/redis-access.js";
import { eventually, freePort, privateRedis, type PrivateRedis } from "./redis-fixtures.js";

const COMMAND_TIMEOUT_MS = 300;
/** Longer than any test may run: a call that rejects under it did not wait for the command timeout. */
const NEVER_MS = 3_600_000;
/** How long a restarted or resumed Redis may take to be used again: minutes, for a busy machine. */
const RECOVERY_MS = 120_000;
const MINUTE: RateWindow[] = [{ name: "minute", limit: 120, windowSeconds: 60 }];
const record = { id: "outage", sha256: "b".repeat(64), label: "outage", createdAt: "2026-01-01T00:00:00.000Z" };

async function expectUnavailable(call: () => Promise<unknown>): Promise<void> {
  await expect(call()).rejects.toBeInstanceOf(AccessServiceUnavailable);
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
    const access = createRedisAccess(server.url, { commandTimeoutMs: NEVER_MS, keyPrefix: "outage:" });
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
      for (const call of calls) await expectUnavailable(call);
      expect(await access.ping()).toBe(false);

      await server.start();
      await eventually(async () => expect(await access.ping()).toBe(true), RECOVERY_MS);
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
      // Rejected by the command timeout: not before it (a busy machine can only make the wait longer).
      const started = performance.now();
      await expectUnavailable(() => access.keyLimiter.hit("frozen", MINUTE, Date.now()));
      expect(performance.now() - started).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 10);
      expect(await access.ping()).toBe(false);
      server.resume();
      await eventually(async () => expect(await access.ping()).toBe(true), RECOVERY_MS);
      expect((await access.keyLimiter.hit("thawed", MINUTE, Date.now())).allowed).toBe(true);
    } finally {
      server.resume();
      await access.close();
    }
  });

  it("does not count a rate-limit hit that Redis runs only after the caller gave up on it", async () => {
    const limit = 30;
    const window: RateWindow[] = [{ name: "minute", limit, windowSeconds: 60 }];
    const access = createRedisAccess(server.url, { commandTimeoutMs: 200, keyPrefix: "deadline:" });
    try {
      // A window start the test fixes, so that the counter cannot roll over between the hits.
      const nowMs = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
      expect((await access.keyLimiter.hit("late", window, nowMs)).remaining).toBe(limit - 1);
      server.pause();
      await expectUnavailable(() => access.keyLimiter.hit("late", window, nowMs));
      server.resume();
      // Redis runs the frozen hit before this one (same connection, in order): only this one may count.
      expect((await access.keyLimiter.hit("late", window, nowMs)).remaining).toBe(limit - 2);
    } finally {
      server.resume();
      await access.close();
    }
  });

  it("can be created where nothing listens, rejects calls without waiting for the timeout and closes cleanly", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const access = createRedisAccess(url, { commandTimeoutMs: NEVER_MS });
    await expectUnavailable(() => access.keyStore.get("anything"));
    await expectUnavailable(() => access.keyLimiter.hit("anyone", MINUTE, Date.now()));
    expect(await access.ping()).toBe(false);
    await access.close();
    await expect(access.keyLimiter.close()).resolves.toBeUndefined();
    await expect(access.keyStore.get("anything")).rejects.toBeInstanceOf(AccessServiceUnavailable);
  });
});
