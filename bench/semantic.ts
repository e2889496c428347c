// Benchmark of the level=full semantic layer on the SP 800-53 rev5 catalog (not part of the tests).
// Run: npx tsx bench/semantic.ts   (after generating generated/semantic.js)
import { readFileSync } from "node:fs";
import { semanticChecks } from "../generated/models.js";

const { check, rules } = semanticChecks();

const CATALOG = process.env.OSCAL_BENCH_FILE ?? "../shared/corpus/catalog/nist-sp800-53-rev5.0.1-catalog-2021.json";
const RUNS = 50;
const WARMUP = 10;

const bytes = readFileSync(CATALOG);
const decoder = new TextDecoder();
const active = new Set(rules.filter((r) => r.defaultOn).map((r) => r.id));

function measure(step: () => void): { median: number; p99: number } {
  for (let i = 0; i < WARMUP; i++) step();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    step();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(RUNS / 2)]!, p99: times[Math.min(RUNS - 1, Math.ceil(RUNS * 0.99) - 1)]! };
}

let findings = 0;
const floor = measure(() => {
  JSON.parse(decoder.decode(bytes));
});
const full = measure(() => {
  findings = check("catalog", JSON.parse(decoder.decode(bytes)), active).length;
});

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
console.log(`file: ${CATALOG} (${(bytes.length / 1e6).toFixed(2)} MB), ${RUNS} runs after ${WARMUP} warm-up`);
console.log(`decode + JSON.parse         median ${fmt(floor.median)}  p99 ${fmt(floor.p99)}`);
console.log(`decode + parse + check      median ${fmt(full.median)}  p99 ${fmt(full.p99)}  (${findings} findings, ${active.size} rules on)`);
console.log(`ratio vs floor              median ${(full.median / floor.median).toFixed(2)}x  p99 ${(full.p99 / floor.p99).toFixed(2)}x`);
