// What the Redis tests share: the shared server's URL, a key prefix per test file with clean-up, and a private
// redis-server that a test may stop and restart without touching the shared one.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

export const SHARED_REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

export function uniqueKeyPrefix(testName: string): string {
  return `oscal-test:${testName}:${randomUUID()}:`;
}

/** Deletes every key under `prefix` on the shared server. */
export async function deleteKeysWithPrefix(prefix: string): Promise<void> {
  const redis = new Redis(SHARED_REDIS_URL);
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
      if ((keys as string[]).length > 0) await redis.del(...(keys as string[]));
    }
  } finally {
    await redis.quit();
  }
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PrivateRedis {
  url: string;
  /** SIGKILL: as abrupt as a crash; the port can be reused by start(). */
  kill(): Promise<void>;
  /** (Re)starts the server on the same port and resolves once it answers. */
  start(): Promise<void>;
  /** Freezes or resumes the process: connections stay open, but nothing is answered. */
  pause(): void;
  resume(): void;
}

/**
 * A redis-server of the test's own on a free port. `persistent` keeps its data across kill() and start() (an
 * append-only file written on every command, as a production server that restarts after a crash); otherwise a
 * restart begins empty.
 */
export async function privateRedis({ persistent = false } = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const persistence = persistent
    ? ["--dir", mkdtempSync(join(tmpdir(), "oscal-redis-")), "--appendonly", "yes", "--appendfsync", "always"]
    : ["--appendonly", "no"];
  let child: ChildProcess | undefined;

  async function kill(): Promise<void> {
    if (!child || child.exitCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
  }

  async function start(): Promise<void> {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence], {
      stdio: "ignore",
    });
    await untilAnswering(port);
  }

  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    pause: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT"),
  };
}

async function untilAnswering(port: number): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const probe = new Redis({ port, host: "127.0.0.1", lazyConnect: true, retryStrategy: () => null });
    probe.on("error", () => {});
    try {
      await probe.connect();
      await probe.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    } finally {
      probe.disconnect();
    }
  }
}

/** Retries `attempt` until it resolves, failing after `timeoutMs`. */
export async function eventually<T>(attempt: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
