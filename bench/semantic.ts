// level=full from bytes (schema layer, then the semantic layer) on the SP 800-53 rev5 catalog and the FedRAMP rev5 SSP
// template, against level=schema and the decode + parse floor measured in the same run (and, for reference, against
// JSON.parse of text decoded beforehand: see parseDecoded); validateParsed on the parsed value (the same checks without
// the bytes-to-value path and without locating findings); then the whole corpus in total, twice, and the semantic
// layer on parts nested 250 and 2,000 deep. Prints each goal with its ratio and whether it is met.
// Each subject is timed twice: runs 11-60 of its first calls, and warm, after two seconds more of it, in blocks that
// alternate between the subjects (so that a ratio compares runs made in the same state of the machine). The goals are
// per-document costs of a process that validates many documents (the service, a library caller), so they are judged
// on the warm figures; the early ones show what V8's warm-up adds (the SSP template's small document still runs
// unoptimised code then: see the README). Cold processes are bench/core.ts's subject.
// Run: npx tsx bench/semantic.ts   (OSCAL_BENCH_FILE=a.json,b.json picks the files, OSCAL_BENCH_RUNS the number of runs,
// OSCAL_BENCH_WARM_MS the warm-up per subject, OSCAL_BENCH_CLOCK=cpu times by CPU time)
import { readFileSync } from "node:fs";
import path from "node:path";
import { resolveOptions, validateBytes, validateParsed } from "../runtime/core/validate.js";
import { resolveSemanticRules, runSemanticLayer } from "../runtime/core/semantic.js";
import { corpusDir, listCorpus } from "../test/helpers/corpus.js";
import { decodeAndParse, parseDecoded, reportOf } from "./subjects.js";
import { CLOCK, goalLine, measure, measureInBlocks, warmUpFor, type Timing } from "./timing.js";

const CATALOG = path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
const SSP_TEMPLATE = path.join(corpusDir(), "system-security-plan/fedramp-rev5-ssp-template.json");
const FILES = process.env.OSCAL_BENCH_FILE?.split(",") ?? [CATALOG, SSP_TEMPLATE];
const RUNS = Number(process.env.OSCAL_BENCH_RUNS ?? 50);
const WARM_UP = 10;
const WARM_UP_MS = Number(process.env.OSCAL_BENCH_WARM_MS ?? 2000);
const WARM_BLOCKS = 5;
/** Timed runs per block (RUNS in all, rounded up to whole blocks), after the untimed ones that settle each block. */
const WARM_RUNS_PER_BLOCK = Math.ceil(RUNS / WARM_BLOCKS);
const SETTLE_RUNS = 2;

/** Goals per file: the most `full` and `schema` may take, as multiples of the floor. */
const GOALS: Record<string, { fullMedian: number; fullP99?: number; schemaMedian: number }> = {
  [CATALOG]: { fullMedian: 1.25, fullP99: 1.6, schemaMedian: 1.0 },
  [SSP_TEMPLATE]: { fullMedian: 2.5, schemaMedian: 1.6 },
};
const CORPUS_GOAL = 1.5;

type Phases = { early: Timing; warm: Timing };

const cell = (subject: Phases, floor: Phases) =>
  [subject.warm.median.toFixed(2), subject.warm.p99.toFixed(2), `${(subject.warm.median / floor.warm.median).toFixed(2)}x`, `${(subject.warm.p99 / floor.warm.p99).toFixed(2)}x`, `${(subject.early.median / floor.early.median).toFixed(2)}x`]
    .map((text) => text.padStart(12))
    .join(" ");

/**
 * Each subject's runs 11-60 of its first calls, one subject after the other (as a process meets them), then warm:
 * after WARM_UP_MS more of each subject, timed runs in alternating blocks.
 */
function timeEarlyAndWarm<K extends string>(subjects: Record<K, () => void>): Record<K, Phases> {
  const names = Object.keys(subjects) as K[];
  const early = Object.fromEntries(names.map((name) => [name, measure(RUNS, WARM_UP, subjects[name]).whole])) as Record<K, Timing>;
  for (const name of names) warmUpFor(WARM_UP_MS, subjects[name]);
  const warm = measureInBlocks(WARM_BLOCKS, WARM_RUNS_PER_BLOCK + SETTLE_RUNS, SETTLE_RUNS, subjects);
  return Object.fromEntries(names.map((name) => [name, { early: early[name], warm: warm[name] }])) as Record<K, Phases>;
}

console.log(`${WARM_BLOCKS * WARM_RUNS_PER_BLOCK} runs warm (after ${WARM_UP_MS} ms of runs each; ${WARM_BLOCKS} alternating blocks per subject) and early (runs ${WARM_UP + 1}-${WARM_UP + RUNS}), node ${process.version}, ${CLOCK}`);
const goals: string[] = [];
for (const file of FILES) {
  const bytes = new Uint8Array(readFileSync(file));
  const full = reportOf(bytes, { level: "full" });
  const parsed = decodeAndParse(bytes);
  const fullOptions = resolveOptions({ level: "full" });
  if (!fullOptions.ok) throw new Error("level full resolves");
  const parseOnly = parseDecoded(bytes);
  // The reference comes last, so as to warm nothing up before the early runs of the others.
  const { floor, parse, schema, full: fullTiming, parsedFull } = timeEarlyAndWarm({
    floor: () => void decodeAndParse(bytes),
    schema: () => void reportOf(bytes, { level: "schema" }),
    full: () => void reportOf(bytes, { level: "full" }),
    parsedFull: () => void validateParsed(parsed, fullOptions.options),
    parse: () => void parseOnly(),
  });
  const findings = full.issues.length;
  const name = path.basename(file);
  console.log(`\n${name}: ${full.model}, ${(bytes.length / 1e6).toFixed(2)} MB, valid=${full.valid}, ${findings} findings at full, ${full.meta.semanticRules?.count ?? 0} rules`);
  console.log(`${"".padEnd(34)} ${["median ms", "p99 ms", "median/floor", "p99/floor", "early median"].map((text) => text.padStart(12)).join(" ")}`);
  console.log(`${"floor: UTF-8 decode + JSON.parse".padEnd(34)} ${cell(floor, floor)}`);
  console.log(`${"JSON.parse alone (text decoded)".padEnd(34)} ${cell(parse, floor)}`);
  console.log(`${"validateBytes, level schema".padEnd(34)} ${cell(schema, floor)}`);
  console.log(`${"validateBytes, level full".padEnd(34)} ${cell(fullTiming, floor)}`);
  console.log(`${"validateParsed, level full".padEnd(34)} ${cell(parsedFull, floor)}`);
  console.log(`floor + validateParsed at full (no bytes-to-value path, no locating): ${((floor.warm.median + parsedFull.warm.median) / floor.warm.median).toFixed(2)}x the floor`);
  console.log(`semantic layer alone (full - schema, medians): ${(fullTiming.warm.median - schema.warm.median).toFixed(2)} ms`);
  const toParse = (subject: Phases) => `${(subject.warm.median / parse.warm.median).toFixed(2)}x`;
  console.log(`against JSON.parse alone (a reference, not a goal): schema ${toParse(schema)}, full ${toParse(fullTiming)}`);
  const goal = GOALS[file];
  if (!goal) continue;
  const early = (ratio: number) => ` (early: ${ratio.toFixed(2)}x)`;
  const medianRatio = (subject: Phases, which: "early" | "warm") => subject[which].median / floor[which].median;
  goals.push(goalLine(`${name}: full median at most ${goal.fullMedian}x the floor`, medianRatio(fullTiming, "warm"), goal.fullMedian) + early(medianRatio(fullTiming, "early")));
  if (goal.fullP99 !== undefined) {
    goals.push(goalLine(`${name}: full p99 at most ${goal.fullP99}x the floor's p99`, fullTiming.warm.p99 / floor.warm.p99, goal.fullP99) + early(fullTiming.early.p99 / floor.early.p99));
  }
  goals.push(goalLine(`${name}: schema median at most ${goal.schemaMedian}x the floor`, medianRatio(schema, "warm"), goal.schemaMedian) + early(medianRatio(schema, "early")));
}

// The whole corpus: the sum over documents of the median of a few runs each, full against the floor. The goal is judged
// on the first pass; the second, once the generated code has met every document's object shapes, shows how much of
// the first is V8 learning them (deoptimizing and compiling again) rather than validation. The first pass comes after
// the subjects above, whose shapes the code has met already, so the gap slightly understates that learning.
const corpusRuns = Math.max(3, Math.round(RUNS / 10));
const documents = listCorpus();
const corpusPass = (): { floor: number; full: number } => {
  let floor = 0;
  let full = 0;
  for (const document of documents) {
    const bytes = new Uint8Array(readFileSync(document.absolutePath));
    floor += measure(corpusRuns, 1, () => void decodeAndParse(bytes)).whole.median;
    full += measure(corpusRuns, 1, () => void validateBytes(bytes, { level: "full" })).whole.median;
  }
  return { floor, full };
};
const firstPass = corpusPass();
const secondPass = corpusPass();
console.log("");
for (const [label, pass] of [["first pass", firstPass], ["second pass", secondPass]] as const) {
  console.log(`whole corpus, ${label} (${documents.length} documents, sum of medians of ${corpusRuns} runs each): floor ${pass.floor.toFixed(1)} ms, full ${pass.full.toFixed(1)} ms (${(pass.full / pass.floor).toFixed(2)}x)`);
}
goals.push(goalLine(`whole corpus: total full at most ${CORPUS_GOAL}x total floor`, firstPass.full / firstPass.floor, CORPUS_GOAL) + ` (second pass: ${(secondPass.full / secondPass.floor).toFixed(2)}x)`);

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
