// Benchmark of the level=full semantic layer on the SP 800-53 rev5 catalog and the FedRAMP rev5 SSP template
// (not part of the tests). The goal: decode + parse + check within 2x the decode + parse floor.
// Run: npx tsx bench/semantic.ts   (after `npx tsx compiler/build.ts`; OSCAL_BENCH_FILE=a.json,b.json to choose the files)
import { readFileSync } from "node:fs";
import { semanticChecks } from "../generated/models.js";

const { check, rules } = semanticChecks();

const FILES = (process.env.OSCAL_BENCH_FILE ?? [
  "../shared/corpus/catalog/nist-sp800-53-rev5.0.1-catalog-2021.json",
  "../shared/corpus/system-security-plan/fedramp-rev5-ssp-template.json",
].join(",")).split(",");
const RUNS = 50;
const WARMUP = 10;

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

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
console.log(`${RUNS} runs after ${WARMUP} warm-up, ${active.size} default rules on`);
for (const file of FILES) {
  const bytes = readFileSync(file);
  const parsed = JSON.parse(decoder.decode(bytes)) as Record<string, unknown>;
  const model = Object.keys(parsed).find((k) => k !== "$schema") ?? "";
  let findings = 0;
  const floor = measure(() => {
    JSON.parse(decoder.decode(bytes));
  });
  const checkOnly = measure(() => {
    findings = check(model, parsed, active).length;
  });
  const full = measure(() => {
    check(model, JSON.parse(decoder.decode(bytes)), active);
  });
  console.log(`\nfile: ${file} (${model}, ${(bytes.length / 1e6).toFixed(2)} MB, ${findings} findings)`);
  console.log(`decode + JSON.parse         median ${fmt(floor.median)}  p99 ${fmt(floor.p99)}`);
  console.log(`check alone                 median ${fmt(checkOnly.median)}  p99 ${fmt(checkOnly.p99)}`);
  console.log(`decode + parse + check      median ${fmt(full.median)}  p99 ${fmt(full.p99)}`);
  console.log(`ratio vs floor              median ${(full.median / floor.median).toFixed(2)}x  p99 ${(full.p99 / floor.p99).toFixed(2)}x`);
}
