// The cost of placing findings at a line and column: validateBytes (which locates the reported findings) against the
// same parse and validation without locating, on the corpus catalog with the most findings (found at start), in the
// same run (not part of the tests). Goal: at most 1.3x.
// Run: npx tsx bench/locate.ts   (OSCAL_BENCH_FILE picks another document, OSCAL_BENCH_RUNS the number of runs)
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseBody } from "../runtime/core/body.js";
import { jsonLocator, withLocations } from "../runtime/core/locate.js";
import { resolveOptions, validateBytes, validateParsed, type ValidationOutcome } from "../runtime/core/validate.js";
import { listCorpus, readCorpusBytes } from "../test/helpers/corpus.js";
import { measure, summarize } from "./timing.js";

const RUNS = Number(process.env.OSCAL_BENCH_RUNS ?? 30);
const WARM_UP = 5;

function report(outcome: ValidationOutcome) {
  if (outcome.kind !== "report") throw new Error(`the benchmark expects a document with a model: ${outcome.kind}`);
  return outcome.report;
}

/** validateBytes as it was before findings were located: resolve the options, parse, validate. */
function validateWithoutLocations(bytes: Uint8Array): ValidationOutcome {
  const resolved = resolveOptions({ level: "schema" });
  const parsed = parseBody(bytes);
  if (!resolved.ok || !parsed.ok) throw new Error("the benchmark expects a well-formed document");
  return validateParsed(parsed.document, resolved.options);
}

function mostFindingsCatalog(): { file: string; bytes: Uint8Array; issueCount: number } {
  let best: { file: string; bytes: Uint8Array; issueCount: number } = { file: "", bytes: new Uint8Array(), issueCount: -1 };
  for (const document of listCorpus().filter((entry) => entry.model === "catalog")) {
    const bytes = readCorpusBytes(document);
    const { issueCount } = report(validateWithoutLocations(bytes));
    if (issueCount > best.issueCount) best = { file: document.absolutePath, bytes, issueCount };
  }
  return best;
}

const chosen = process.env.OSCAL_BENCH_FILE
  ? { file: process.env.OSCAL_BENCH_FILE, bytes: new Uint8Array(readFileSync(process.env.OSCAL_BENCH_FILE)), issueCount: Number.NaN }
  : mostFindingsCatalog();
const { bytes } = chosen;
const located = report(validateBytes(bytes));
const unlocated = report(validateWithoutLocations(bytes));
const placed = located.issues.filter((issue) => issue.line !== undefined).length;

// Interleaved, so that the load of a shared machine weighs on both alike.
const samplesWithout: number[] = [];
const samplesWith: number[] = [];
for (let i = 0; i < WARM_UP + RUNS; i++) {
  for (const [run, samples] of [[() => validateWithoutLocations(bytes), samplesWithout], [() => validateBytes(bytes), samplesWith]] as const) {
    const started = performance.now();
    run();
    if (i >= WARM_UP) samples.push(performance.now() - started);
  }
}
const without = summarize(samplesWithout);
const withLocating = summarize(samplesWith);
const locatingAlone = measure(RUNS, WARM_UP, () => void withLocations(unlocated.issues, jsonLocator(bytes))).whole;

console.log(`${RUNS} runs after ${WARM_UP} warm-up runs, node ${process.version}`);
console.log(
  `${path.basename(chosen.file)}: ${(bytes.length / 1e6).toFixed(2)} MB, ${located.issueCount} findings, ${located.issues.length} reported, ${placed} placed`,
);
console.log(`${"".padEnd(40)} ${"median ms".padStart(9)} ${"p99 ms".padStart(9)}`);
const row = (label: string, timing: { median: number; p99: number }) => console.log(`${label.padEnd(40)} ${timing.median.toFixed(1).padStart(9)} ${timing.p99.toFixed(1).padStart(9)}`);
row("validate without locations", without);
row("validateBytes (locates the findings)", withLocating);
row("locating alone", locatingAlone);
console.log(`ratio, medians: ${(withLocating.median / without.median).toFixed(2)}x; locating alone over validating: ${((without.median + locatingAlone.median) / without.median).toFixed(2)}x (goal: at most 1.3x)`);
