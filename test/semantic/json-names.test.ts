// The build-time cross-check of JSON names: a property a generated check reads must exist in the JSON schema.
import { describe, it, expect } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkJsonNames } from "../../compiler/semantic/json-names.js";
import { emitSemantic } from "../../compiler/semantic/index.js";
import type { AssemblyDef, FieldDef } from "../../compiler/metaschema/metaschema.js";
import { buildPaths } from "../../compiler/paths.js";
import { readVerifiedSchemas, type JsonSchema } from "../../compiler/schema-source.js";

const { metaschemaDir } = buildPaths();

function inventory(): { root: AssemblyDef; widget: FieldDef } {
  const widget: FieldDef = { kind: "field", name: "widget", useName: "widget", contextPath: "test:widget", asType: "string", flags: [], valueKey: null, formalName: undefined, description: undefined };
  const root: AssemblyDef = {
    kind: "assembly", name: "inventory", useName: "inventory", contextPath: "test:inventory", rootName: "inventory", flags: [], formalName: undefined, description: undefined,
    children: [{ name: "widget", jsonName: "widgets", multiplicity: "array", def: widget }],
  };
  return { root, widget };
}

const schemaWith = (properties: Record<string, unknown>): JsonSchema => ({
  definitions: { inventory: { $id: "#/definitions/inventory", type: "object", properties } },
  oneOf: [{ properties: { inventory: { $ref: "#/definitions/inventory" } } }],
});

describe("JSON name cross-check", () => {
  const { root } = inventory();
  const roots = new Map([["inventory", root]]);
  const reads = [{ owner: root, property: "widgets", by: "constraint widgets-required" }];

  it("accepts a property the schema defines", () => {
    expect(() => checkJsonNames(roots, reads, schemaWith({ widgets: { type: "array", items: { type: "string" } } }))).not.toThrow();
  });

  it("rejects a constraint whose mapped property the schema lacks, naming both", () => {
    expect(() => checkJsonNames(roots, reads, schemaWith({ gadgets: { type: "array" } }))).toThrow(
      /constraint widgets-required reads "widgets" on inventory \(test:inventory\), which the JSON schema definition #\/definitions\/inventory does not define/,
    );
  });

  it("finds properties inside the alternatives of a choice", () => {
    const choice = { type: "object", anyOf: [{ properties: { widgets: {} } }, { properties: { gadgets: {} } }] };
    const schema: JsonSchema = { definitions: { inventory: choice }, oneOf: [{ properties: { inventory: { $ref: "#/definitions/inventory" } } }] };
    expect(() => checkJsonNames(roots, reads, schema)).not.toThrow();
  });

  it("fails the semantic build on the real metaschema when the schema lacks a property its constraints read", async () => {
    const paths = buildPaths();
    const complete = structuredClone(readVerifiedSchemas(paths.schemaDir, paths.schemaSumsFile).schemas.get("oscal_complete_schema.json")!);
    const property = (complete.definitions as Record<string, { properties: Record<string, unknown> }>)["oscal-complete-oscal-metadata:property"]!;
    delete property.properties.ns;
    const outDir = mkdtempSync(path.join(tmpdir(), "semantic-names-"));
    await expect(emitSemantic({ metaschemaDir, outDir, completeSchema: complete })).rejects.toThrow(/constraint oscal-[a-z-]+ \(.*\) reads "ns" on property/);
  });
});
