import { afterEach, describe, expect, it } from "vitest";
import { MemoryRateLimiter } from "../../runtime/access/memory-rate-limiter.js";

const WINDOWS = [
  { name: "minute", limit: 2, windowSeconds: 60 },
  { name: "day", limit: 3, windowSeconds: 86_400 },
];
const DAY_START = Date.UTC(2025, 0, 1);

describe("MemoryRateLimiter", () => {
  const limiter = new MemoryRateLimiter();
  afterEach(() => limiter.close());

  it("reports the window closest to exhaustion and refuses without counting", async () => {
    const at = DAY_START + 10_000;
    expect(await limiter.hit("a", WINDOWS, at)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 50 });
    expect(await limiter.hit("a", WINDOWS, at)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 50 });
    expect(await limiter.hit("a", WINDOWS, at + 1000)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 49, retryAfterSeconds: 49 });
    expect(await limiter.hit("b", WINDOWS, at)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it("resets a window when it ends, and lets the day window bind afterwards", async () => {
    const at = DAY_START + 10_000;
    await limiter.hit("c", WINDOWS, at);
    await limiter.hit("c", WINDOWS, at);
    const nextMinute = DAY_START + 60_000;
    expect(await limiter.hit("c", WINDOWS, nextMinute)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 86_340 });
    expect(await limiter.hit("c", WINDOWS, nextMinute + 1)).toMatchObject({ allowed: false, limit: 3, retryAfterSeconds: 86_340 });
  });
});
