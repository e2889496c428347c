// A rate-limit hit that Redis runs only after its caller gave up (the request was answered 503) must spend no budget:
// a private redis-server is frozen while a hit is in flight and resumed once the hit has been rejected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessServiceUnavailable, type RateWindow } from "../../runtime/access/contracts.js";
import { createRedisAccess } from "../../runtime/access/redis-access.js";
import { privateRedis, type PrivateRedis } from "./redis-fixtures.js";

const LIMIT = 30;
const MINUTE: RateWindow[] = [{ name: "minute", limit: LIMIT, windowSeconds: 60 }];

describe("a rate-limit hit answered as unavailable", () => {
  let server: PrivateRedis;

  beforeAll(async () => {
    server = await privateRedis();
    await server.start();
  });

  afterAll(async () => {
    server.resume();
    await server.kill();
  });

  it("is not counted when Redis runs it after the caller's timeout", async () => {
    const access = createRedisAccess(server.url, { commandTimeoutMs: 200, keyPrefix: "deadline:" });
    try {
      // A window that cannot roll over during the test: the counter's identity is the window's start.
      const nowMs = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
      expect((await access.keyLimiter.hit("subject", MINUTE, nowMs)).remaining).toBe(LIMIT - 1);

      server.pause();
      await expect(access.keyLimiter.hit("subject", MINUTE, nowMs)).rejects.toBeInstanceOf(AccessServiceUnavailable);
      server.resume();

      // Redis now runs the frozen hit before this one (same connection, in order): only this one may count.
      expect((await access.keyLimiter.hit("subject", MINUTE, nowMs)).remaining).toBe(LIMIT - 2);
    } finally {
      await access.close();
    }
  });
});
