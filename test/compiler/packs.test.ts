// Rule packs at build time: the constraint files must match the pack's recorded sums, and the Metapath parser reads
// the expressions of external constraint files into node types of their own (the NIST compiler rejects them).
import { describe, expect, it } from "vitest";
import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildPaths, repoRoot } from "../../compiler/paths.js";
import { emitPack, packDefinitions } from "../../compiler/packs/index.js";
import { loadMetaschema } from "../../compiler/metaschema/metaschema.js";
import { parseMetapath } from "../../compiler/metaschema/metapath.js";

const fedramp = packDefinitions().find((definition) => definition.name === "fedramp")!;
const constraintsDir = path.resolve(repoRoot, process.env.FEDRAMP_CONSTRAINTS_DIR ?? fedramp.defaultSource);

describe("rule pack sources", () => {
  it("refuses a constraint file whose bytes differ from the pack's sums, naming it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "oscal-pack-"));
    const out = mkdtempSync(path.join(tmpdir(), "oscal-pack-out-"));
    try {
      for (const name of readdirSync(constraintsDir)) copyFileSync(path.join(constraintsDir, name), path.join(dir, name));
      appendFileSync(path.join(dir, "fedramp-external-constraints.xml"), "\n");
      const { roots } = loadMetaschema(buildPaths().metaschemaDir);
      expect(() => emitPack(fedramp, roots, out, { [fedramp.sourceEnv]: dir })).toThrow(/fedramp-external-constraints\.xml does not match its recorded SHA-256/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("Metapath of external constraint files", () => {
  it("parses variables, value comparisons, if, quantifiers, .., *, maps and absolute paths", () => {
    expect(parseMetapath("if ($is-saas) then (count(..//leveraged-authorization) >= 1) else (true())")).toMatchObject({
      type: "if",
      condition: { type: "var", name: "is-saas" },
      then: { type: "cmp", left: { type: "call", name: "count", args: [{ type: "path", steps: [{ axis: "parent" }, { axis: "descendant", names: ["leveraged-authorization"] }] }] } },
    });
    expect(parseMetapath("@rel eq 'diagram'")).toMatchObject({ type: "vcmp", op: "eq" });
    expect(parseMetapath("some $uuid in ../../component/@uuid satisfies $uuid = substring-after(@href, '#')")).toMatchObject({
      type: "quantified",
      quantifier: "some",
      bindings: [{ name: "uuid" }],
    });
    expect(parseMetapath("map:merge(//statement ! map:entry(@statement-id,.))?*")).toMatchObject({
      type: "lookup",
      base: { type: "call", name: "map:merge", args: [{ type: "map", right: { type: "call", name: "map:entry" } }] },
    });
    expect(parseMetapath("/system-security-plan/metadata")).toMatchObject({ type: "path", steps: [{ axis: "root" }, { names: ["system-security-plan"] }, { names: ["metadata"] }] });
    expect(parseMetapath("//security-impact-level//*")).toMatchObject({ steps: [{ axis: "descendant" }, { axis: "any", descendant: true }] });
    expect(parseMetapath("$users[@uuid = $ids]/authorized-privilege")).toMatchObject({ steps: [{ axis: "expr", expr: { type: "var" }, predicates: [{ type: "cmp" }] }, { names: ["authorized-privilege"] }] });
  });

  it("still gives the NIST constraints' expressions the syntax they had", () => {
    expect(parseMetapath("(a|b)[@x='1']/c")).toEqual({
      type: "path",
      rootDescendant: false,
      steps: [
        { axis: "child", names: ["a", "b"], predicates: [{ type: "cmp", op: "=", left: { type: "path", rootDescendant: false, steps: [{ axis: "flag", name: "x", predicates: [] }] }, right: { type: "literal", value: "1" } }] },
        { axis: "child", names: ["c"], predicates: [] },
      ],
    });
  });
});
