// Walks a JSON schema and names every location the way Ajv names it in error schema paths ("#/definitions/x/properties/y").
import { escapePointerToken } from "./json-pointer.js";
import type { JsonSchema } from "./schema-source.js";

/** Keywords whose value is a map of name → subschema. */
const SCHEMA_MAPS = new Set(["definitions", "properties", "patternProperties", "dependencies"]);
/** Keywords whose value is a subschema or an array of subschemas. */
const SCHEMA_VALUES = new Set(["items", "additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else", "allOf", "anyOf", "oneOf"]);

export interface SchemaLocation {
  /** Ajv-style schema path of the location, "#" for the root. */
  path: string;
  schema: JsonSchema;
}

export function* schemaLocations(root: JsonSchema): Generator<SchemaLocation> {
  const pending: SchemaLocation[] = [{ path: "#", schema: root }];
  while (pending.length > 0) {
    const location = pending.shift()!;
    yield location;
    for (const [keyword, value] of Object.entries(location.schema)) {
      const base = `${location.path}/${keyword}`;
      if (SCHEMA_MAPS.has(keyword) && isObject(value)) {
        for (const [name, sub] of Object.entries(value)) {
          if (isObject(sub)) pending.push({ path: `${base}/${escapePointerToken(name)}`, schema: sub });
        }
      } else if (SCHEMA_VALUES.has(keyword)) {
        if (Array.isArray(value)) value.forEach((sub, index) => isObject(sub) && pending.push({ path: `${base}/${index}`, schema: sub }));
        else if (isObject(value)) pending.push({ path: base, schema: value });
      }
    }
  }
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const ANNOTATIONS = ["title", "description", "$comment", "examples", "contentEncoding", "contentMediaType"];

/**
 * The copy of a schema that validators are compiled from, validating exactly as the input does:
 * - annotations removed (they only bloat generated code);
 * - the "#/definitions/x" $id aliases dropped from definitions ($ref uses the JSON Pointer anyway);
 * - references to definitions that are nothing but a $ref (many OSCAL fields alias a datatype) pointed at the final
 *   target, because Ajv names errors of an inlined target after the first reference in the chain, a location whose
 *   keywords live elsewhere. After this every error's schema path names where its keyword really is.
 */
export function validationCopy(schema: JsonSchema): JsonSchema {
  const copy = structuredClone(schema);
  const locations = [...schemaLocations(copy)];
  for (const { path, schema: node } of locations) {
    for (const annotation of ANNOTATIONS) delete node[annotation];
    if (path !== "#") delete node.$id;
  }
  const definitions = (copy.definitions ?? {}) as Record<string, JsonSchema>;
  const finalTarget = (ref: string): string => {
    const seen = new Set<string>();
    let current = ref;
    for (;;) {
      const match = /^#\/definitions\/([^/]+)$/.exec(current);
      const target = match ? definitions[match[1]!] : undefined;
      const isAlias = target !== undefined && Object.keys(target).length === 1 && typeof target.$ref === "string";
      if (!isAlias || seen.has(current)) return current;
      seen.add(current);
      current = target.$ref as string;
    }
  };
  for (const { schema: node } of locations) {
    if (typeof node.$ref === "string") node.$ref = finalTarget(node.$ref);
  }
  return copy;
}
