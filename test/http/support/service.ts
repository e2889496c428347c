// Starts the real service (dist/runtime/http/main.js, built by `tsc`) as a child process on a free port and captures
// everything it writes, so tests talk to it over real sockets and can inspect its log output.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../../../compiler/paths.js";

export const TRANSPORTS = ["uws", "node"] as const;
export type TransportName = (typeof TRANSPORTS)[number];

export interface TestService {
  port: number;
  baseUrl: string;
  url(path: string): string;
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  /** Runs the service under this open-file limit (`ulimit -n`), as a shell sets it. */
  openFileLimit?: number;
}

export async function startService(transport: TransportName, env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestService> {
  const main = join(repoRoot, "dist/runtime/http/main.js");
  const [command, args] =
    options.openFileLimit === undefined
      ? [process.execPath, [main]]
      : ["/bin/sh", ["-c", `ulimit -n ${options.openFileLimit} && exec "$0" "$1"`, process.execPath, main]];
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      WORKERS: "2",
      TRANSPORT: transport,
      KEYS_FILE: join(mkdtempSync(join(tmpdir(), "oscal-keys-")), "keys.json"),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.once("exit", (code) => resolveExit(code)));
  const port = await new Promise<number>((resolvePort, reject) => {
    // Minutes: on a busy machine the workers take long to load their validators, which only makes the start slow.
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 180_000);
    const check = (): void => {
      const match = /"event":"listening","port":(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    };
    child.stdout!.on("data", check);
    void exited.then((code) => reject(new Error(`service exited with ${code}:\n${output}`)));
  });
  const baseUrl = env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
  return {
    port,
    baseUrl,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    child,
    output: () => output,
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
