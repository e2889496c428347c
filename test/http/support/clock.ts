// Rate windows are aligned to the minute: a test that counts requests in one window must not straddle its end.

/**
 * Resolves at once when more than `marginMs` remain in the current UTC minute, else just after the next one begins. The
 * default margin leaves a busy machine a quarter of a minute for the requests that must share the window.
 */
export async function awayFromMinuteEdge(marginMs = 15_000): Promise<void> {
  const untilNextMinute = 60_000 - (Date.now() % 60_000);
  if (untilNextMinute <= marginMs) await new Promise((resolve) => setTimeout(resolve, untilNextMinute + 50));
}
