// Where API keys live (a key file, or Redis): the same settings for the service and for `oscal-keys`.
import { resolve } from "node:path";
import { SettingsReader } from "../settings-reader.js";

export interface KeyStoreSettings {
  keysFile: string;
  redisUrl: string | undefined;
  redisTimeoutMs: number;
}

export function readKeyStoreSettings(reader: SettingsReader, defaultRedisTimeoutMs: number): KeyStoreSettings {
  const redisUrl = reader.env.REDIS_URL?.trim() || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) reader.problems.push("REDIS_URL: expected a redis:// or rediss:// URL");
  return {
    keysFile: resolve(reader.env.KEYS_FILE ?? "./.data/keys.json"),
    redisUrl,
    redisTimeoutMs: reader.integer("REDIS_TIMEOUT_MS", defaultRedisTimeoutMs, 1, 60_000),
  };
}

/** The key store's settings alone, for `oscal-keys`; a bad one throws a ConfigError listing every problem. */
export function keyStoreSettings(env: NodeJS.ProcessEnv, defaultRedisTimeoutMs: number): KeyStoreSettings {
  const reader = new SettingsReader(env);
  const settings = readKeyStoreSettings(reader, defaultRedisTimeoutMs);
  reader.throwIfProblems();
  return settings;
}
