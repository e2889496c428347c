// What both limiters (in-process and Redis) share: window boundaries and the decision they report, so their headers
// agree to the letter.
import type { RateDecision, RateWindow } from "./contracts.js";

/** The fixed window holding `nowMs`, aligned to the Unix epoch (a day window runs from 00:00 UTC). */
export function windowSpan(window: RateWindow, nowMs: number): { startMs: number; endMs: number } {
  const lengthMs = window.windowSeconds * 1000;
  const startMs = Math.floor(nowMs / lengthMs) * lengthMs;
  return { startMs, endMs: startMs + lengthMs };
}

/**
 * Reports the window closest to exhaustion (fewest remaining; on a tie the one that resets last). A refused request may
 * proceed once every exhausted window has reset: that is its Retry-After.
 */
export function decide(states: readonly { limit: number; remaining: number; resetSeconds: number }[], allowed: boolean): RateDecision {
  let closest = states[0]!;
  for (const state of states) {
    if (state.remaining < closest.remaining || (state.remaining === closest.remaining && state.resetSeconds > closest.resetSeconds)) closest = state;
  }
  const decision: RateDecision = { allowed, limit: closest.limit, remaining: Math.max(0, closest.remaining), resetSeconds: closest.resetSeconds };
  if (!allowed) decision.retryAfterSeconds = Math.max(0, ...states.filter((state) => state.remaining <= 0).map((state) => state.resetSeconds));
  return decision;
}
