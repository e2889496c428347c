// Loads the documented schema patches (patches/*.json) and applies them; a patch that no longer applies fails the build.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { applyPatch, PatchError, type PatchOperation } from "./json-patch.js";
import type { JsonSchema } from "./schema-source.js";

export interface SchemaPatch {
  id: string;
  title: string;
  reason: string;
  upstream: string;
  /** Schema file name → RFC 6902 operations on that file. */
  operations: Record<string, PatchOperation[]>;
}

function assertPatchShape(value: unknown, file: string): asserts value is SchemaPatch {
  const patch = value as Partial<SchemaPatch>;
  for (const field of ["id", "title", "reason", "upstream"] as const) {
    if (typeof patch[field] !== "string" || patch[field] === "") throw new PatchError(`${file}: "${field}" must be a non-empty string`);
  }
  if (!/^[a-z0-9][a-z0-9-]*$/.test(patch.id!)) throw new PatchError(`${file}: id "${patch.id}" must be lower-case words joined by hyphens`);
  if (typeof patch.operations !== "object" || patch.operations === null || Object.keys(patch.operations).length === 0) {
    throw new PatchError(`${file}: "operations" must map at least one schema file to its operations`);
  }
}

export function loadPatches(patchesDir: string): SchemaPatch[] {
  const files = readdirSync(patchesDir).filter((name) => name.endsWith(".json")).sort();
  const patches = files.map((name) => {
    const value: unknown = JSON.parse(readFileSync(path.join(patchesDir, name), "utf8"));
    assertPatchShape(value, name);
    return value;
  });
  const ids = new Set<string>();
  for (const patch of patches) {
    if (ids.has(patch.id)) throw new PatchError(`duplicate patch id ${patch.id}`);
    ids.add(patch.id);
  }
  return patches;
}

/** Returns patched deep copies; the inputs stay untouched. */
export function applyPatches(schemas: ReadonlyMap<string, JsonSchema>, patches: readonly SchemaPatch[]): Map<string, JsonSchema> {
  const patched = new Map([...schemas].map(([name, schema]) => [name, structuredClone(schema)]));
  for (const patch of patches) {
    for (const [file, operations] of Object.entries(patch.operations)) {
      const schema = patched.get(file);
      if (!schema) throw new PatchError(`patch ${patch.id} targets ${file}, which is not an input schema`);
      try {
        applyPatch(schema, operations);
      } catch (error) {
        throw new PatchError(`patch ${patch.id} no longer applies to ${file}: ${(error as Error).message}`);
      }
    }
  }
  return patched;
}
