// Decides whether a validate request may proceed: who is asking (anonymous client or API key) and whether that subject
// is within its rate limits. Unknown, revoked or malformed keys are refused, never downgraded to anonymous.
import { apiKeyId, apiKeyMatches } from "./api-keys.js";
import { AccessServiceUnavailable, type KeyStore, type RateDecision, type RateLimiter, type RateWindow } from "./contracts.js";

export interface RateLimits {
  perMinute: number;
  perDay: number;
}

/** `policy` is the RateLimit-Policy header value of the windows the decision counted against. */
export type AccessDecision =
  | { ok: true; rate: RateDecision; policy: string }
  | { ok: false; code: "ERR_RATE_LIMITED"; rate: RateDecision; policy: string }
  | { ok: false; code: "ERR_INVALID_API_KEY" }
  | { ok: false; code: "ERR_KEY_SERVICE_UNAVAILABLE" };

export interface AccessControlParts {
  keyStore: KeyStore;
  keyLimiter: RateLimiter;
  anonymousLimiter: RateLimiter;
  anonymousLimits: RateLimits;
  keyLimits: RateLimits;
}

interface Tier {
  windows: readonly RateWindow[];
  policy: string;
}

function tier(limits: RateLimits): Tier {
  const windows: RateWindow[] = [
    { name: "minute", limit: limits.perMinute, windowSeconds: 60 },
    { name: "day", limit: limits.perDay, windowSeconds: 86_400 },
  ];
  return { windows, policy: windows.map((window) => `${window.limit};w=${window.windowSeconds}`).join(", ") };
}

const BEARER = /^Bearer +(\S+) *$/i;

export class AccessControl {
  private readonly anonymous: Tier;
  private readonly keyed: Tier;

  constructor(private readonly parts: AccessControlParts) {
    this.anonymous = tier(parts.anonymousLimits);
    this.keyed = tier(parts.keyLimits);
  }

  /** `authorization` is the header value ("" when absent); `client` identifies an anonymous caller. */
  async admit(authorization: string, client: string, nowMs: number): Promise<AccessDecision> {
    if (authorization === "") return this.limit(this.parts.anonymousLimiter, `anon:${client}`, this.anonymous, nowMs);
    const key = BEARER.exec(authorization)?.[1];
    const id = key === undefined ? undefined : apiKeyId(key);
    if (id === undefined) return { ok: false, code: "ERR_INVALID_API_KEY" };
    try {
      const record = await this.parts.keyStore.get(id);
      if (record === undefined || record.revokedAt !== undefined || !apiKeyMatches(key!, record)) return { ok: false, code: "ERR_INVALID_API_KEY" };
      return await this.limit(this.parts.keyLimiter, `key:${id}`, this.keyed, nowMs);
    } catch (error) {
      if (error instanceof AccessServiceUnavailable) return { ok: false, code: "ERR_KEY_SERVICE_UNAVAILABLE" };
      throw error;
    }
  }

  private async limit(limiter: RateLimiter, subject: string, { windows, policy }: Tier, nowMs: number): Promise<AccessDecision> {
    const rate = await limiter.hit(subject, windows, nowMs);
    return rate.allowed ? { ok: true, rate, policy } : { ok: false, code: "ERR_RATE_LIMITED", rate, policy };
  }
}
