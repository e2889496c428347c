// Whether validating one model slows another in the same process (as in a server), or whether what looks like it is
// warm-up. FedRAMP's SSP template at `full`, from bytes, in fresh processes: on its own, and after 60 runs of the
// SP 800-53 catalog (what bench/semantic.ts runs before it). Each process times the SSP's runs in three stretches:
// runs 1-60 (the stretch bench/semantic.ts measures, 10 warm-up runs and 50 timed), 61-200, and 201-400 (warm).
// Prints the medians of each stretch (median over the processes) and the ratio after-the-catalog / alone.
// Run: npx tsx bench/model-mix.ts   (OSCAL_BENCH_PROCESSES the processes per case, OSCAL_BENCH_CLOCK=cpu times by CPU time)
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { corpusDir } from "../test/helpers/corpus.js";
import { reportOf } from "./subjects.js";
import { CLOCK, measure } from "./timing.js";

const CATALOG = path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
const SSP_TEMPLATE = path.join(corpusDir(), "system-security-plan/fedramp-rev5-ssp-template.json");
const CATALOG_RUNS = 60;
/** Runs per stretch, in order. */
const STRETCHES = [
  { label: "runs 1-60", runs: 60 },
  { label: "runs 61-200", runs: 140 },
  { label: "runs 201-400 (warm)", runs: 200 },
];
const CASES = ["alone", "after the catalog"] as const;
type Case = (typeof CASES)[number];
const PROCESSES = Number(process.env.OSCAL_BENCH_PROCESSES ?? 3);

/** In a fresh process: the median of each stretch of SSP runs, printed as JSON. */
function timeStretches(which: Case): void {
  const full = (bytes: Uint8Array) => void reportOf(bytes, { level: "full" });
  if (which === "after the catalog") {
    const catalog = new Uint8Array(readFileSync(CATALOG));
    for (let i = 0; i < CATALOG_RUNS; i++) full(catalog);
  }
  const ssp = new Uint8Array(readFileSync(SSP_TEMPLATE));
  console.log(JSON.stringify(STRETCHES.map((stretch) => measure(stretch.runs, 0, () => full(ssp)).whole.median)));
}

function spawnCase(which: Case): number[] {
  const here = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [...process.execArgv, here, "--case", which], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`the ${which} process failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1)!) as number[];
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const caseArgument = process.argv.indexOf("--case");
if (caseArgument >= 0) {
  timeStretches(process.argv[caseArgument + 1] as Case);
} else {
  // The cases alternate so that a change in the machine's load falls on both.
  const samples: Record<Case, number[][]> = { alone: [], "after the catalog": [] };
  for (let i = 0; i < PROCESSES; i++) for (const which of CASES) samples[which].push(spawnCase(which));
  console.log(`SSP template at full from bytes, ${PROCESSES} fresh processes per case, medians in ms, node ${process.version}, ${CLOCK}`);
  console.log(`${"".padEnd(22)} ${"alone".padStart(8)} ${"after the catalog".padStart(18)} ${"ratio".padStart(7)}`);
  STRETCHES.forEach((stretch, s) => {
    const alone = median(samples.alone.map((stretches) => stretches[s]!));
    const after = median(samples["after the catalog"].map((stretches) => stretches[s]!));
    console.log(`${stretch.label.padEnd(22)} ${alone.toFixed(2).padStart(8)} ${after.toFixed(2).padStart(18)} ${`${(after / alone).toFixed(2)}x`.padStart(7)}`);
  });
}
