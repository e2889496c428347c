import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import type { RateWindow } from "../../runtime/access/contracts.js";
import { createRedisAccess } from "../../runtime/access/redis-access.js";
import { deleteKeysWithPrefix, SHARED_REDIS_URL, uniqueKeyPrefix } from "./redis-fixtures.js";

const keyPrefix = uniqueKeyPrefix("rate-limiter");
// Two access objects, two connections: two service instances sharing one key's budget.
const instanceA = createRedisAccess(SHARED_REDIS_URL, { keyPrefix });
const instanceB = createRedisAccess(SHARED_REDIS_URL, { keyPrefix });

afterAll(async () => {
  await Promise.all([instanceA.close(), instanceB.close()]);
  await deleteKeysWithPrefix(keyPrefix);
});

const MINUTE = 60;
const DAY = 24 * 60 * 60;
const KEY_WINDOWS: RateWindow[] = [
  { name: "minute", limit: 120, windowSeconds: MINUTE },
  { name: "day", limit: 10_000, windowSeconds: DAY },
];
/** Midnight UTC of a fixed day, so window boundaries are known. */
const DAY_START = Date.UTC(2026, 0, 15);

describe("Redis rate limiter", () => {
  it("lets exactly the limit through when two instances race on one key", async () => {
    const now = DAY_START + 10_000;
    const hits = Array.from({ length: 300 }, (_, i) =>
      (i % 2 === 0 ? instanceA : instanceB).keyLimiter.hit("race", KEY_WINDOWS, now),
    );
    const decisions = await Promise.all(hits);
    const allowed = decisions.filter((decision) => decision.allowed);
    const refused = decisions.filter((decision) => !decision.allowed);
    expect(allowed).toHaveLength(120);
    expect(refused).toHaveLength(180);
    // Every remaining value from 119 down to 0 was handed out exactly once.
    expect(allowed.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    for (const decision of refused) {
      expect(decision).toEqual({ allowed: false, limit: 120, remaining: 0, resetSeconds: 50, retryAfterSeconds: 50 });
    }
    // Refusals spent nothing: the day window counted only the 120 that went through.
    const raw = new Redis(SHARED_REDIS_URL);
    try {
      expect(await raw.get(`${keyPrefix}rate:day:${DAY_START}:race`)).toBe("120");
      expect(await raw.get(`${keyPrefix}rate:minute:${DAY_START}:race`)).toBe("120");
    } finally {
      await raw.quit();
    }
  });

  it("reports the window closest to exhaustion with its reset", async () => {
    const now = DAY_START + 30_250;
    expect(await instanceA.keyLimiter.hit("report", KEY_WINDOWS, now)).toEqual({
      allowed: true,
      limit: 120,
      remaining: 119,
      resetSeconds: 30,
    });
    const tightDay: RateWindow[] = [
      { name: "minute", limit: 120, windowSeconds: MINUTE },
      { name: "day", limit: 2, windowSeconds: DAY },
    ];
    expect(await instanceB.keyLimiter.hit("report-day", tightDay, now)).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      resetSeconds: DAY - 30,
    });
  });

  it("enforces a daily limit across the day and resets it the next day", async () => {
    const daily: RateWindow[] = [{ name: "day", limit: 5, windowSeconds: DAY }];
    const hour = 60 * 60 * 1000;
    for (let i = 0; i < 5; i++) {
      const decision = await (i % 2 ? instanceA : instanceB).keyLimiter.hit("daily", daily, DAY_START + i * hour);
      expect(decision).toEqual({ allowed: true, limit: 5, remaining: 4 - i, resetSeconds: DAY - i * 3600 });
    }
    const lateEvening = DAY_START + 23 * hour + 59 * 60 * 1000 + 30_000;
    expect(await instanceA.keyLimiter.hit("daily", daily, lateEvening)).toEqual({
      allowed: false,
      limit: 5,
      remaining: 0,
      resetSeconds: 30,
      retryAfterSeconds: 30,
    });
    const nextDay = DAY_START + 24 * hour + 1;
    expect(await instanceB.keyLimiter.hit("daily", daily, nextDay)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it("spends no budget in any window on a refused request", async () => {
    const windows: RateWindow[] = [
      { name: "minute", limit: 3, windowSeconds: MINUTE },
      { name: "day", limit: 5, windowSeconds: DAY },
    ];
    const minute = 60_000;
    const outcomes: boolean[] = [];
    // Three minutes of four hits each: the minute limit refuses some, and those must not count towards the day.
    for (let m = 0; m < 3; m++) {
      for (let i = 0; i < 4; i++) {
        outcomes.push((await instanceA.keyLimiter.hit("no-spend", windows, DAY_START + m * minute + i)).allowed);
      }
    }
    expect(outcomes).toEqual([true, true, true, false, true, true, false, false, false, false, false, false]);
    const refusedByDay = await instanceB.keyLimiter.hit("no-spend", windows, DAY_START + 3 * minute);
    expect(refusedByDay).toEqual({ allowed: false, limit: 5, remaining: 0, resetSeconds: DAY - 180, retryAfterSeconds: DAY - 180 });
  });

  it("when several windows are exhausted, retries after the one that resets last", async () => {
    const windows: RateWindow[] = [
      { name: "minute", limit: 1, windowSeconds: MINUTE },
      { name: "day", limit: 1, windowSeconds: DAY },
    ];
    await instanceA.keyLimiter.hit("both", windows, DAY_START);
    const refused = await instanceB.keyLimiter.hit("both", windows, DAY_START + 1000);
    expect(refused).toEqual({ allowed: false, limit: 1, remaining: 0, resetSeconds: DAY - 1, retryAfterSeconds: DAY - 1 });
  });

  it("sets counters to expire when their window ends", async () => {
    const now = Date.now();
    await instanceA.keyLimiter.hit("expiry", [{ name: "minute", limit: 10, windowSeconds: MINUTE }], now);
    const raw = new Redis(SHARED_REDIS_URL);
    try {
      const windowStart = Math.floor(now / 60_000) * 60_000;
      const ttl = await raw.pttl(`${keyPrefix}rate:minute:${windowStart}:expiry`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(windowStart + 60_000 - now);
    } finally {
      await raw.quit();
    }
  });

  it("needs at least one window", async () => {
    await expect(instanceA.keyLimiter.hit("none", [], Date.now())).rejects.toThrow(RangeError);
  });
});
