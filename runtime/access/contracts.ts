// The seams between the HTTP layer and whatever stores API keys and counts requests: an embedded default (a local file
// and in-process counters) and a Redis implementation shared by many instances sit behind the same interfaces.

/** What is stored of a key: never the secret, only its SHA-256. */
export interface ApiKeyRecord {
  /** Public identifier, part of the key itself, used to find the record. */
  id: string;
  /** Hex SHA-256 of the full key string. */
  sha256: string;
  label: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601; present once revoked. */
  revokedAt?: string;
}

export interface KeyStore {
  add(record: ApiKeyRecord): Promise<void>;
  get(id: string): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** False when there is no such key. */
  revoke(id: string, at: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface RateWindow {
  /** "minute" or "day": part of the counter's identity. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Of the window closest to exhaustion. */
  limit: number;
  remaining: number;
  /** Seconds until that window resets. */
  resetSeconds: number;
  /** When refused: seconds until a request can succeed. */
  retryAfterSeconds?: number;
}

export interface RateLimiter {
  /** Counts one request of `subject` in every window, atomically, and says whether it may proceed. */
  hit(subject: string, windows: readonly RateWindow[], nowMs: number): Promise<RateDecision>;
  close(): Promise<void>;
}

/** Raised by a store or limiter that cannot answer now (for example Redis is unreachable): keyed requests get 503. */
export class AccessServiceUnavailable extends Error {}
