// Which indexes the compiler treats as holding identifiers only (their fragment lookups settle the fragment-link rule),
// and where it keeps the marks of links so settled.
import { describe, expect, it } from "vitest";
import { linkLookedUp, withoutLinkMarks } from "../../compiler/semantic/emit/context.js";
import { identifierIndexes } from "../../compiler/semantic/identifier-indexes.js";
import type { AssemblyDef, FlagDef, KeyField, RawConstraint } from "../../compiler/metaschema/metaschema.js";

const flag = (name: string, asType: string) => ({ name, jsonName: name, def: { kind: "flag", name, contextPath: `m:${name}`, asType, formalName: undefined, description: undefined } as FlagDef });
const assembly = (...flags: ReturnType<typeof flag>[]): AssemblyDef => ({ kind: "assembly", name: "a", useName: "a", contextPath: "m:a", rootName: undefined, flags, children: [], formalName: undefined, description: undefined });
const index = (indexName: string, ...keyFields: KeyField[]) => ({ kind: "index", indexName, keyFields }) as unknown as RawConstraint;
const key = (target: string, pattern?: string): KeyField => ({ target, pattern });

describe("identifierIndexes", () => {
  const definitions = [assembly(flag("id", "token"), flag("uuid", "uuid"))];
  it("takes indexes keyed, whole, by the target's id or uuid", () => {
    const constraints = [index("by-id", key("@id")), index("by-uuid", key("@uuid")), index("by-name", key("@name")), index("by-pattern", key("@id", "x(.*)")), index("two-keys", key("@id"), key("@uuid"))];
    expect([...identifierIndexes(constraints, definitions)].sort()).toEqual(["by-id", "by-uuid"]);
  });
  it("takes an index only when every definition of it is keyed so", () => {
    expect([...identifierIndexes([index("mixed", key("@id")), index("mixed", key("@name"))], definitions)]).toEqual([]);
  });
  it("takes uuid keys only when the walk declares every uuid flag", () => {
    const untyped = [...definitions, assembly(flag("uuid", "string"))];
    expect([...identifierIndexes([index("by-id", key("@id")), index("by-uuid", key("@uuid"))], untyped)]).toEqual(["by-id"]);
  });
});

describe("withoutLinkMarks", () => {
  it("drops every mark but those of the node it keeps", () => {
    const code = `${linkLookedUp("y12")}R.reference(1); ${linkLookedUp("x")}R.reference(2);`;
    expect(withoutLinkMarks(code)).toBe("R.reference(1); R.reference(2);");
    expect(withoutLinkMarks(code, "x")).toBe(`R.reference(1); ${linkLookedUp("x")}R.reference(2);`);
  });
});
