// Systematic, schema-guided mutations of valid documents. The schema tells which property names carry an enumeration
// or a datatype and which names some object requires; the document walk finds where those names occur.
import { schemaLocations } from "../../compiler/schema-walk.js";
import type { JsonSchema } from "../helpers/patched-schemas.js";
import { pointerToken, resolvePointer } from "../helpers/json-pointer.js";
import type { SeededRandom } from "./prng.js";

export const MUTATION_KINDS = ["remove-required", "wrong-type", "outside-enum", "break-pattern", "unknown-property"] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

type JsonObject = Record<string, unknown>;

export interface Mutation {
  kind: MutationKind;
  /** RFC 6901 pointer of the object whose member changes. */
  parent: string;
  key: string;
  /** The new value, or undefined to remove the member. */
  value?: unknown;
}

/** A value of each datatype's base type that its pattern or format rejects. */
const BREAKING_VALUES: Record<string, unknown> = {
  UUIDDatatype: "not-a-uuid",
  TokenDatatype: "1 bad token",
  DateTimeWithTimezoneDatatype: "yesterday",
  DateDatatype: "yesterday",
  URIDatatype: "not a uri",
  URIReferenceDatatype: "http://exa mple.com/a b",
  MarkupLineDatatype: "two\nlines",
  StringDatatype: " padded ",
  Base64Datatype: "not base64!",
  EmailAddressDatatype: "no-at-sign",
  NonNegativeIntegerDatatype: -1,
  PositiveIntegerDatatype: 0,
  IntegerDatatype: 1.5,
};

export const UNKNOWN_PROPERTY = "x-unknown";
const NOT_ALLOWED = "not-an-allowed-value";

export interface SchemaFacts {
  /** Property name → the value that breaks it, for names that mean one thing wherever the schema uses them. */
  breakingValue: Map<string, unknown>;
  /** Property names that carry an enumeration at every use. */
  enumerated: Set<string>;
  /** Property names listed in some `required`. */
  required: Set<string>;
}

type Classification = { kind: "enum" } | { kind: "datatype"; name: string } | { kind: "other" };

export function schemaFacts(schema: JsonSchema): SchemaFacts {
  const definitions = (schema.definitions ?? {}) as Record<string, JsonSchema>;
  const uses = new Map<string, Set<string>>();
  const required = new Set<string>();
  for (const { schema: node } of schemaLocations(schema)) {
    if (Array.isArray(node.required)) for (const name of node.required) required.add(String(name));
    if (typeof node.properties !== "object" || node.properties === null) continue;
    for (const [name, sub] of Object.entries(node.properties as Record<string, JsonSchema>)) {
      const classification = classify(sub, definitions);
      const key = classification.kind === "datatype" ? classification.name : classification.kind;
      uses.set(name, (uses.get(name) ?? new Set()).add(key));
    }
  }
  const breakingValue = new Map<string, unknown>();
  const enumerated = new Set<string>();
  for (const [name, kinds] of uses) {
    if (kinds.size !== 1) continue;
    const [only] = kinds;
    if (only === "enum") enumerated.add(name);
    else if (only! in BREAKING_VALUES) breakingValue.set(name, BREAKING_VALUES[only!]);
  }
  return { breakingValue, enumerated, required };
}

/** What a property's schema restricts it to: an enumeration, a datatype (followed through $ref aliases), or else. */
function classify(schema: JsonSchema, definitions: Record<string, JsonSchema>): Classification {
  const parts = Array.isArray(schema.allOf) ? [schema, ...(schema.allOf as JsonSchema[])] : [schema];
  if (parts.some((part) => Array.isArray(part.enum))) return { kind: "enum" };
  for (let hops = 0, ref = parts.find((part) => typeof part.$ref === "string")?.$ref as string | undefined; ref && hops < 5; hops++) {
    const name = ref.replace("#/definitions/", "");
    if (name.endsWith("Datatype")) return { kind: "datatype", name };
    ref = definitions[name]?.$ref as string | undefined;
  }
  return { kind: "other" };
}

/**
 * Every mutation the facts make possible inside the document's model (the root key itself stays, so that the document
 * still names its model), by kind.
 */
export function candidateMutations(document: Record<string, unknown>, model: string, facts: SchemaFacts): Record<MutationKind, Mutation[]> {
  const candidates = Object.fromEntries(MUTATION_KINDS.map((kind) => [kind, [] as Mutation[]])) as Record<MutationKind, Mutation[]>;
  const visit = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, `${pointer}/${index}`));
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const object = node as JsonObject;
    candidates["unknown-property"].push({ kind: "unknown-property", parent: pointer, key: UNKNOWN_PROPERTY, value: "unexpected" });
    for (const [key, value] of Object.entries(object)) {
      if (facts.required.has(key)) candidates["remove-required"].push({ kind: "remove-required", parent: pointer, key });
      candidates["wrong-type"].push({ kind: "wrong-type", parent: pointer, key, value: valueOfAnotherType(value) });
      if (facts.enumerated.has(key) && typeof value === "string") candidates["outside-enum"].push({ kind: "outside-enum", parent: pointer, key, value: NOT_ALLOWED });
      if (facts.breakingValue.has(key)) candidates["break-pattern"].push({ kind: "break-pattern", parent: pointer, key, value: facts.breakingValue.get(key) });
      visit(value, `${pointer}/${pointerToken(key)}`);
    }
  };
  visit(document[model], `/${pointerToken(model)}`);
  return candidates;
}

/** string → number → string, object ↔ array, boolean → string. */
function valueOfAnotherType(value: unknown): unknown {
  if (typeof value === "string") return 42;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return {};
  return [];
}

export function sampleMutations(document: Record<string, unknown>, model: string, facts: SchemaFacts, random: SeededRandom, perKind: number): Mutation[] {
  const candidates = candidateMutations(document, model, facts);
  return MUTATION_KINDS.flatMap((kind) => random.sample(candidates[kind], perKind));
}

/** Applies the mutation in place and returns the function that undoes it (cheaper than cloning large documents). */
export function applyMutation(document: unknown, mutation: Mutation): () => void {
  const found = resolvePointer(document, mutation.parent);
  if (!found.found) throw new Error(`mutation target ${mutation.parent} does not exist: ${found.reason}`);
  const parent = found.value as JsonObject;
  const had = Object.hasOwn(parent, mutation.key);
  const previous = parent[mutation.key];
  if (mutation.kind === "remove-required") delete parent[mutation.key];
  else parent[mutation.key] = mutation.value;
  return () => {
    if (had) parent[mutation.key] = previous;
    else delete parent[mutation.key];
  };
}

export function describeMutation(mutation: Mutation): string {
  const target = `${mutation.parent}/${mutation.key}`;
  return mutation.kind === "remove-required" ? `${mutation.kind} ${target}` : `${mutation.kind} ${target} = ${JSON.stringify(mutation.value)}`;
}
