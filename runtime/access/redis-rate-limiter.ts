// Key rate limits shared by every instance: one Lua script checks and counts a hit in all its windows on the Redis server,
// so instances racing on one key can never let more requests through than a window allows.
import type { Redis } from "ioredis";
import type { RateLimiter } from "./contracts.js";
import { decide, windowSpan } from "./rate-decision.js";
import type { RedisConnection } from "./redis-connection.js";

// KEYS[i]: the counter of window i. ARGV[2i-1]: its limit. ARGV[2i]: milliseconds until that window ends (its expiry).
// Every window is checked before any is counted, so a refused request spends no budget anywhere.
// Returns { 1 or 0 (allowed), count of window 1, count of window 2, ... }: counts after this hit when allowed, as found
// when refused.
const HIT_SCRIPT = `
local counts = {}
local allowed = 1
for i, key in ipairs(KEYS) do
  counts[i] = tonumber(redis.call('GET', key) or '0')
  if counts[i] >= tonumber(ARGV[2 * i - 1]) then allowed = 0 end
end
if allowed == 1 then
  for i, key in ipairs(KEYS) do
    counts[i] = redis.call('INCR', key)
    if counts[i] == 1 then redis.call('PEXPIRE', key, ARGV[2 * i]) end
  end
end
table.insert(counts, 1, allowed)
return counts
`;

interface HitCommand {
  oscalRateHit(numberOfKeys: number, ...keysThenArgs: (string | number)[]): Promise<number[]>;
}

/**
 * Windows are fixed and aligned to the Unix epoch (a day window runs from 00:00 UTC), computed from the caller's `nowMs`
 * by every instance alike; Redis only counts and expires.
 */
export function createRedisRateLimiter(connection: RedisConnection, keyPrefix: string): RateLimiter {
  connection.redis.defineCommand("oscalRateHit", { lua: HIT_SCRIPT });
  const redis = connection.redis as Redis & HitCommand;

  return {
    async hit(subject, windows, nowMs) {
      if (windows.length === 0) throw new RangeError("A rate-limited hit needs at least one window.");
      const spans = windows.map((window) => windowSpan(window, nowMs));
      const keys = windows.map((window, i) => `${keyPrefix}rate:${window.name}:${spans[i]!.startMs}:${subject}`);
      const args = windows.flatMap((window, i) => [window.limit, spans[i]!.endMs - nowMs]);
      const [allowed, ...counts] = await connection.run(() => redis.oscalRateHit(keys.length, ...keys, ...args));
      const states = windows.map((window, i) => ({
        limit: window.limit,
        remaining: window.limit - counts[i]!,
        resetSeconds: Math.ceil((spans[i]!.endMs - nowMs) / 1000),
      }));
      return decide(states, allowed === 1);
    },
    close: connection.close,
  };
}

