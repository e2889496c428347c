import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { AccessServiceUnavailable, type ApiKeyRecord } from "../../runtime/access/contracts.js";
import { createRedisAccess } from "../../runtime/access/redis-access.js";
import { deleteKeysWithPrefix, SHARED_REDIS_URL, uniqueKeyPrefix } from "./redis-fixtures.js";

const keyPrefix = uniqueKeyPrefix("key-store");
const access = createRedisAccess(SHARED_REDIS_URL, { keyPrefix });
const store = access.keyStore;

afterAll(async () => {
  await access.close();
  await deleteKeysWithPrefix(keyPrefix);
});

function record(id: string, createdAt: string): ApiKeyRecord {
  return { id, sha256: "a".repeat(64), label: `label of ${id}`, createdAt };
}

describe("Redis key store", () => {
  it("answers a call made right after creation, once the connection is up", async () => {
    const fresh = createRedisAccess(SHARED_REDIS_URL, { keyPrefix });
    try {
      await expect(fresh.keyStore.get("nothing")).resolves.toBeUndefined();
      await expect(fresh.ping()).resolves.toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it("adds and gets a record, and refuses to add an id twice", async () => {
    const added = record("k1", "2026-01-01T00:00:00.000Z");
    await store.add(added);
    expect(await store.get("k1")).toEqual(added);
    expect(await store.get("missing")).toBeUndefined();
    await expect(store.add({ ...added, label: "replacement" })).rejects.toThrow(/already exists/);
    expect(await store.get("k1")).toEqual(added);
  });

  it("revokes once, keeps the first revocation time, and reports unknown ids", async () => {
    await store.add(record("k2", "2026-01-02T00:00:00.000Z"));
    expect(await store.revoke("k2", "2026-02-01T00:00:00.000Z")).toBe(true);
    expect(await store.revoke("k2", "2026-03-01T00:00:00.000Z")).toBe(true);
    expect((await store.get("k2"))?.revokedAt).toBe("2026-02-01T00:00:00.000Z");
    expect(await store.revoke("never-added", "2026-02-01T00:00:00.000Z")).toBe(false);
    expect(await store.get("never-added")).toBeUndefined();
  });

  it("lists only complete records, oldest first, whatever else lives under the prefix", async () => {
    // Its own prefix (still under the file's, for clean-up), so the listing does not depend on the other tests.
    const listingPrefix = `${keyPrefix}listing:`;
    const listing = createRedisAccess(SHARED_REDIS_URL, { keyPrefix: listingPrefix });
    const raw = new Redis(SHARED_REDIS_URL);
    try {
      await listing.keyStore.add(record("b", "2026-01-02T00:00:00.000Z"));
      await listing.keyStore.add(record("a", "2026-01-01T00:00:00.000Z"));
      await listing.keyStore.add(record("c", "2026-01-02T00:00:00.000Z"));
      await listing.keyStore.revoke("c", "2026-02-01T00:00:00.000Z");
      await listing.keyLimiter.hit("a", [{ name: "minute", limit: 120, windowSeconds: 60 }], Date.now());
      // An id left in the index without its record (as after a manual deletion) is skipped, not returned half-empty.
      await raw.sadd(`${listingPrefix}apikeys`, "orphan");

      const listed = await listing.keyStore.list();
      expect(listed).toEqual([
        record("a", "2026-01-01T00:00:00.000Z"),
        record("b", "2026-01-02T00:00:00.000Z"),
        { ...record("c", "2026-01-02T00:00:00.000Z"), revokedAt: "2026-02-01T00:00:00.000Z" },
      ]);
    } finally {
      await raw.quit();
      await listing.close();
    }
  });

  it("reports a malformed stored record as unavailable rather than as an unknown key", async () => {
    const raw = new Redis(SHARED_REDIS_URL);
    try {
      await raw.hset(`${keyPrefix}apikey:broken`, { id: "broken", sha256: "not-a-hash", label: "", createdAt: "2026-01-01T00:00:00.000Z" });
      await raw.hset(`${keyPrefix}apikey:partial`, { id: "partial", label: "" });
      await expect(store.get("broken")).rejects.toBeInstanceOf(AccessServiceUnavailable);
      await expect(store.get("partial")).rejects.toBeInstanceOf(AccessServiceUnavailable);
      expect(await store.get("absent")).toBeUndefined();
    } finally {
      await raw.del(`${keyPrefix}apikey:broken`, `${keyPrefix}apikey:partial`);
      await raw.quit();
    }
  });

  it("lists nothing when no key was ever added", async () => {
    const empty = createRedisAccess(SHARED_REDIS_URL, { keyPrefix: `${keyPrefix}empty:` });
    try {
      expect(await empty.keyStore.list()).toEqual([]);
    } finally {
      await empty.close();
    }
  });

  it("stores only the record fields, never a secret a caller passed along by mistake", async () => {
    const secret = "sk_oscal_k4_THISMUSTNEVERBESTORED";
    await store.add({ ...record("k4", "2026-01-04T00:00:00.000Z"), secret } as ApiKeyRecord);
    const raw = new Redis(SHARED_REDIS_URL);
    try {
      const stored = await raw.hgetall(`${keyPrefix}apikey:k4`);
      expect(Object.keys(stored).sort()).toEqual(["createdAt", "id", "label", "sha256"]);
      expect(JSON.stringify(stored)).not.toContain(secret);
    } finally {
      await raw.quit();
    }
  });
});
