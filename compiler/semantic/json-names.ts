// Build-time cross-check of the metaschema → JSON name mapping (group-as, use-name, json-value-key, flags as
// properties): every JSON property the generated checks read must exist in the NIST JSON schema definition
// that describes the same node. A wrongly mapped name would otherwise make a check silently see nothing.
import type { JsonSchema } from "../schema-source.js";
import type { AssemblyDef, FieldDef } from "../metaschema/metaschema.js";
import type { Navigation } from "./emit/context.js";

type SchemaNode = Record<string, unknown>;

function definitionOf(schema: JsonSchema, node: SchemaNode): SchemaNode {
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  const match = /^#\/definitions\/(.+)$/.exec(ref);
  const target = match ? (schema.definitions as Record<string, SchemaNode> | undefined)?.[match[1]!] : undefined;
  if (!target) throw new Error(`JSON schema: unresolvable $ref ${ref}`);
  return definitionOf(schema, target);
}

function subschemas(node: SchemaNode): SchemaNode[] {
  return [node.anyOf, node.oneOf, node.allOf].flatMap((list) => (Array.isArray(list) ? (list as SchemaNode[]) : []));
}

function isObjectSchema(node: SchemaNode): boolean {
  return node.type === "object" || node.properties !== undefined;
}

/** The object schemas of a property's values: through $ref, array items and singleton-or-array alternatives. */
function objectSchemas(schema: JsonSchema, node: SchemaNode): SchemaNode[] {
  const resolved = definitionOf(schema, node);
  if (isObjectSchema(resolved)) return [resolved];
  const items = typeof resolved.items === "object" && resolved.items !== null ? [resolved.items as SchemaNode] : [];
  return [...items, ...subschemas(resolved)].flatMap((part) => objectSchemas(schema, part));
}

/** Properties an object may have: a choice in the model is an alternative (anyOf) holding its own properties. */
function propertiesOf(schema: JsonSchema, node: SchemaNode): Map<string, SchemaNode> {
  const resolved = definitionOf(schema, node);
  const out = new Map(Object.entries((resolved.properties ?? {}) as Record<string, SchemaNode>));
  for (const part of subschemas(resolved)) for (const [name, property] of propertiesOf(schema, part)) out.set(name, property);
  return out;
}

function describeNode(node: SchemaNode): string {
  return typeof node.$id === "string" ? node.$id : typeof node.title === "string" ? `"${node.title}"` : "an inline definition";
}

/** Throws, naming each reader and property, when a navigated property is missing from the schema. */
export function checkJsonNames(roots: ReadonlyMap<string, AssemblyDef>, navigations: readonly Navigation[], completeSchema: JsonSchema): void {
  // Pair each metaschema definition with the schema nodes of the same JSON values, walking both from the roots.
  const nodesOf = new Map<AssemblyDef | FieldDef, Set<SchemaNode>>();
  const pending: [AssemblyDef | FieldDef, SchemaNode][] = [];
  const reach = (def: AssemblyDef | FieldDef, node: SchemaNode) => {
    const resolved = definitionOf(completeSchema, node);
    let nodes = nodesOf.get(def);
    if (!nodes) nodesOf.set(def, (nodes = new Set()));
    if (nodes.has(resolved)) return;
    nodes.add(resolved);
    pending.push([def, resolved]);
  };
  const documentShapes = Array.isArray(completeSchema.oneOf) ? (completeSchema.oneOf as SchemaNode[]) : [completeSchema];
  for (const [rootName, root] of roots) {
    const property = documentShapes.map((shape) => propertiesOf(completeSchema, shape).get(rootName)).find((p) => p !== undefined);
    if (!property) throw new Error(`JSON name cross-check: the JSON schema has no document root "${rootName}"`);
    reach(root, property);
  }
  while (pending.length > 0) {
    const [def, node] = pending.pop()!;
    if (def.kind !== "assembly") continue;
    const properties = propertiesOf(completeSchema, node);
    for (const child of def.children) {
      const property = properties.get(child.jsonName);
      if (!property) continue; // reported below if any check reads it
      for (const value of objectSchemas(completeSchema, property)) reach(child.def, value);
    }
  }

  const problems: string[] = [];
  for (const { owner, property, by } of navigations) {
    const nodes = [...(nodesOf.get(owner) ?? [])];
    if (nodes.length === 0) {
      problems.push(`${by} reads "${property}" on ${owner.name} (${owner.contextPath}), which matches no object in the JSON schema`);
      continue;
    }
    for (const node of nodes) {
      if (!propertiesOf(completeSchema, node).has(property)) {
        problems.push(`${by} reads "${property}" on ${owner.name} (${owner.contextPath}), which the JSON schema definition ${describeNode(node)} does not define`);
      }
    }
  }
  if (problems.length > 0) {
    throw new Error(`JSON name cross-check failed: ${problems.length} propert${problems.length === 1 ? "y is" : "ies are"} read but not in the JSON schema:\n  ${[...new Set(problems)].join("\n  ")}`);
  }
}
