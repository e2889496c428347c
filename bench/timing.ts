// Timing helpers shared by the benchmarks: medians and p99 of repeated runs, and wall time of fresh processes.
import { spawnSync } from "node:child_process";

/**
 * OSCAL_BENCH_CLOCK=cpu times by the process's CPU time (all its threads) instead of the wall clock: on a shared,
 * overloaded machine wall time mostly measures waiting for a core.
 */
const cpuClock = process.env.OSCAL_BENCH_CLOCK === "cpu";
export const CLOCK = cpuClock ? "process CPU time" : "wall clock";
function now(): number {
  if (!cpuClock) return performance.now();
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

export interface Timing {
  median: number;
  p99: number;
}

export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)]!;
  return { median: at(0.5), p99: at(0.99) };
}

/** Times `run` after `warmUp` untimed calls; `run` may report the duration of a part of itself through `lap` (by the wall clock). */
export function measure(runs: number, warmUp: number, run: (lap: (ms: number) => void) => void): { whole: Timing; lap: Timing } {
  const whole: number[] = [];
  const laps: number[] = [];
  for (let i = 0; i < warmUp + runs; i++) {
    const started = now();
    run((ms) => i >= warmUp && laps.push(ms));
    if (i >= warmUp) whole.push(now() - started);
  }
  return { whole: summarize(whole), lap: summarize(laps.length > 0 ? laps : [Number.NaN]) };
}

/**
 * Calls `run` for `ms` milliseconds of wall time (at least once). V8 optimises a function after enough calls and on a
 * background thread: a small document's first few hundred runs still measure that, not the validator.
 */
export function warmUpFor(ms: number, run: () => void): void {
  const until = performance.now() + ms;
  do run();
  while (performance.now() < until);
}

/**
 * Times several subjects in alternating blocks of runs: each block's first `settleRuns` are untimed, since they pay for
 * the garbage the previous subject left, and alternating spreads a change in the machine's speed over every subject.
 * Per subject, `blocks` x (`runsPerBlock` - `settleRuns`) timed runs.
 */
export function measureInBlocks<K extends string>(blocks: number, runsPerBlock: number, settleRuns: number, subjects: Record<K, () => void>): Record<K, Timing> {
  const names = Object.keys(subjects) as K[];
  const samples = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let block = 0; block < blocks; block++) {
    for (const name of names) {
      const run = subjects[name];
      for (let i = 0; i < runsPerBlock; i++) {
        const started = now();
        run();
        if (i >= settleRuns) samples.get(name)!.push(now() - started);
      }
    }
  }
  return Object.fromEntries(names.map((name) => [name, summarize(samples.get(name)!)])) as Record<K, Timing>;
}

/**
 * Times several subjects in rounds, each subject once per round, so that all of them run in the same state of the heap
 * and of the machine: run in turn instead, whichever comes later inherits the heap the earlier ones grew.
 */
export function measureInterleaved<K extends string>(runs: number, warmUp: number, subjects: Record<K, () => void>): Record<K, Timing> {
  for (let i = 0; i < warmUp; i++) for (const run of Object.values<() => void>(subjects)) run();
  return measureInBlocks(runs, 1, 0, subjects);
}

/** Wall time of `count` spawns of a fresh process; fails loudly if a run exits with a status other than `expectedStatus`. */
export function timeSpawns(count: number, args: readonly string[], expectedStatus = 0): Timing {
  return timeSpawnsAlternated(count, { only: args }, expectedStatus).only;
}

/**
 * Wall time of `count` spawns of each command, alternated (one of each per round), so that a command and its baseline
 * share the machine's state: on a shared host, spawns made a minute apart differ more than the builds compared.
 */
export function timeSpawnsAlternated<K extends string>(count: number, commands: Record<K, readonly string[]>, expectedStatus = 0): Record<K, Timing> {
  const names = Object.keys(commands) as K[];
  const samples = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let i = 0; i < count; i++) {
    for (const name of names) {
      const args = commands[name];
      const started = performance.now();
      const result = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
      samples.get(name)!.push(performance.now() - started);
      if (result.status !== expectedStatus) throw new Error(`node ${args.join(" ")} exited with ${result.status}: ${result.stderr.toString().slice(0, 500)}`);
    }
  }
  return Object.fromEntries(names.map((name) => [name, summarize(samples.get(name)!)])) as Record<K, Timing>;
}

/** One goal as the benchmarks print it: the measured ratio against the most it may be, and whether it is met. */
export function goalLine(goal: string, ratio: number, atMost: number): string {
  return `  ${goal}: ${ratio.toFixed(2)}x, ${ratio <= atMost ? "met" : "not met"}`;
}
