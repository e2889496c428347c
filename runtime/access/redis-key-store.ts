// API key records in Redis, shared by every instance: one hash per key and a set of ids, so list() needs no key scan.
// Only the fields of ApiKeyRecord are written, so nothing but a key's SHA-256 ever reaches Redis.
import type { Redis } from "ioredis";
import { parseKeyRecord } from "./api-keys.js";
import { AccessServiceUnavailable, type ApiKeyRecord, type KeyStore } from "./contracts.js";
import type { RedisConnection } from "./redis-connection.js";

// KEYS[1]: the record hash, KEYS[2]: the id set. ARGV[1]: the id, then field/value pairs. Returns 0 if the id exists,
// so adding can never overwrite (and thereby un-revoke) a key.
const ADD_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('SADD', KEYS[2], ARGV[1])
return 1
`;

// KEYS[1]: the record hash. ARGV[1]: the revocation time. Returns 0 if there is no such key. A second revocation keeps the
// first time.
const REVOKE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSETNX', KEYS[1], 'revokedAt', ARGV[1])
return 1
`;

interface KeyCommands {
  oscalKeyAdd(record: string, index: string, id: string, ...fieldsAndValues: string[]): Promise<number>;
  oscalKeyRevoke(record: string, at: string): Promise<number>;
}

export function createRedisKeyStore(connection: RedisConnection, keyPrefix: string): KeyStore {
  connection.redis.defineCommand("oscalKeyAdd", { lua: ADD_SCRIPT, numberOfKeys: 2 });
  connection.redis.defineCommand("oscalKeyRevoke", { lua: REVOKE_SCRIPT, numberOfKeys: 1 });
  const redis = connection.redis as Redis & KeyCommands;
  const indexKey = `${keyPrefix}apikeys`;
  const recordKey = (id: string) => `${keyPrefix}apikey:${id}`;

  return {
    async add(record) {
      const added = await connection.run(() => redis.oscalKeyAdd(recordKey(record.id), indexKey, record.id, ...toFields(record)));
      if (added === 0) throw new Error(`An API key with id "${record.id}" already exists.`);
    },

    async get(id) {
      return toRecord(await connection.run(() => redis.hgetall(recordKey(id))));
    },

    async list() {
      const ids = await connection.run(() => redis.smembers(indexKey));
      if (ids.length === 0) return [];
      const hashes = await connection.run(async () => {
        const replies = await redis.pipeline(ids.map((id) => ["hgetall", recordKey(id)])).exec();
        return (replies ?? []).map(([error, fields]) => {
          if (error) throw error;
          return fields as Record<string, string>;
        });
      });
      return hashes
        .map(toRecord)
        .filter((record) => record !== undefined)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },

    async revoke(id, at) {
      return (await connection.run(() => redis.oscalKeyRevoke(recordKey(id), at))) === 1;
    },

    close: connection.close,
  };
}

function toFields(record: ApiKeyRecord): string[] {
  const fields = ["id", record.id, "sha256", record.sha256, "label", record.label, "createdAt", record.createdAt];
  if (record.revokedAt !== undefined) fields.push("revokedAt", record.revokedAt);
  return fields;
}

/** Undefined for a missing hash (HGETALL answers {}); a hash that is not a complete record is an outage, not an unknown key. */
function toRecord(fields: Record<string, string>): ApiKeyRecord | undefined {
  if (Object.keys(fields).length === 0) return undefined;
  const record = parseKeyRecord(fields);
  if (record === undefined) throw new AccessServiceUnavailable("A stored API key record is malformed.");
  return record;
}
