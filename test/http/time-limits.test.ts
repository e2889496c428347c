// The service's time limits against a clock the test moves: the validation time limit of the worker pool and the body
// reader's minimum upload rate. Only the test advances time, so a slow or busy machine can neither trip a limit nor
// keep one from tripping.
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { repoRoot } from "../../compiler/paths.js";
import { BodyReader, MemoryBudget, type BodyLimits } from "../../runtime/http/body-reader.js";
import type { ValidationAnswer } from "../../runtime/http/validation-protocol.js";
import { VALID_CATALOG } from "./support/documents.js";

// The pool starts worker threads from its compiled module (dist/, built by `make build`), beside which their script lies.
type PoolModule = typeof import("../../runtime/http/validation-pool.js");
const { ValidationPool } = (await import(join(repoRoot, "dist/runtime/http/validation-pool.js"))) as PoolModule;

const TIMEOUT_MS = 1_000;
const catalogBytes = (): Uint8Array => new TextEncoder().encode(VALID_CATALOG);

/** The answer if it has settled by now, else "pending". */
async function settledYet<T>(answer: Promise<T>): Promise<T | "pending"> {
  return Promise.race([answer, Promise.resolve("pending" as const)]);
}

describe("the validation time limit", () => {
  it("answers a validation over-budget when the clock passes the limit, not before, and serves the next on a new worker", async () => {
    const failures: string[] = [];
    const pool = await ValidationPool.start({ workers: 1, timeoutMs: TIMEOUT_MS, workerHeapMb: 256, smallBodyBytes: 256 * 1024, smallLaneWorkers: 1 }, (detail) => failures.push(detail));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      // The limit ends the run however far along the worker is: the answer is decided by the clock alone.
      const overrun = pool.validate(catalogBytes(), { level: "full" });
      vi.advanceTimersByTime(TIMEOUT_MS);
      expect(await overrun).toEqual<ValidationAnswer>({ kind: "over-budget", resource: "time" });

      // The clock stands still while a new worker serves the next validation: a slow machine cannot run it out of time.
      expect(await pool.validate(catalogBytes(), { level: "full" })).toMatchObject({ kind: "report", valid: true });
      // On that worker, now ready and idle, a validation starts at once: a millisecond short of the limit, it runs on.
      const withinLimit = pool.validate(catalogBytes(), { level: "full" });
      vi.advanceTimersByTime(TIMEOUT_MS - 1);
      expect(await withinLimit).toMatchObject({ kind: "report", valid: true });
      expect(failures).toEqual([]);
    } finally {
      vi.useRealTimers();
      await pool.close();
    }
  });
});

describe("the minimum body rate", () => {
  const limits: BodyLimits = { maxBodyBytes: 1024 * 1024, maxDecompressedBytes: 1024 * 1024, minBodyBytesPerSecond: 1024, bodyRateWindowMs: 500 };
  /** Bytes a window must bring: 1024 per second over 500 ms. */
  const perWindow = 512;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps a body that brings the minimum in every window, and cuts off the first window short of it", async () => {
    const budget = new MemoryBudget(1024 * 1024, 1024 * 1024);
    const reader = new BodyReader(limits, budget, "client", false);
    for (let window = 0; window < 3; window++) {
      reader.write(new Uint8Array(perWindow));
      vi.advanceTimersByTime(limits.bodyRateWindowMs);
      expect(await settledYet(reader.result)).toBe("pending");
    }
    reader.write(new Uint8Array(perWindow - 1));
    vi.advanceTimersByTime(limits.bodyRateWindowMs);
    expect(await settledYet(reader.result)).toMatchObject({ ok: false, code: "ERR_RATE_LIMITED", tooSlow: true, detail: expect.stringContaining("1024 bytes per second over 500 ms") });
    // What the body held is back in the budget: the client may reserve its whole share again.
    expect(budget.tryReserve("client", 1024 * 1024)).toBe(true);
  });

  it("hands over a slow body that ends before its window closes", async () => {
    const reader = new BodyReader(limits, new MemoryBudget(1024 * 1024, 1024 * 1024), "client", false);
    reader.write(new Uint8Array(10));
    vi.advanceTimersByTime(limits.bodyRateWindowMs - 1);
    reader.end();
    const result = await reader.result;
    expect(result.ok && result.bytes.byteLength).toBe(10);
    vi.advanceTimersByTime(10 * limits.bodyRateWindowMs);
    expect(await reader.result).toMatchObject({ ok: true });
  });
});
