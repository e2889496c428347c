// level=full from bytes (schema layer, then the semantic layer) on the SP 800-53 rev5 catalog and the FedRAMP rev5 SSP
// template, against level=schema and the decode + parse floor measured in the same run (not part of the tests).
// Goal for the catalog: full at most 2x the floor and under 60 ms at the median.
// Run: npx tsx bench/semantic.ts   (OSCAL_BENCH_FILE=a.json,b.json picks the files, OSCAL_BENCH_RUNS the number of runs)
import { readFileSync } from "node:fs";
import path from "node:path";
import { validateBytes, type ValidateOptions } from "../runtime/core/validate.js";
import { corpusDir } from "../test/helpers/corpus.js";
import { measure, type Timing } from "./timing.js";

const FILES = process.env.OSCAL_BENCH_FILE?.split(",") ?? [
  path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json"),
  path.join(corpusDir(), "system-security-plan/fedramp-rev5-ssp-template.json"),
];
const RUNS = Number(process.env.OSCAL_BENCH_RUNS ?? 50);
const WARM_UP = 10;

function reportOf(bytes: Uint8Array, options: ValidateOptions) {
  const outcome = validateBytes(bytes, options);
  if (outcome.kind !== "report") throw new Error(`the benchmark expects a JSON document with a model: ${outcome.kind}`);
  return outcome.report;
}

const cell = (timing: Timing, floor: Timing) =>
  `${timing.median.toFixed(1).padStart(9)} ${timing.p99.toFixed(1).padStart(9)} ${`${(timing.median / floor.median).toFixed(2)}x`.padStart(10)} ${`${(timing.p99 / floor.p99).toFixed(2)}x`.padStart(10)}`;

console.log(`${RUNS} runs after ${WARM_UP} warm-up runs, node ${process.version}`);
for (const file of FILES) {
  const bytes = new Uint8Array(readFileSync(file));
  const full = reportOf(bytes, { level: "full" });
  const floor = measure(RUNS, WARM_UP, () => void JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes))).whole;
  const schema = measure(RUNS, WARM_UP, () => void reportOf(bytes, { level: "schema" })).whole;
  const fullTiming = measure(RUNS, WARM_UP, () => void reportOf(bytes, { level: "full" })).whole;
  const findings = full.issues.length;
  console.log(`\n${path.basename(file)}: ${full.model}, ${(bytes.length / 1e6).toFixed(2)} MB, valid=${full.valid}, ${findings} findings at full, ${full.meta.semanticRules?.count ?? 0} rules`);
  console.log(`${"".padEnd(36)} ${"median ms".padStart(9)} ${"p99 ms".padStart(9)} ${"median/floor".padStart(10)} ${"p99/floor".padStart(10)}`);
  console.log(`${"floor: UTF-8 decode + JSON.parse".padEnd(36)} ${cell(floor, floor)}`);
  console.log(`${"validateBytes, level schema".padEnd(36)} ${cell(schema, floor)}`);
  console.log(`${"validateBytes, level full".padEnd(36)} ${cell(fullTiming, floor)}`);
  console.log(`semantic layer alone (full - schema, medians): ${(fullTiming.median - schema.median).toFixed(1)} ms`);
}
