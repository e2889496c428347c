// The API key format: `sk_oscal_<id>_<secret>`. The id (16 hex digits) finds the stored record; the secret is 32 random
// bytes in base64url. Only the SHA-256 of the whole key is stored, and comparison is constant-time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { ApiKeyRecord } from "./contracts.js";

export const KEY_PREFIX = "sk_oscal_";
const KEY_PATTERN = /^sk_oscal_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/;
export const KEY_ID_PATTERN = /^[0-9a-f]{16}$/;

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** A new key and the record to store; the key itself is never stored. */
export function createApiKey(label: string, now: Date = new Date()): { key: string; record: ApiKeyRecord } {
  const id = randomBytes(8).toString("hex");
  const key = `${KEY_PREFIX}${id}_${randomBytes(32).toString("base64url")}`;
  return { key, record: { id, sha256: hashApiKey(key), label, createdAt: now.toISOString() } };
}

/** The id part of a well-formed key, or undefined when the string cannot be a key. */
export function apiKeyId(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The stored record, when `value` is a complete one (as read from the key file or Redis); undefined otherwise. A store
 * that holds a malformed record cannot vouch for any key, so callers treat this as an outage, not as an unknown key.
 */
export function parseKeyRecord(value: unknown): ApiKeyRecord | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { id, sha256, label, createdAt, revokedAt } = value as Record<string, unknown>;
  if (typeof id !== "string" || id === "" || typeof sha256 !== "string" || !SHA256_HEX.test(sha256)) return undefined;
  if (typeof label !== "string" || typeof createdAt !== "string") return undefined;
  if (revokedAt === undefined || revokedAt === null) return { id, sha256, label, createdAt };
  return typeof revokedAt === "string" ? { id, sha256, label, createdAt, revokedAt } : undefined;
}

export function apiKeyMatches(key: string, record: ApiKeyRecord): boolean {
  const expected = Buffer.from(record.sha256, "hex");
  const actual = createHash("sha256").update(key).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
