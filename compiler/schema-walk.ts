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
 * The copy of a schema that validators are compiled from: annotations removed (they only bloat generated code) and the
 * "#/definitions/x" aliases dropped from definitions ($ref uses the JSON Pointer anyway), so the result validates exactly
 * as the input does.
 */
export function validationCopy(schema: JsonSchema): JsonSchema {
  const copy = structuredClone(schema);
  for (const { path, schema: node } of schemaLocations(copy)) {
    for (const annotation of ANNOTATIONS) delete node[annotation];
    if (path !== "#") delete node.$id;
  }
  return copy;
}
