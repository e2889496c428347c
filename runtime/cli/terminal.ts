// Behaving well in a terminal and a pipeline: colour only where wanted, output to a file on request, and a quiet exit
// when the reader of standard output goes away (`| head`).
import { writeFileSync } from "node:fs";

/** NO_COLOR (non-empty) always wins; FORCE_COLOR forces colour unless it is "0" or "false"; else a TTY decides. */
export function wantsColor(stream: { isTTY?: boolean }): boolean {
  const { NO_COLOR, FORCE_COLOR: force } = process.env;
  if (NO_COLOR !== undefined && NO_COLOR !== "") return false;
  if (force !== undefined) return force !== "0" && force !== "false";
  return stream.isTTY === true;
}

/** A closed pipe ends the process with the exit status already decided, without a stack trace. */
export function exitQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit();
      throw error;
    });
  }
}

/**
 * Ends the process as soon as standard output and standard error are flushed, rather than when the event loop drains:
 * after a large document V8 still has garbage collection queued (about 10 ms) that a process about to end need not do.
 * The exit status is process.exitCode, already set.
 */
export function exitWhenFlushed(): void {
  let unflushed = 2;
  for (const stream of [process.stdout, process.stderr]) {
    stream.write("", () => {
      if (--unflushed === 0) process.exit();
    });
  }
}

/** Writes `text` to `file`, or to standard output when there is none; returns an error message on failure. */
export function emit(text: string, file: string | undefined): string | undefined {
  if (file === undefined) {
    process.stdout.write(text);
    return undefined;
  }
  try {
    writeFileSync(file, text);
    return undefined;
  } catch (error) {
    return `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
}
