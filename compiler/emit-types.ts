// TypeScript declarations of each model's document shape, from the patched schema, via json-schema-to-typescript.
import { compile } from "json-schema-to-typescript";
import type { JsonSchema } from "./schema-source.js";

export function documentTypeName(model: string): string {
  return `${model.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase())}Document`;
}

export async function emitModelTypes(model: string, schema: JsonSchema): Promise<string> {
  // The root type takes the name given here only when the schema has no $id or title of its own; the typed entry
  // module imports it under that name.
  const { $id: _id, title: _title, ...root } = structuredClone(schema);
  return compile(root as JsonSchema, documentTypeName(model), {
    bannerComment: `/* Generated from the patched OSCAL schema of the ${model} model. Do not edit. */`,
    additionalProperties: false,
    format: false,
    strictIndexSignatures: true,
    unreachableDefinitions: false,
  });
}
