// The patched NIST schemas, built with the compiler's own functions: what the generated validators were compiled from,
// given here to other implementations (the agreement test, the benchmarks) so that both sides judge by the same schema.
import { buildPaths } from "../../compiler/paths.js";
import { readVerifiedSchemas, type JsonSchema } from "../../compiler/schema-source.js";
import { applyPatches, loadPatches } from "../../compiler/patches.js";
import { MODEL_NAMES, MODEL_SCHEMA_FILES, type ModelName } from "../../compiler/models.js";

export type { JsonSchema };

/** Schema file name → patched schema, as the build sees it. */
export function patchedSchemas(): Map<string, JsonSchema> {
  const paths = buildPaths();
  const source = readVerifiedSchemas(paths.schemaDir, paths.schemaSumsFile);
  return applyPatches(source.schemas, loadPatches(paths.patchesDir));
}

/** The patched schema of each model. */
export function patchedModelSchemas(): Record<ModelName, JsonSchema> {
  const schemas = patchedSchemas();
  return Object.fromEntries(MODEL_NAMES.map((model) => [model, schemas.get(MODEL_SCHEMA_FILES[model])!])) as Record<ModelName, JsonSchema>;
}
