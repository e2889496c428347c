// level=full from bytes (schema layer, then the semantic layer) on the SP 800-53 rev5 catalog and the FedRAMP rev5 SSP
// template, against level=schema and the decode + parse floor measured in the same run; validateParsed on the parsed
// value (the same checks without the bytes-to-value path and without locating findings); then the whole corpus in
// total, and the semantic layer on parts nested 250 and 2,000 deep. Prints each goal with its ratio and whether it is met.
// Run: npx tsx bench/semantic.ts   (OSCAL_BENCH_FILE=a.json,b.json picks the files, OSCAL_BENCH_RUNS the number of runs,
// OSCAL_BENCH_CLOCK=cpu times by CPU time)
import { readFileSync } from "node:fs";
import path from "node:path";
import { resolveOptions, validateBytes, validateParsed } from "../runtime/core/validate.js";
import { resolveSemanticRules, runSemanticLayer } from "../runtime/core/semantic.js";
import { corpusDir, listCorpus } from "../test/helpers/corpus.js";
import { decodeAndParse, reportOf } from "./subjects.js";
import { CLOCK, goalLine, measure, type Timing } from "./timing.js";

const CATALOG = path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
const SSP_TEMPLATE = path.join(corpusDir(), "system-security-plan/fedramp-rev5-ssp-template.json");
const FILES = process.env.OSCAL_BENCH_FILE?.split(",") ?? [CATALOG, SSP_TEMPLATE];
const RUNS = Number(process.env.OSCAL_BENCH_RUNS ?? 50);
const WARM_UP = 10;

/** Goals per file: the most `full` and `schema` may take, as multiples of the floor. */
const GOALS: Record<string, { fullMedian: number; fullP99?: number; schemaMedian: number }> = {
  [CATALOG]: { fullMedian: 1.25, fullP99: 1.6, schemaMedian: 1.0 },
  [SSP_TEMPLATE]: { fullMedian: 2.5, schemaMedian: 1.6 },
};
const CORPUS_GOAL = 1.5;

const cell = (timing: Timing, floor: Timing) =>
  `${timing.median.toFixed(1).padStart(9)} ${timing.p99.toFixed(1).padStart(9)} ${`${(timing.median / floor.median).toFixed(2)}x`.padStart(10)} ${`${(timing.p99 / floor.p99).toFixed(2)}x`.padStart(10)}`;

console.log(`${RUNS} runs after ${WARM_UP} warm-up runs, node ${process.version}, ${CLOCK}`);
const goals: string[] = [];
for (const file of FILES) {
  const bytes = new Uint8Array(readFileSync(file));
  const full = reportOf(bytes, { level: "full" });
  const floor = measure(RUNS, WARM_UP, () => void decodeAndParse(bytes)).whole;
  const schema = measure(RUNS, WARM_UP, () => void reportOf(bytes, { level: "schema" })).whole;
  const fullTiming = measure(RUNS, WARM_UP, () => void reportOf(bytes, { level: "full" })).whole;
  const parsed = decodeAndParse(bytes);
  const fullOptions = resolveOptions({ level: "full" });
  if (!fullOptions.ok) throw new Error("level full resolves");
  const parsedFull = measure(RUNS, WARM_UP, () => void validateParsed(parsed, fullOptions.options)).whole;
  const findings = full.issues.length;
  const name = path.basename(file);
  console.log(`\n${name}: ${full.model}, ${(bytes.length / 1e6).toFixed(2)} MB, valid=${full.valid}, ${findings} findings at full, ${full.meta.semanticRules?.count ?? 0} rules`);
  console.log(`${"".padEnd(36)} ${"median ms".padStart(9)} ${"p99 ms".padStart(9)} ${"median/floor".padStart(10)} ${"p99/floor".padStart(10)}`);
  console.log(`${"floor: UTF-8 decode + JSON.parse".padEnd(36)} ${cell(floor, floor)}`);
  console.log(`${"validateBytes, level schema".padEnd(36)} ${cell(schema, floor)}`);
  console.log(`${"validateBytes, level full".padEnd(36)} ${cell(fullTiming, floor)}`);
  console.log(`${"validateParsed, level full".padEnd(36)} ${cell(parsedFull, floor)}`);
  console.log(`floor + validateParsed at full (no bytes-to-value path, no locating): ${((floor.median + parsedFull.median) / floor.median).toFixed(2)}x the floor`);
  console.log(`semantic layer alone (full - schema, medians): ${(fullTiming.median - schema.median).toFixed(1)} ms`);
  const goal = GOALS[file];
  if (!goal) continue;
  goals.push(goalLine(`${name}: full median at most ${goal.fullMedian}x the floor`, fullTiming.median / floor.median, goal.fullMedian));
  if (goal.fullP99 !== undefined) goals.push(goalLine(`${name}: full p99 at most ${goal.fullP99}x the floor's p99`, fullTiming.p99 / floor.p99, goal.fullP99));
  goals.push(goalLine(`${name}: schema median at most ${goal.schemaMedian}x the floor`, schema.median / floor.median, goal.schemaMedian));
}

// The whole corpus: the sum over documents of the median of a few runs each, full against the floor.
const corpusRuns = Math.max(3, Math.round(RUNS / 10));
let corpusFloor = 0;
let corpusFull = 0;
const documents = listCorpus();
for (const document of documents) {
  const bytes = new Uint8Array(readFileSync(document.absolutePath));
  corpusFloor += measure(corpusRuns, 1, () => void decodeAndParse(bytes)).whole.median;
  corpusFull += measure(corpusRuns, 1, () => void validateBytes(bytes, { level: "full" })).whole.median;
}
console.log(`\nwhole corpus (${documents.length} documents, sum of medians of ${corpusRuns} runs each): floor ${corpusFloor.toFixed(1)} ms, full ${corpusFull.toFixed(1)} ms (${(corpusFull / corpusFloor).toFixed(2)}x)`);
goals.push(goalLine(`whole corpus: total full at most ${CORPUS_GOAL}x total floor`, corpusFull / corpusFloor, CORPUS_GOAL));

// Depth: one control whose parts nest 250 and 2,000 deep, a finding at every level; linear work grows 8-fold.
const resolved = resolveSemanticRules([]);
if (!resolved.ok) throw new Error("the default rules resolve");
const depthTiming = (depth: number): Timing => {
  let part: Record<string, unknown> = { id: `p${depth}`, name: "item", prose: "Do it." };
  for (let level = depth - 1; level >= 1; level--) part = { id: `p${level}`, name: "item", parts: [part] };
  const metadata = { title: "Deep", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" };
  const document = { catalog: { uuid: "00000000-0000-4000-8000-000000000001", metadata, controls: [{ id: "c1", title: "C", parts: [part] }] } };
  return measure(30, 5, () => void runSemanticLayer("catalog", document, resolved.active)).whole;
};
const shallow = depthTiming(250);
const deep = depthTiming(2000);
console.log(`semantic layer on parts nested 250 deep: ${shallow.median.toFixed(1)} ms, 2,000 deep: ${deep.median.toFixed(1)} ms (${(deep.median / shallow.median).toFixed(1)}x for 8x the depth)`);
goals.push(goalLine("nested parts: 2,000 deep at most 16x the time of 250 deep (linear: 8x)", deep.median / shallow.median, 16));

console.log(`\ngoals:\n${goals.join("\n")}`);
