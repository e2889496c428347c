import { describe, expect, it } from "vitest";
import { apiKeyId, apiKeyMatches, createApiKey, hashApiKey } from "../../runtime/access/api-keys.js";

describe("API key format", () => {
  it("creates sk_oscal_ keys whose id finds the record and whose hash alone is stored", () => {
    const { key, record } = createApiKey("ci", new Date("2025-01-02T03:04:05Z"));
    expect(key).toMatch(/^sk_oscal_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(apiKeyId(key)).toBe(record.id);
    expect(record).toEqual({ id: record.id, sha256: hashApiKey(key), label: "ci", createdAt: "2025-01-02T03:04:05.000Z" });
    expect(JSON.stringify(record)).not.toContain(key.slice(26));
    expect(apiKeyMatches(key, record)).toBe(true);
  });

  it("never creates the same key twice", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => createApiKey("").key));
    expect(keys.size).toBe(1000);
  });

  it.each(["", "sk_oscal_", "sk_live_0123456789abcdef_" + "A".repeat(43), "sk_oscal_0123456789ABCDEF_" + "A".repeat(43), "sk_oscal_0123456789abcdef_" + "A".repeat(42), "sk_oscal_0123456789abcdef_" + "A".repeat(42) + "="])(
    "rejects the malformed key %j",
    (key) => expect(apiKeyId(key)).toBeUndefined(),
  );

  it("refuses a key whose secret differs", () => {
    const { key, record } = createApiKey("");
    expect(apiKeyMatches(`${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`, record)).toBe(false);
  });
});
