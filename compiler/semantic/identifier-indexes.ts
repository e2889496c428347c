// Which indexes hold identifiers only: a #fragment found in one of them names an identifier the document declares, so
// the index-has-key constraints looking fragments up there also settle our fragment-link rule (compiler/constraint-kinds/index-has-key.ts).
import type { Definition, RawConstraint } from "../metaschema/metaschema.js";

/**
 * Indexes every key of which is an identifier the walk declares for fragment links (ours:fragment-href declares every
 * `id` flag, and every `uuid` flag of the uuid datatype): every definition of the index keys its targets by one of
 * those flags, whole.
 */
export function identifierIndexes(constraints: readonly RawConstraint[], definitions: Iterable<Definition>): Set<string> {
  const owners = [...definitions].filter((def) => def.kind !== "flag");
  const uuidsDeclared = owners.every((owner) => owner.flags.every((flag) => flag.name !== "uuid" || flag.def.asType === "uuid"));
  const keyedByIdentifier = (c: RawConstraint) => {
    const [field, ...rest] = c.keyFields;
    return field !== undefined && rest.length === 0 && field.pattern === undefined && (field.target === "@id" || (uuidsDeclared && field.target === "@uuid"));
  };
  const indexes = constraints.filter((c) => c.kind === "index");
  return new Set(indexes.filter((c) => indexes.every((d) => d.indexName !== c.indexName || keyedByIdentifier(d))).map((c) => c.indexName!));
}
