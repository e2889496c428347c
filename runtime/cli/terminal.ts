// Behaving well in a terminal and a pipeline: colour only where wanted, output to a file on request, and a quiet exit
// when the reader of standard output goes away (`| head`). Output is written synchronously to the descriptors: Node's
// stream objects for standard output and error load some twenty modules, which a short run would spend a few
// milliseconds on, and a process that has written everything can exit at once.
import { fstatSync, writeFileSync, writeSync } from "node:fs";

export const STDOUT = 1;
export const STDERR = 2;

/**
 * Whether a descriptor is a terminal. A character device stands for one: asking `tty.isatty` would load the network
 * stack; the other character device output usually goes to, /dev/null, takes colour and progress harmlessly.
 */
export function isTerminal(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

/** C0 and C1 control characters, DEL, and the two Unicode line terminators JavaScript and some log viewers break lines at. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * `text` with every control character written as an escape (`\n`, `\u001b`): a file name or a member name from a
 * document can then neither move the cursor, colour the terminal nor start a line a CI log would read as a command.
 */
export function printable(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (character) => NAMED_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** NO_COLOR (non-empty) always wins; FORCE_COLOR forces colour unless it is "0" or "false"; else a terminal decides. */
export function wantsColor(fd: number): boolean {
  const { NO_COLOR, FORCE_COLOR: force } = process.env;
  if (NO_COLOR !== undefined && NO_COLOR !== "") return false;
  if (force !== undefined) return force !== "0" && force !== "false";
  return isTerminal(fd);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Where a descriptor is non-blocking (a pipe another process made so) and full or empty, a read or write waits a millisecond. */
export function waitBriefly(): void {
  Atomics.wait(pause, 0, 0, 1);
}

/**
 * Writes all of `text` to a standard descriptor. A reader that went away (EPIPE) ends the process with the exit status
 * already decided, without a stack trace.
 */
export function write(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  for (let offset = 0; offset < bytes.length; ) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      if (code === "EPIPE") process.exit();
      if (code !== "EAGAIN") throw error;
      waitBriefly();
    }
  }
}

/** Writes `text` to `file`, or to standard output when there is none; returns an error message on failure. */
export function emit(text: string, file: string | undefined): string | undefined {
  if (file === undefined) {
    write(STDOUT, text);
    return undefined;
  }
  try {
    writeFileSync(file, text);
    return undefined;
  } catch (error) {
    return `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
}
