// Structured log lines (one JSON object per line on stdout). Callers pass only operational facts: never request
// bodies, never error messages (they may quote a document), never keys.
export type LogLevel = "info" | "warn" | "error";

export function log(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
}

/** The error's name and stack frames, without its message. */
export function describeError(error: unknown): { error: string; stack: string } {
  if (!(error instanceof Error)) return { error: typeof error, stack: "" };
  const frames = (error.stack ?? "").split("\n").filter((line) => line.startsWith("    at ")).map((line) => line.trim());
  return { error: error.name, stack: frames.join(" | ") };
}
