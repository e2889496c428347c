// Build entry point: verified NIST schemas + documented patches → generated validators, types, the typed entry module
// and the rule-id manifest. Everything written is a pure function of the inputs: two builds give identical bytes.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildPaths, repoRoot } from "./paths.js";
import { readVerifiedSchemas, verifyMetaschemaDir } from "./schema-source.js";
import { applyPatches, loadPatches } from "./patches.js";
import { MODEL_NAMES, MODEL_SCHEMA_FILES, OSCAL_RELEASE } from "./models.js";
import { validationCopy } from "./schema-walk.js";
import { emitModelValidators } from "./emit-validators.js";
import { emitModelTypes } from "./emit-types.js";
import { emitWrapperModule } from "./emit-wrappers.js";
import { schemaRuleIds } from "./rule-ids.js";
import { buildManifest } from "./manifest.js";
import { emitSemantic } from "./semantic/index.js";
import { loadMetaschema } from "./metaschema/metaschema.js";
import { emitPack, packDefinitions, packEntryModule } from "./packs/index.js";
import { emitJsonWasmModule } from "./json-wasm/emit.js";
import { assertLinearPatterns, formatFunctionPatterns, patternsInBundle, patternsInCode, type EmittedPattern } from "./regex-safety.js";

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

async function main(): Promise<void> {
  const paths = buildPaths();
  const source = readVerifiedSchemas(paths.schemaDir, paths.schemaSumsFile);
  verifyMetaschemaDir(paths.metaschemaDir, paths.metaschemaSumsFile);
  const patches = loadPatches(paths.patchesDir);
  const patched = applyPatches(source.schemas, patches);

  for (const stale of ["validators", "types", "models.js", "models.d.ts", "semantic.cjs", "semantic.d.cts", "packs", "json-wasm.js", "json-wasm.d.ts", "runtime-manifest.json", "manifest.json"]) {
    rmSync(path.join(paths.outDir, stale), { recursive: true, force: true });
  }
  const schemaRules: Record<string, string[]> = {};
  const patterns: EmittedPattern[] = [];
  for (const model of MODEL_NAMES) {
    const schema = patched.get(MODEL_SCHEMA_FILES[model])!;
    const forValidation = validationCopy(schema);
    const validators = emitModelValidators(forValidation);
    for (const [file, code] of [[`${model}.cjs`, validators.fast], [`${model}.collect.cjs`, validators.collecting]] as const) {
      patterns.push(...patternsInCode(code, file), ...formatFunctionPatterns(code, file));
    }
    write(path.join(paths.outDir, "validators", `${model}.cjs`), validators.fast);
    write(path.join(paths.outDir, "validators", `${model}.collect.cjs`), validators.collecting);
    write(path.join(paths.outDir, "types", `${model}.d.ts`), await emitModelTypes(model, schema));
    schemaRules[model] = schemaRuleIds(OSCAL_RELEASE, model, forValidation);
    process.stdout.write(`  ${model}: ${schemaRules[model].length} schema rules\n`);
  }
  const semantic = await emitSemantic({ metaschemaDir: paths.metaschemaDir, outDir: paths.outDir, completeSchema: patched.get("oscal_complete_schema.json")! });
  process.stdout.write(`  semantic layer: ${semantic.rules.length} rules (${semantic.inert.length} that can never report emit no code), ${semantic.notApplicable.length} constraints not applicable\n`);
  patterns.push(...patternsInCode(readFileSync(path.join(paths.outDir, "semantic.cjs"), "utf8"), "semantic.cjs"));
  patterns.push(...(await patternsInBundle(paths.constraintRuntimeSource, repoRoot)));
  const packsDir = path.join(paths.outDir, "packs");
  mkdirSync(packsDir, { recursive: true });
  const { roots } = loadMetaschema(paths.metaschemaDir);
  const packs = packDefinitions().map((definition) => emitPack(definition, roots, packsDir));
  for (const pack of packs) {
    process.stdout.write(`  ${pack.name} pack: ${pack.constraints.compiled} of ${pack.constraints.total} constraints compiled into ${pack.rules.length} rules, ${pack.needsDocuments.length} need other documents\n`);
    patterns.push(...patternsInCode(readFileSync(path.join(packsDir, `${pack.name}.cjs`), "utf8"), `packs/${pack.name}.cjs`));
  }
  const packEntry = packEntryModule(packs.map((pack) => pack.name));
  write(path.join(packsDir, "index.js"), packEntry.js);
  write(path.join(packsDir, "index.d.ts"), packEntry.dts);
  process.stdout.write(`  ${await assertLinearPatterns(patterns)} distinct regular expressions, every one linear-time\n`);
  const wrapper = emitWrapperModule(MODEL_NAMES);
  write(path.join(paths.outDir, "models.js"), wrapper.js);
  write(path.join(paths.outDir, "models.d.ts"), wrapper.dts);
  const jsonWasm = await emitJsonWasmModule();
  write(path.join(paths.outDir, "json-wasm.js"), jsonWasm.js);
  write(path.join(paths.outDir, "json-wasm.d.ts"), jsonWasm.dts);
  const manifest = buildManifest({ release: OSCAL_RELEASE, schemaHashes: source.hashes, patches, schemaRules, semantic, packs });
  write(path.join(paths.outDir, "runtime-manifest.json"), manifest.runtime);
  write(path.join(paths.outDir, "manifest.json"), manifest.manifest);
  process.stdout.write(`generated validators for ${MODEL_NAMES.length} models with ${patches.length} patches into ${paths.outDir}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`build failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
