// Where the build reads its inputs and writes its output. Inputs live outside the repo (../shared by default).
import { fileURLToPath } from "node:url";
import path from "node:path";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface BuildPaths {
  schemaDir: string;
  metaschemaDir: string;
  patchesDir: string;
  schemaSumsFile: string;
  metaschemaSumsFile: string;
  outDir: string;
  /** The source of the run time the generated constraint checks require: its patterns run on documents too. */
  constraintRuntimeSource: string;
}

export function buildPaths(env: NodeJS.ProcessEnv = process.env): BuildPaths {
  const fromRepo = (p: string) => path.resolve(repoRoot, p);
  return {
    schemaDir: fromRepo(env.OSCAL_SCHEMA_DIR ?? "../shared/oscal/1.2.2/json/schema"),
    metaschemaDir: fromRepo(env.OSCAL_METASCHEMA_DIR ?? "../shared/oscal/1.2.2/metaschema"),
    patchesDir: fromRepo("patches"),
    schemaSumsFile: fromRepo("schemas/SHA256SUMS"),
    metaschemaSumsFile: fromRepo("schemas/METASCHEMA.SHA256SUMS"),
    outDir: fromRepo(env.OSCAL_GENERATED_DIR ?? "generated"),
    constraintRuntimeSource: fromRepo("runtime/constraints/runtime.ts"),
  };
}
