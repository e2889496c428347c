// Shared by the CLI tests: the built CLI run as a child process, temporary trees of real files, and documents.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { repoRoot } from "../../compiler/paths.js";

export const CLI = path.join(repoRoot, "dist/runtime/cli/oscal-validate-bin.cjs");

const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const metadata = { title: "CLI test", "last-modified": "2024-05-01T12:00:00Z", version: "1.0", "oscal-version": "1.2.2" };

export const VALID_CATALOG = { catalog: { uuid, metadata } };
export const INVALID_CATALOG = { catalog: { uuid: "nope", metadata } };
/** Schema-valid; --level full warns once (a back-matter resource with neither rlink nor base64), with no error. */
export const WARNING_ONLY_CATALOG = { catalog: { uuid, metadata, "back-matter": { resources: [{ uuid: "5a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b" }] } } };
/** 1,600 empty controls, each missing its id and title: 3,200 findings. */
export const MANY_FINDINGS_CATALOG = { catalog: { uuid, metadata, controls: Array.from({ length: 1600 }, () => ({})) } };

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `oscal-cli-${prefix}-`));
}

/** Writes `content` (JSON-serialized unless a string) to `dir/name`, creating directories; returns the path. */
export function put(dir: string, name: string, content: unknown): string {
  const target = path.join(dir, name);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, typeof content === "string" ? content : JSON.stringify(content));
  return target;
}

export interface RunOptions {
  cwd?: string;
  input?: string;
  /** Run as this user (and group of the same number): root reads every directory, whatever its mode. */
  uid?: number;
  /** Added to an environment without NO_COLOR and FORCE_COLOR, so colour depends only on the test. */
  env?: Record<string, string>;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (!("NO_COLOR" in extra)) delete env.NO_COLOR;
  if (!("FORCE_COLOR" in extra)) delete env.FORCE_COLOR;
  return env;
}

export function run(args: readonly string[], options: RunOptions = {}): RunResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    input: options.input ?? "",
    encoding: "utf8",
    env: environment(options.env),
    maxBuffer: 256 * 1024 * 1024,
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs the CLI with standard input from `stdin` (a path, such as /dev/zero) and reports its peak resident memory, read
 * from /proc while it runs (VmHWM is the high-water mark, so a late sample still sees the peak).
 */
export function runMeasuringMemory(args: readonly string[], stdin: string, options: RunOptions = {}): Promise<RunResult & { peakRssBytes: number }> {
  const input = openSync(stdin, "r");
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: environment(options.env), stdio: [input, "pipe", "pipe"] });
  closeSync(input);
  if (child.stdout === null || child.stderr === null) throw new Error("the CLI's output is not piped");
  let stdout = "";
  let stderr = "";
  let peakRssBytes = 0;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const sample = setInterval(() => {
    try {
      const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1];
      if (kib !== undefined) peakRssBytes = Math.max(peakRssBytes, Number(kib) * 1024);
    } catch {
      // The process has exited.
    }
  }, 10);
  return new Promise((resolve) =>
    child.on("close", (status) => {
      clearInterval(sample);
      resolve({ status, stdout, stderr, peakRssBytes });
    }),
  );
}

/** Runs the CLI and closes its standard output after the first chunk, as `| head -c 10` does. */
export function runClosingStdoutEarly(args: readonly string[], options: RunOptions = {}): Promise<{ status: number | null; stderr: string; firstChunk: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: environment(options.env), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  let firstChunk = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.once("data", (chunk: Buffer) => {
    firstChunk = chunk.subarray(0, 10).toString();
    child.stdout.destroy();
  });
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stderr, firstChunk })));
}

/** Runs the CLI with its standard error closed by the reader before the CLI can write to it (`2>&1 | true`, roughly). */
export function runWithStderrClosed(args: readonly string[], options: RunOptions = {}): Promise<number | null> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: environment(options.env), stdio: ["ignore", "ignore", "pipe"] });
  child.stderr.destroy();
  return new Promise((resolve) => child.on("close", (status) => resolve(status)));
}

/**
 * Runs the CLI with standard output inherited from a parent Node.js process that made that pipe non-blocking (as any
 * Node.js process writing to a pipe does), and reads the pipe only after `readAfterMs`, so that the CLI finds it full.
 */
export function runIntoNonBlockingPipe(args: readonly string[], readAfterMs: number, options: RunOptions = {}): Promise<{ status: number | null; stdout: Buffer }> {
  const parent = `process.stdout.write(""); const { status } = require("node:child_process").spawnSync(process.execPath, ${JSON.stringify([CLI, ...args])}, { stdio: "inherit" }); process.exitCode = status;`;
  const child = spawn(process.execPath, ["-e", parent], { cwd: options.cwd, env: environment(options.env), stdio: ["ignore", "pipe", "ignore"] });
  const chunks: Buffer[] = [];
  child.stdout.pause();
  setTimeout(() => child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk)).resume(), readAfterMs);
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout: Buffer.concat(chunks) })));
}

/** The first errors of a SARIF log against the official SARIF 2.1.0 schema; none when it is valid. */
export function sarifSchemaErrors(sarif: unknown): unknown[] {
  // The schema is draft-04, whose only difference that matters here is `id` for `$id`.
  const { id, $schema: _draft, ...schema } = JSON.parse(readFileSync(path.join(repoRoot, "../shared/sarif/sarif-schema-2.1.0.json"), "utf8"));
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile({ $id: id, ...schema });
  return validate(sarif) ? [] : validate.errors!.slice(0, 5);
}
