// Schema-level validation of the full SP 800-53 rev5 catalog against the floor (UTF-8 decode + JSON.parse), against
// what users do today (Ajv compiling the schema at run time) and against an independent validator, plus a cold CLI run.
// Prints the goals (schema at most the floor; a cold CLI at most `node -e 0` + floor + 20 ms) with met / not met.
// Run with `npx tsx bench/core.ts`; OSCAL_BENCH_DOCUMENT picks another document, OSCAL_BENCH_RUNS the number of runs,
// OSCAL_BENCH_SPAWNS the number of cold processes of the CLI, of `node -e 0` and of the cold floor, alternated.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { Validator, type Schema } from "@cfworker/json-schema";
import { validateBytes } from "../runtime/core/validate.js";
import { corpusDir, repoRoot } from "../test/helpers/corpus.js";
import { patchedModelSchemas } from "../test/helpers/patched-schemas.js";
import { decodeAndParse } from "./subjects.js";
import { CLOCK, goalLine, measure, timeSpawns, timeSpawnsAlternated, type Timing } from "./timing.js";

const AjvClass = Ajv.default ?? Ajv;
const addFormatsTo = addFormats.default ?? addFormats;

function main(): void {
  const documentFile = process.env.OSCAL_BENCH_DOCUMENT ?? path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
  const runs = Number(process.env.OSCAL_BENCH_RUNS ?? 40);
  const warmUp = 5;
  const bytes = new Uint8Array(readFileSync(documentFile));
  const catalogSchema = patchedModelSchemas().catalog;
  const parse = (): unknown => decodeAndParse(bytes);

  const check = (valid: boolean, who: string) => {
    if (!valid) throw new Error(`${who} judged ${documentFile} invalid; the benchmark expects a valid catalog`);
  };

  const floor = measure(runs, warmUp, () => void parse()).whole;
  const ours = measure(runs, warmUp, () => {
    const outcome = validateBytes(bytes, { level: "schema" });
    check(outcome.kind === "report" && outcome.report.valid, "validateBytes");
  }).whole;
  const ajvAtRunTime = measure(runs, warmUp, (lap) => {
    const ajv = new AjvClass({ allErrors: false, strict: false });
    addFormatsTo(ajv);
    const validate = ajv.compile(catalogSchema);
    const document = parse();
    const started = performance.now();
    check(validate(document), "Ajv");
    lap(performance.now() - started);
  });
  const cfworker = new Validator(structuredClone(catalogSchema) as Schema, "7", true);
  const reference = measure(runs, warmUp, () => check(cfworker.validate(parse()).valid, "@cfworker/json-schema")).whole;

  const cli = path.join(repoRoot, "dist/runtime/cli/oscal-validate-bin.cjs");
  const spawns = Number(process.env.OSCAL_BENCH_SPAWNS ?? 20);
  const coldFloorArgs = [path.join(repoRoot, "bench/cold-floor.cjs"), documentFile];
  // The CLI and its baselines alternate, so that all are measured in the same state of the machine (without a built
  // CLI, the baselines are timed one after the other).
  const cold = existsSync(cli) ? timeSpawnsAlternated(spawns, { node: ["-e", "0"], floor: coldFloorArgs, cli: [cli, documentFile] }) : undefined;
  const nodeBaseline = cold?.node ?? timeSpawns(spawns, ["-e", "0"]);
  const coldFloor = cold?.floor ?? timeSpawns(spawns, coldFloorArgs);
  const cliCold = cold?.cli;

  const row = (label: string, timing: Timing | undefined, ratio = true) =>
    timing
      ? `${label.padEnd(68)} ${timing.median.toFixed(1).padStart(9)} ${timing.p99.toFixed(1).padStart(9)} ${ratio ? `${(timing.median / floor.median).toFixed(2)}x`.padStart(9) : "".padStart(9)}`
      : `${label.padEnd(68)} ${"n/a".padStart(9)}  (build the CLI: npx tsc -p tsconfig.json)`;
  console.log(`document: ${documentFile} (${(bytes.length / 1e6).toFixed(2)} MB), ${runs} runs after ${warmUp} warm-up runs, node ${process.version}, ${CLOCK} (spawns: wall clock)`);
  console.log(`${"".padEnd(68)} ${"median ms".padStart(9)} ${"p99 ms".padStart(9)} ${"vs floor".padStart(9)}`);
  console.log(row("(a) floor: UTF-8 decode (fatal) + JSON.parse", floor));
  console.log(row("(b) ours: validateBytes, level schema", ours));
  console.log(row("(c) Ajv compiled at run time: compile + decode + parse + validate", ajvAtRunTime.whole));
  console.log(row("    of which validate only", ajvAtRunTime.lap));
  console.log(row("(d) @cfworker/json-schema: decode + parse + validate", reference));
  console.log(row(`cold CLI: oscal-validate-bin.cjs <file>, alternated (${spawns} spawns)`, cliCold, false));
  console.log(row(`node -e 0 (${spawns} spawns)`, nodeBaseline, false));
  console.log(row(`cold floor: a process that reads, decodes and parses (${spawns} spawns)`, coldFloor, false));
  // The cold CLI may cost what a bare Node process costs, plus the floor (decoding and parsing, warm), plus 20 ms.
  const cliBudget = nodeBaseline.median + floor.median + 20;
  console.log("goals:");
  console.log(goalLine("(b) schema at most 1.0x the floor", ours.median / floor.median, 1.0));
  if (cliCold) {
    console.log(goalLine(`cold CLI at most node -e 0 + floor + 20 ms = ${cliBudget.toFixed(0)} ms (measured ${cliCold.median.toFixed(0)} ms; ratio to that budget)`, cliCold.median / cliBudget, 1.0));
    // The budget counts the floor at its warm cost; what a cold process pays for the same work is shown beside it.
    const beyond = (timing: Timing) => `${(timing.median - nodeBaseline.median).toFixed(0)} ms`;
    console.log(`    beyond node -e 0: the cold floor ${beyond(coldFloor)}, the cold CLI ${beyond(cliCold)}, the budget ${(cliBudget - nodeBaseline.median).toFixed(0)} ms`);
  } else console.log("  cold CLI: not measured (build the CLI: npx tsc -p tsconfig.json)");
}

main();
