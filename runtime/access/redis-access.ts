// The Redis-backed access services: API keys and key rate limits shared by every instance that points at the same Redis.
import type { KeyStore, RateLimiter } from "./contracts.js";
import { createRedisConnection, DEFAULT_COMMAND_TIMEOUT_MS } from "./redis-connection.js";
import { createRedisKeyStore } from "./redis-key-store.js";
import { createRedisRateLimiter } from "./redis-rate-limiter.js";

export interface RedisAccessOptions {
  /** How long a call may wait for Redis before it rejects with AccessServiceUnavailable. */
  commandTimeoutMs?: number;
  /** Prepended to every Redis key, so several deployments (or test runs) can share one server. */
  keyPrefix?: string;
}

export interface RedisAccess {
  keyStore: KeyStore;
  keyLimiter: RateLimiter;
  /** True when Redis answers in time; never rejects. */
  ping(): Promise<boolean>;
  /** Closes the one connection the store and the limiter share; closing either of them does the same. */
  close(): Promise<void>;
}

/** Never throws and never waits: the connection is made in the background and re-made after any outage. */
export function createRedisAccess(url: string, options: RedisAccessOptions = {}): RedisAccess {
  const connection = createRedisConnection(url, options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS);
  const keyPrefix = options.keyPrefix ?? "oscal:";
  return {
    keyStore: createRedisKeyStore(connection, keyPrefix),
    keyLimiter: createRedisRateLimiter(connection, keyPrefix),
    ping: connection.ping,
    close: connection.close,
  };
}
