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
