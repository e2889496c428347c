// The FedRAMP rule pack at level full: FedRAMP's example SSP and the SP 800-53 rev5 catalog from bytes, with and
// without the pack, as ratios to the decode + parse floor measured in the same run. Goal: the pack adds at most 1x the
// floor on the SSP. No documents are supplied, so the rules needing the imported profile are reported not evaluated.
// The three are timed in rounds, one run of each per round: timed one after another, the pack's runs came after the
// runs without it and paid for the heap those had grown (about four times the garbage collection per run).
// Then generated SSPs of 1k to 8k components (test/packs/large-ssp.ts: used-by links, diagrams, users, set-parameters
// that FedRAMP's rules relate to one another): the pack's time should grow with the document, not with its square.
// Run: npx tsx bench/packs.ts   (FEDRAMP_DIR locates the shared FedRAMP files, OSCAL_BENCH_RUNS the number of runs)
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ValidateOptions } from "../runtime/core/validate.js";
import { corpusDir } from "../test/helpers/corpus.js";
import { fedrampDir } from "../test/packs/fedramp-harness.js";
import { largeSsp } from "../test/packs/large-ssp.js";
import { decodeAndParse, reportOf } from "./subjects.js";
import { CLOCK, goalLine, measure, measureInterleaved, type Timing } from "./timing.js";

const SSP = path.join(fedrampDir, "content/fedramp-ssp-example.json");
const CATALOG = path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
const RUNS = Number(process.env.OSCAL_BENCH_RUNS ?? 30);
const WARM_UP = 5;
const NOW = new Date("2026-06-01T00:00:00Z");
const SSP_GOAL = 1.0;
const LARGE_RUNS = 5;

const cell = (timing: Timing, floor: Timing) =>
  `${timing.median.toFixed(1).padStart(9)} ${timing.p99.toFixed(1).padStart(9)} ${`${(timing.median / floor.median).toFixed(2)}x`.padStart(12)}`;

console.log(`${RUNS} rounds after ${WARM_UP} warm-up rounds (one run of each subject per round), node ${process.version}, ${CLOCK}`);
const goals: string[] = [];
for (const file of [SSP, CATALOG]) {
  const bytes = new Uint8Array(readFileSync(file));
  const withPack: ValidateOptions = { level: "full", constraints: ["fedramp"], now: NOW };
  const packed = reportOf(bytes, withPack);
  const { floor, full, fullPack } = measureInterleaved(RUNS, WARM_UP, {
    floor: () => void decodeAndParse(bytes),
    full: () => void reportOf(bytes, { level: "full" }),
    fullPack: () => void reportOf(bytes, withPack),
  });
  const name = path.basename(file);
  const packFindings = packed.issues.filter((issue) => issue.ruleId.startsWith("FRR-")).length;
  console.log(`\n${name}: ${packed.model}, ${(bytes.length / 1e6).toFixed(2)} MB, schema-valid=${!packed.issues.some((i) => i.ruleId.startsWith("nist-schema:"))}, ${packFindings} pack findings`);
  console.log(`${"".padEnd(40)} ${"median ms".padStart(9)} ${"p99 ms".padStart(9)} ${"median/floor".padStart(12)}`);
  console.log(`${"floor: UTF-8 decode + JSON.parse".padEnd(40)} ${cell(floor, floor)}`);
  console.log(`${"validateBytes, level full".padEnd(40)} ${cell(full, floor)}`);
  console.log(`${"validateBytes, level full + fedramp pack".padEnd(40)} ${cell(fullPack, floor)}`);
  const added = (fullPack.median - full.median) / floor.median;
  console.log(`the pack adds ${(fullPack.median - full.median).toFixed(1)} ms (medians), ${added.toFixed(2)}x the floor`);
  if (file === SSP) goals.push(goalLine(`${name}: the fedramp pack adds at most ${SSP_GOAL}x the floor`, added, SSP_GOAL));
}
console.log(`\ngoals:\n${goals.join("\n")}`);

console.log(`\ngenerated SSPs, level full + fedramp pack, with the imported profile supplied (${LARGE_RUNS} runs after 1 warm-up)`);
console.log(`${"components".padStart(10)} ${"median ms".padStart(9)} ${"ms per 1k".padStart(9)}`);
for (const components of [1000, 2000, 4000, 8000]) {
  const { document, documents } = largeSsp(components);
  const bytes = new TextEncoder().encode(JSON.stringify(document));
  const { whole } = measure(LARGE_RUNS, 1, () => void reportOf(bytes, { level: "full", constraints: ["fedramp"], documents, now: NOW }));
  console.log(`${String(components).padStart(10)} ${whole.median.toFixed(0).padStart(9)} ${(whole.median / (components / 1000)).toFixed(0).padStart(9)}`);
}
