// In-process fixed-window counters: the anonymous limiter (always; best effort per instance) and the key limiter when no
// Redis is configured. Windows are aligned to the epoch (a minute window resets on the minute, a day window at 00:00 UTC).
// A refused request is not counted, so Retry-After is exact.
import type { RateDecision, RateLimiter, RateWindow } from "./contracts.js";
import { decide, windowSpan } from "./rate-decision.js";

interface Counter {
  windowEndMs: number;
  count: number;
}

const SWEEP_INTERVAL_MS = 60_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly counters = new Map<string, Counter>();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(Date.now()), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  hit(subject: string, windows: readonly RateWindow[], nowMs: number): Promise<RateDecision> {
    const current: { counter: Counter; window: RateWindow; resetSeconds: number }[] = [];
    for (const window of windows) {
      const key = `${window.name}\u0000${subject}`;
      let counter = this.counters.get(key);
      if (counter === undefined || counter.windowEndMs <= nowMs) {
        counter = { windowEndMs: windowSpan(window, nowMs).endMs, count: 0 };
        this.counters.set(key, counter);
      }
      current.push({ counter, window, resetSeconds: Math.ceil((counter.windowEndMs - nowMs) / 1000) });
    }
    const allowed = current.every(({ counter, window }) => counter.count < window.limit);
    if (allowed) for (const { counter } of current) counter.count++;
    return Promise.resolve(decide(current.map(({ counter, window, resetSeconds }) => ({ limit: window.limit, remaining: window.limit - counter.count, resetSeconds })), allowed));
  }

  private sweep(nowMs: number): void {
    for (const [key, counter] of this.counters) if (counter.windowEndMs <= nowMs) this.counters.delete(key);
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    this.counters.clear();
    return Promise.resolve();
  }
}
