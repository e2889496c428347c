// Store selection: with REDIS_URL, keys and key rate counters live in Redis (shared by every instance); without it, the
// embedded defaults (the key file and in-process counters). Anonymous counters are always in-process.
import { FileKeyStore } from "./file-key-store.js";
import { MemoryRateLimiter } from "./memory-rate-limiter.js";
import { createRedisAccess } from "./redis-access.js";
import type { KeyStore, RateLimiter } from "./contracts.js";

export interface AccessBackends {
  keyStore: KeyStore;
  keyLimiter: RateLimiter;
  anonymousLimiter: RateLimiter;
  /** Human-readable, for the start-up log line. */
  description: string;
  /** False when a required backend does not answer (drives GET /readyz). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export function createAccessBackends(settings: { keysFile: string; redisUrl: string | undefined; redisTimeoutMs: number }): AccessBackends {
  const anonymousLimiter = new MemoryRateLimiter();
  if (settings.redisUrl === undefined) {
    const keyStore = new FileKeyStore(settings.keysFile);
    const keyLimiter = new MemoryRateLimiter();
    return {
      keyStore,
      keyLimiter,
      anonymousLimiter,
      description: `embedded (key file ${settings.keysFile}, in-process counters)`,
      ready: () => Promise.resolve(true),
      close: async () => {
        await Promise.all([keyStore.close(), keyLimiter.close(), anonymousLimiter.close()]);
      },
    };
  }
  const redis = createRedisAccess(settings.redisUrl, { commandTimeoutMs: settings.redisTimeoutMs });
  return {
    keyStore: redis.keyStore,
    keyLimiter: redis.keyLimiter,
    anonymousLimiter,
    description: `redis (${new URL(settings.redisUrl).host}) for keys and key limits, in-process anonymous counters`,
    ready: () => redis.ping(),
    close: async () => {
      await Promise.all([redis.close(), anonymousLimiter.close()]);
    },
  };
}

/** The key store alone, selected the same way (for `oscal-keys`): Redis when REDIS_URL is set, else the key file. */
export function createKeyStore(settings: { keysFile: string; redisUrl: string | undefined; redisTimeoutMs: number }): { store: KeyStore; location: string } {
  if (settings.redisUrl === undefined) return { store: new FileKeyStore(settings.keysFile), location: settings.keysFile };
  const redis = createRedisAccess(settings.redisUrl, { commandTimeoutMs: settings.redisTimeoutMs });
  return { store: redis.keyStore, location: `redis ${new URL(settings.redisUrl).host}` };
}
