// Layout of the generated validators: one standalone module per model (what the build emits) against one module
// compiled from the complete schema with a per-model entry point each. Compares size on disk and the time a fresh
// process takes to require the catalog validator alone and all eight. Fast (first-error) validators on both sides; the
// per-model collecting modules, loaded only for failing documents, are listed apart. Run with `npx tsx bench/validator-layout.ts`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone/index.js";
import { MODEL_NAMES, type ModelName } from "../compiler/models.js";
import { validationCopy } from "../compiler/schema-walk.js";
import { corpusDir, repoRoot } from "../test/helpers/corpus.js";
import { patchedSchemas } from "../test/helpers/patched-schemas.js";
import { summarize, type Timing } from "./timing.js";

const AjvClass = Ajv.default ?? Ajv;
const addFormatsTo = addFormats.default ?? addFormats;
const toStandalone = standaloneCode.default ?? standaloneCode;

/** One module exporting a fast validator per model, each the complete schema's oneOf branch for that model. */
function completeSchemaModule(): string {
  const complete = validationCopy(patchedSchemas().get("oscal_complete_schema.json")!);
  const id = complete.$id as string;
  const exports: Record<string, string> = {};
  (complete.oneOf as { required: string[] }[]).forEach((branch, index) => {
    const model = branch.required[0] as ModelName;
    if (!MODEL_NAMES.includes(model)) throw new Error(`complete schema branch ${index} requires ${model}, not a model`);
    exports[model] = `${id}#/oneOf/${index}`;
  });
  // The options the build compiles its fast validators with.
  const ajv = new AjvClass({ allErrors: false, strict: false, messages: false, code: { source: true, lines: false } });
  addFormatsTo(ajv);
  ajv.addSchema(complete);
  // The module lives in a temp directory, outside this package: its requires of Ajv's runtime helpers (ucs2length,
  // ajv-formats) are resolved to absolute paths here.
  const resolveFromRepo = createRequire(path.join(repoRoot, "package.json")).resolve;
  return toStandalone(ajv, exports).replace(/require\("([^"]+)"\)/g, (_, id: string) => `require(${JSON.stringify(resolveFromRepo(id))})`);
}

/** Median of the time `count` fresh node processes take to require `files`, timed inside the child. */
function timeRequire(count: number, files: readonly string[]): Timing {
  const script = "const t=process.hrtime.bigint();for(const f of process.argv.slice(1))require(f);process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))";
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const result = spawnSync(process.execPath, ["-e", script, ...files], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`require failed: ${result.stderr.slice(0, 500)}`);
    samples.push(Number(result.stdout));
  }
  return summarize(samples);
}

/** The complete module must judge like the per-model one: a valid and an invalid catalog, through its catalog entry. */
function assertEntryPointsWork(completeFile: string): void {
  const entry = createRequire(completeFile)(completeFile).catalog as (document: unknown) => boolean;
  const catalog = JSON.parse(readFileSync(path.join(corpusDir(), "catalog/oscal-content-basic-catalog.json"), "utf8"));
  if (!entry(catalog) || entry({ catalog: { ...catalog.catalog, uuid: "not-a-uuid" } })) throw new Error("the complete-schema catalog entry point misjudges");
}

const sizeOf = (files: readonly string[]) => files.reduce((total, file) => total + statSync(file).size, 0);

function main(): void {
  const validatorsDir = path.join(repoRoot, "generated/validators");
  const fastFile = (model: ModelName) => path.join(validatorsDir, `${model}.cjs`);
  const perModel = MODEL_NAMES.map(fastFile);
  const collecting = readdirSync(validatorsDir).filter((name) => name.endsWith(".collect.cjs")).map((name) => path.join(validatorsDir, name));

  const tempDir = mkdtempSync(path.join(tmpdir(), "oscal-layout-"));
  try {
    const completeFile = path.join(tempDir, "complete.cjs");
    writeFileSync(completeFile, completeSchemaModule());
    assertEntryPointsWork(completeFile);
    const spawns = 10;
    const rows: [string, number, Timing, Timing][] = [
      ["per model (generated/validators/<model>.cjs)", sizeOf(perModel), timeRequire(spawns, [fastFile("catalog")]), timeRequire(spawns, perModel)],
    ];
    const completeLoad = timeRequire(spawns, [completeFile]);
    rows.push(["complete schema, one module, 8 entry points", sizeOf([completeFile]), completeLoad, completeLoad]);
    console.log(`fast validators only; require time inside a fresh node ${process.version} process, median (p99) of ${spawns}`);
    console.log(`${"layout".padEnd(48)} ${"size KB".padStart(9)} ${"catalog ms".padStart(18)} ${"all eight ms".padStart(18)}`);
    for (const [label, size, catalog, all] of rows) {
      const cell = (timing: Timing) => `${timing.median.toFixed(1)} (${timing.p99.toFixed(1)})`.padStart(18);
      console.log(`${label.padEnd(48)} ${(size / 1024).toFixed(0).padStart(9)} ${cell(catalog)} ${cell(all)}`);
    }
    console.log(`per-model collecting modules (loaded only for failing documents): ${collecting.length} files, ${(sizeOf(collecting) / 1024).toFixed(0)} KB`);
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}

main();
