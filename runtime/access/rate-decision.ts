// The decision both limiters (in-process and Redis) report, so their headers agree to the letter.
import type { RateDecision } from "./contracts.js";

/** Reports the window closest to exhaustion (fewest remaining; on a tie the one that resets last). */
export function decide(states: readonly { limit: number; remaining: number; resetSeconds: number }[], allowed: boolean, retryAfterSeconds: number): RateDecision {
  let closest = states[0]!;
  for (const state of states) {
    if (state.remaining < closest.remaining || (state.remaining === closest.remaining && state.resetSeconds > closest.resetSeconds)) closest = state;
  }
  const decision: RateDecision = { allowed, limit: closest.limit, remaining: Math.max(0, closest.remaining), resetSeconds: closest.resetSeconds };
  if (!allowed) decision.retryAfterSeconds = retryAfterSeconds;
  return decision;
}
