// Timing helpers shared by the benchmarks: medians and p99 of repeated runs, and wall time of fresh processes.
import { spawnSync } from "node:child_process";

export interface Timing {
  median: number;
  p99: number;
}

export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)]!;
  return { median: at(0.5), p99: at(0.99) };
}

/** Times `run` after `warmUp` untimed calls; `run` may report the duration of a part of itself through `lap`. */
export function measure(runs: number, warmUp: number, run: (lap: (ms: number) => void) => void): { whole: Timing; lap: Timing } {
  const whole: number[] = [];
  const laps: number[] = [];
  for (let i = 0; i < warmUp + runs; i++) {
    const started = performance.now();
    run((ms) => i >= warmUp && laps.push(ms));
    if (i >= warmUp) whole.push(performance.now() - started);
  }
  return { whole: summarize(whole), lap: summarize(laps.length > 0 ? laps : [Number.NaN]) };
}

/** Wall time of `count` spawns of a fresh process; fails loudly if a run exits with a status other than `expectedStatus`. */
export function timeSpawns(count: number, args: readonly string[], expectedStatus = 0): Timing {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
    samples.push(performance.now() - started);
    if (result.status !== expectedStatus) throw new Error(`node ${args.join(" ")} exited with ${result.status}: ${result.stderr.toString().slice(0, 500)}`);
  }
  return summarize(samples);
}

/** One goal as the benchmarks print it: the measured ratio against the most it may be, and whether it is met. */
export function goalLine(goal: string, ratio: number, atMost: number): string {
  return `  ${goal}: ${ratio.toFixed(2)}x, ${ratio <= atMost ? "met" : "not met"}`;
}
