// Schema-derived rule ids: one per assertion keyword at each schema location of a model, in the contract's shape
// nist-schema:<oscal_version>:<model>:<keyword>:<schema_path>:<keyword>. The runtime builds the same string from
// each Ajv error (keyword and absolute schema path), so an id is stable for as long as the patched schema is.
import { schemaLocations } from "./schema-walk.js";
import type { JsonSchema } from "./schema-source.js";

/** Keywords that report errors of their own in Ajv (allOf, $ref and friends only pass on their subschemas' errors). */
const REPORTING_KEYWORDS = [
  "type", "required", "enum", "const", "pattern", "format", "minItems", "maxItems", "uniqueItems", "contains",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
  "minProperties", "maxProperties", "dependencies", "propertyNames", "anyOf", "oneOf", "not", "if",
] as const;

export function schemaRuleId(release: string, model: string, keyword: string, schemaPath: string): string {
  return `nist-schema:${release}:${model}:${keyword}:${schemaPath}:${keyword}`;
}

export function schemaRuleIds(release: string, model: string, schema: JsonSchema): string[] {
  const ids: string[] = [];
  for (const { path, schema: node } of schemaLocations(schema)) {
    for (const keyword of REPORTING_KEYWORDS) {
      if (keyword in node) ids.push(schemaRuleId(release, model, keyword, `${path}/${keyword}`));
    }
    if (node.additionalProperties === false) ids.push(schemaRuleId(release, model, "additionalProperties", `${path}/additionalProperties`));
  }
  return ids.sort();
}
