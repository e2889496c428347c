// Key rate limits shared by every instance: one Lua script checks and counts a hit in all its windows on the Redis server,
// so instances racing on one key can never let more requests through than a window allows.
import type { Redis } from "ioredis";
import { AccessServiceUnavailable, type RateLimiter } from "./contracts.js";
import { decide, windowSpan } from "./rate-decision.js";
import type { RedisConnection } from "./redis-connection.js";

// KEYS[i]: the counter of window i. ARGV[2i-1]: its limit. ARGV[2i]: milliseconds until that window ends (its expiry).
// ARGV[last]: the caller's deadline in the server's clock (milliseconds): a script that runs later (the server was
// frozen, paused for writes, or slow) counts nothing, since its caller has already answered the request as unavailable.
// Every window is checked before any is counted, so a refused request spends no budget anywhere.
// Returns { 1 or 0 (allowed), count of window 1, count of window 2, ... }: counts after this hit when allowed, as found
// when refused; { -1 } past the deadline.
const HIT_SCRIPT = `
local time = redis.call('TIME')
if tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) > tonumber(ARGV[#ARGV]) then return { -1 } end
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
  // The server's clock minus this process's, measured once per connection (a reconnect may reach another server).
  let clockOffset: Promise<number> | undefined;
  connection.redis.on("ready", () => (clockOffset = undefined));
  const serverDeadline = async (): Promise<number> => {
    clockOffset ??= connection.run(measureClockOffset).catch((error: unknown) => {
      clockOffset = undefined;
      throw error;
    });
    return Date.now() + (await clockOffset) + connection.commandTimeoutMs;
  };

  return {
    async hit(subject, windows, nowMs) {
      if (windows.length === 0) throw new RangeError("A rate-limited hit needs at least one window.");
      const spans = windows.map((window) => windowSpan(window, nowMs));
      const keys = windows.map((window, i) => `${keyPrefix}rate:${window.name}:${spans[i]!.startMs}:${subject}`);
      const args = windows.flatMap((window, i) => [window.limit, spans[i]!.endMs - nowMs]);
      const deadline = await serverDeadline();
      const [allowed, ...counts] = await connection.run(() => redis.oscalRateHit(keys.length, ...keys, ...args, deadline));
      if (allowed === -1) throw new AccessServiceUnavailable("Redis answered the rate-limit check too late.");
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

/** The server's clock minus this process's, in milliseconds, taken at the midpoint of one TIME round trip. */
async function measureClockOffset(redis: Redis): Promise<number> {
  const sentMs = Date.now();
  const [seconds, microseconds] = await redis.time();
  const serverMs = Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000);
  return serverMs - (sentMs + Date.now()) / 2;
}
