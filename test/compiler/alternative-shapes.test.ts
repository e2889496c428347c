// An alternative between object forms hands the run time its branches' declared and required members, so it can tell
// which form a value meant; alternatives between other kinds of schema hand over nothing.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { alternativeShapes, withBranchErrorCounts } from "../../compiler/emit-validators.js";
import type { CollectingValidators } from "../../generated/models.js";

describe("alternativeShapes", () => {
  it("lists each object form's members by the anyOf's schema path, and skips other alternatives", () => {
    const schema = {
      definitions: {
        group: { anyOf: [{ properties: { title: {}, groups: {} }, required: ["title"] }, { properties: { title: {}, controls: {} } }] },
        rel: { anyOf: [{ $ref: "#/definitions/token" }, { enum: ["reference"] }] },
      },
    };
    expect([...alternativeShapes(schema)]).toEqual([
      ["#/definitions/group/anyOf", [{ declares: ["title", "groups"], requires: ["title"] }, { declares: ["title", "controls"], requires: [] }]],
    ]);
  });

  it("adds them to the anyOf error of that schema path only", () => {
    const anyOf = (path: string) =>
      `let valid1 = false;const _errs2 = errors;var _valid0 = _errs2 === errors;valid1 = valid1 || _valid0;const _errs3 = errors;var _valid0 = _errs3 === errors;valid1 = valid1 || _valid0;if(!valid1){const err4 = {instancePath,schemaPath:"${path}",keyword:"anyOf",params:{}};}`;
    const shapes = new Map([["#/a/anyOf", [{ declares: ["x"], requires: [] }, { declares: ["y"], requires: ["y"] }]]]);
    expect(withBranchErrorCounts(anyOf("#/a/anyOf"), shapes)).toContain('params:{branchErrors: valid1Branches, branchShapes: [{"declares":["x"],"requires":[]},{"declares":["y"],"requires":["y"]}]}');
    expect(withBranchErrorCounts(anyOf("#/b/anyOf"), shapes)).toContain("params:{branchErrors: valid1Branches}}");
  });

  it("the generated catalog validators hand a failed group its two forms", () => {
    const collecting = createRequire(import.meta.url)("../../generated/validators/catalog.collect.cjs") as CollectingValidators;
    const metadata = { title: "T", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" };
    collecting.collect({ catalog: { uuid: "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b", metadata, groups: [{ title: "G", groups: [], controls: [] }] } });
    const alternative = (collecting.collect.errors ?? []).find((error) => error.keyword === "anyOf" && error.instancePath === "/catalog/groups/0");
    const shapes = alternative!.params.branchShapes as { declares: string[] }[];
    expect(shapes.map((shape) => shape.declares.filter((name) => name === "groups" || name === "controls"))).toEqual([["groups"], ["controls"]]);
  });
});
