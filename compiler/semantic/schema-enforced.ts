// Which rules the JSON schema makes unreachable: the semantic layer runs only on documents the schema accepts, so a
// strict allowed-values rule whose list is exactly the enum the schema puts on the same JSON property can never see a
// value outside it, and an is-unique rule over a member the schema allows once can never see two. The rule catalog
// says so instead of showing a failing example that cannot exist.
import { escapePointerToken } from "../json-pointer.js";
import type { JsonSchema } from "../schema-source.js";
import type { RawConstraint } from "../metaschema/metaschema.js";

type SchemaNode = Record<string, unknown>;

/** Calls `visit` with every object property the schema declares: its name, its schema and that schema's JSON Pointer. */
function eachProperty(schema: JsonSchema, visit: (name: string, property: SchemaNode, pointer: string) => void): void {
  const walk = (node: unknown, pointer: string) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach((item, index) => walk(item, `${pointer}/${index}`));
    const properties = (node as SchemaNode).properties;
    if (properties !== null && typeof properties === "object") {
      for (const [name, property] of Object.entries(properties as Record<string, SchemaNode>)) visit(name, property, `${pointer}/properties/${escapePointerToken(name)}`);
    }
    for (const [key, value] of Object.entries(node)) walk(value, `${pointer}/${escapePointerToken(key)}`);
  };
  walk(schema, "");
}

/** Every string enum the schema puts on an object property, with the enum's JSON Pointer, by property name. */
function enumsByProperty(schema: JsonSchema): Map<string, { pointer: string; values: Set<string> }[]> {
  const found = new Map<string, { pointer: string; values: Set<string> }[]>();
  eachProperty(schema, (name, property, propertyPointer) => {
    // The enum binds where it is the property's own or one of the schemas all of which must hold.
    const binding = [{ node: property, at: propertyPointer }, ...(Array.isArray(property.allOf) ? (property.allOf as SchemaNode[]).map((node, index) => ({ node, at: `${propertyPointer}/allOf/${index}` })) : [])];
    for (const { node, at } of binding) {
      const values = node.enum;
      if (Array.isArray(values) && values.every((value) => typeof value === "string")) found.set(name, [...(found.get(name) ?? []), { pointer: at, values: new Set(values as string[]) }]);
    }
  });
  return found;
}

/**
 * Strict allowed-values rules on a flag or field itself (target `.`) whose values are exactly an enum the schema puts on
 * a property of the same name: rule id → the JSON Pointer of that enum in the complete schema (the first, in
 * document order, where several definitions repeat it).
 */
export function schemaEnforcedRules(rules: readonly { id: string; constraint?: RawConstraint }[], completeSchema: JsonSchema): Map<string, string> {
  const enums = enumsByProperty(completeSchema);
  const enforced = new Map<string, string>();
  for (const { id, constraint } of rules) {
    if (constraint?.kind !== "allowed-values" || constraint.allowOther || constraint.target !== ".") continue;
    const { context } = constraint;
    // A flag is a property of its own name; a field with flags keeps its value under another key (not compared here).
    const property = context.kind === "flag" ? context.name : context.kind === "field" && context.valueKey === null ? context.useName : undefined;
    if (property === undefined) continue;
    const values = new Set(constraint.enums.map((e) => e.value));
    const same = enums.get(property)?.find((e) => e.values.size === values.size && [...e.values].every((value) => values.has(value)));
    if (same !== undefined) enforced.set(id, same.pointer);
  }
  return enforced;
}

/**
 * is-unique rules over a member (target: one name, as in `base64`) that every declaration of that JSON property in the
 * complete schema makes a single object, never an array: rule id → the JSON Pointer of the first such declaration.
 */
export function singleMemberRules(rules: readonly { id: string; constraint?: RawConstraint }[], completeSchema: JsonSchema): Map<string, string> {
  const declarations = new Map<string, { pointer: string; single: boolean }[]>();
  eachProperty(completeSchema, (name, property, pointer) => {
    const single = property.type === "object" && property.items === undefined && [property.anyOf, property.oneOf].every((list) => list === undefined);
    declarations.set(name, [...(declarations.get(name) ?? []), { pointer, single }]);
  });
  const single = new Map<string, string>();
  for (const { id, constraint } of rules) {
    if (constraint?.kind !== "is-unique" || !/^[\w-]+$/.test(constraint.target)) continue;
    const declared = declarations.get(constraint.target) ?? [];
    if (declared.length > 0 && declared.every((declaration) => declaration.single)) single.set(id, declared[0]!.pointer);
  }
  return single;
}
