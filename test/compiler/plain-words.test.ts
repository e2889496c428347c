// The words findings and rule descriptions are written in: nouns from the metaschema's formal names, the predicates
// that selected a node said in words only where that is simple, tests of expect constraints as requirements.
import { describe, expect, it } from "vitest";
import { parseMetapath } from "../../compiler/metaschema/metapath.js";
import type { AssemblyDef, FieldDef, FlagDef } from "../../compiler/metaschema/metaschema.js";
import { conditionsInWords, definitionNoun, flagNoun, indefinite, plural, requirementInWords, selectionInWords, theNode } from "../../compiler/semantic/emit/plain-words.js";

const flag = (name: string, formalName?: string): FlagDef => ({ kind: "flag", name, contextPath: `m:@${name}`, asType: "string", formalName, description: undefined });
const assembly = (name: string, formalName: string | undefined, flags: FlagDef[] = [], children: AssemblyDef[] = []): AssemblyDef => ({
  kind: "assembly", name, useName: name, contextPath: `m:${name}`, rootName: undefined, formalName, description: undefined,
  flags: flags.map((def) => ({ name: def.name, jsonName: def.name, def })),
  children: children.map((def) => ({ name: def.name, jsonName: `${def.name}s`, multiplicity: "array" as const, def })),
});
const predicates = (target: string) => {
  const path = parseMetapath(target);
  if (path.type !== "path") throw new Error(target);
  return path.steps[0]!.predicates;
};

describe("plain words", () => {
  it("makes a formal name a common noun, keeping acronyms and shortening UUIDs", () => {
    expect(definitionNoun(flag("uuid", "Resource Universally Unique Identifier"))).toBe("resource UUID");
    expect(definitionNoun(assembly("system-security-plan", "System Security Plan (SSP)"))).toBe("system security plan (SSP)");
    expect(definitionNoun(flag("uuid", "Diagram ID"))).toBe("diagram ID");
    expect(definitionNoun(flag("media-type"))).toBe("media type");
  });

  it("names a flag alone where its formal name names its owner, else with its owner's", () => {
    const property = assembly("property", "Property");
    expect(flagNoun(flag("name", "Property Name"), property)).toBe("property name");
    expect(flagNoun(flag("id", "Group Identifier"), assembly("group", "Control Group"))).toBe("group identifier");
    expect(flagNoun(flag("href", "Hypertext Reference"), assembly("link", "Link"))).toBe("link's hypertext reference");
  });

  it("puts the article people say, none before a plural or mass noun", () => {
    expect(["activity", "UUID", "IPv4 address", "user", "resource"].map(indefinite)).toEqual(["an activity", "a UUID", "an IPv4 address", "a user", "a resource"]);
    expect(["local definitions", "system characteristics", "document metadata", "system information", "status", "address", "group as-is"].map(indefinite)).toEqual([
      "local definitions", "system characteristics", "document metadata", "system information", "a status", "an address", "a group as-is",
    ]);
  });

  it("makes plurals of the last word, and of a word English has none for, entries", () => {
    expect(["responsible role", "party", "address", "diagram ID", "Base64", "POA&M item"].map(plural)).toEqual(["responsible roles", "parties", "addresses", "diagram IDs", "Base64 entries", "POA&M items"]);
  });

  it("names a flag with its owner's noun once", () => {
    const part = assembly("part", "Part", [flag("name", "Part Name")]);
    const node = { type: { kind: "flag" as const, def: part.flags[0]!.def, owner: part }, conditions: ["in the OSCAL namespace"] };
    expect(theNode(node)).toBe("the name of a part in the OSCAL namespace");
    expect(flagNoun(flag("order", "Order"), assembly("insert-controls", "Insert Controls"))).toBe("order of insert controls");
  });

  it("says simple predicates in words, namespaces last, and gives up on any other", () => {
    expect(conditionsInWords(predicates("prop[has-oscal-namespace('http://csrc.nist.gov/ns/oscal') and @name=('a','b')]"))).toEqual(['with name "a" or "b"', "in the OSCAL namespace"]);
    expect(conditionsInWords(predicates("link[@rel='diagram' and not(starts-with(@href,'#'))]"))).toEqual(['with rel "diagram" whose href does not start with "#"']);
    expect(conditionsInWords(predicates("facet[@system='s' and @name='n']"))).toEqual(['with system "s" and name "n"']);
    expect(conditionsInWords(predicates("prop[@name='x' and count(link) > 1]"))).toBeNull();
    const property = { type: { kind: "flag" as const, def: flag("value", "Property Value"), owner: assembly("property", "Property") } };
    expect(selectionInWords({ ...property, conditions: null })).toBeUndefined();
    expect(selectionInWords({ ...property, conditions: ["in the OSCAL namespace"] })).toBe("a property in the OSCAL namespace");
  });

  it("says an expect test as a requirement where it is simple, and nothing where it is not", () => {
    const title: FieldDef = { kind: "field", name: "title", useName: "title", contextPath: "m:title", asType: "markup-line", flags: [], valueKey: null, formalName: "Resource Title", description: undefined };
    const resource = assembly("resource", "Resource", [flag("media-type", "Media Type")]);
    resource.children.push({ name: "title", jsonName: "title", multiplicity: "single", def: title });
    const type = { kind: "assembly" as const, def: resource };
    expect(requirementInWords(parseMetapath("title"), type)).toBe("have a resource title");
    expect(requirementInWords(parseMetapath("not(exists(@media-type))"), type)).toBe("have no media type");
    expect(requirementInWords(parseMetapath("not(@method='merge')"), type)).toBe('not have method "merge"');
    expect(requirementInWords(parseMetapath("count(title) > 1"), type)).toBeUndefined();
  });
});
