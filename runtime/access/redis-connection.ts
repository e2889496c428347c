// The one Redis connection behind the key store and the key rate limiter, and the failure rule both rely on: a call is
// answered within a short timeout or rejected with AccessServiceUnavailable, and the connection heals by itself.
import { Redis, ReplyError } from "ioredis";
import { AccessServiceUnavailable } from "./contracts.js";

export const DEFAULT_COMMAND_TIMEOUT_MS = 500;

/** Longest pause between reconnection attempts, so a Redis that is back is used again within about a second. */
const MAX_RECONNECT_DELAY_MS = 1000;

// Replies that mean "not now" rather than "wrong": a server still loading its data, busy with a script, or a cut-off replica.
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN)\b/;

export interface RedisConnection {
  /** For defining scripts once; commands go through run(). */
  readonly redis: Redis;
  /** How long a call waits for an answer before it is given up as unavailable. */
  readonly commandTimeoutMs: number;
  /**
   * Runs `command` once the connection is usable. Any failure to get an answer (down, timed out, transient reply) becomes
   * AccessServiceUnavailable; `command` must therefore only talk to Redis, and callers raise their own errors outside it.
   */
  run<T>(command: (redis: Redis) => Promise<T>): Promise<T>;
  /** True when Redis answers in time; never rejects. */
  ping(): Promise<boolean>;
  /** Idempotent: the store and the limiter share this connection and may both close it. */
  close(): Promise<void>;
}

export function createRedisConnection(url: string, commandTimeoutMs: number): RedisConnection {
  // Connects in the background: creating the connection never fails, whether or not Redis is up.
  const redis = new Redis(url, {
    commandTimeout: commandTimeoutMs,
    connectTimeout: commandTimeoutMs,
    // While disconnected, commands fail at once instead of queueing; no command is replayed after a reconnect, because
    // its caller has already been told the service is unavailable (a replayed rate-limit hit would spend budget twice).
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, MAX_RECONNECT_DELAY_MS),
  });
  // Connection errors reach callers as AccessServiceUnavailable and operators through ping(); without a listener ioredis
  // would print every failed reconnection attempt.
  redis.on("error", () => {});

  const attempts = connectionAttempts(redis);
  let closing: Promise<void> | undefined;

  async function run<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
    try {
      await attempts.untilReady(commandTimeoutMs);
      return await command(redis);
    } catch (error) {
      throw asAccessError(error);
    }
  }

  return {
    redis,
    commandTimeoutMs,
    run,
    ping: () => run((client) => client.ping()).then(() => true, () => false),
    close: () => (closing ??= quit(redis)),
  };
}

function connectionAttempts(redis: Redis): { untilReady(timeoutMs: number): Promise<void> } {
  // One shared promise per connection attempt, so a burst of calls at start-up does not pile listeners onto the client.
  let attempt: Promise<void> | undefined;

  function currentAttempt(): Promise<void> {
    attempt ??= new Promise<void>((resolve, reject) => {
      const settle = () => {
        attempt = undefined;
        redis.off("ready", onReady);
        redis.off("close", onClose);
      };
      const onReady = () => {
        settle();
        resolve();
      };
      const onClose = () => {
        settle();
        reject(new AccessServiceUnavailable("Could not connect to Redis."));
      };
      redis.once("ready", onReady);
      redis.once("close", onClose);
    });
    return attempt;
  }

  return {
    untilReady(timeoutMs) {
      if (redis.status === "ready") return Promise.resolve();
      // Only an attempt in progress (start-up, or a retry connecting right now) is worth waiting for; between retries Redis
      // is known to be gone, and the call fails at once rather than holding a request.
      if (redis.status !== "connecting" && redis.status !== "connect") {
        return Promise.reject(new AccessServiceUnavailable("Redis is not connected."));
      }
      return withTimeout(currentAttempt(), timeoutMs);
    },
  };
}

function withTimeout(promise: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AccessServiceUnavailable("Timed out connecting to Redis.")), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function asAccessError(error: unknown): unknown {
  if (error instanceof AccessServiceUnavailable) return error;
  // A rejected command or script is a bug to surface as such, not an outage.
  if (error instanceof ReplyError && !TRANSIENT_REPLY.test((error as Error).message)) return error;
  return new AccessServiceUnavailable("Redis is unavailable.", { cause: error });
}

async function quit(redis: Redis): Promise<void> {
  if (redis.status === "ready") {
    try {
      await redis.quit();
      return;
    } catch {
      // Fall through: Redis went away while quitting.
    }
  }
  redis.disconnect();
}
