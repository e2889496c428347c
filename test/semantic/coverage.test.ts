// Every NIST constraint is compiled under a rule id, or listed as not applicable with a reason;
// the generated module is deterministic.
import { describe, it, expect } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildPaths } from "../../compiler/paths.js";
import { emitSemantic } from "../../compiler/semantic/index.js";
import { loadMetaschema } from "../../compiler/metaschema/metaschema.js";
import { patchedSchemas } from "../helpers/patched-schemas.js";

const { metaschemaDir } = buildPaths();
const completeSchema = patchedSchemas().get("oscal_complete_schema.json")!;

describe("semantic compiler coverage", async () => {
  const outA = mkdtempSync(path.join(tmpdir(), "semantic-a-"));
  const outB = mkdtempSync(path.join(tmpdir(), "semantic-b-"));
  const result = await emitSemantic({ metaschemaDir, outDir: outA, completeSchema });
  await emitSemantic({ metaschemaDir, outDir: outB, completeSchema });
  const { constraints } = loadMetaschema(metaschemaDir);
  const code = readFileSync(path.join(outA, "semantic.cjs"), "utf8");
  const table = new Map(
    readFileSync(new URL("../../compiler/semantic/rule-ids.tsv", import.meta.url), "utf8")
      .split("\n")
      .filter((l) => l && !l.startsWith("#"))
      .map((l) => l.split("\t").reverse() as [string, string]),
  );

  it("accounts for every constraint in the metaschema", () => {
    expect(constraints.length).toBeGreaterThan(330);
    const compiledIds = new Set(result.rules.map((r) => r.id));
    const notApplicable = new Set(result.notApplicable.map((n) => `${n.source}|${n.kind}`));
    for (const c of constraints) {
      const applicable = table.has(c.key) && compiledIds.has(table.get(c.key)!);
      const listed = notApplicable.has(`${c.id ?? c.key}|${c.kind}`);
      expect(applicable !== listed, c.key).toBe(true);
    }
    expect(result.rules.filter((r) => !r.source.startsWith("ours:")).length + result.notApplicable.length).toBe(constraints.length);
  });

  it("gives every not-applicable constraint a reason", () => {
    for (const n of result.notApplicable) expect(n.reason.length, n.source).toBeGreaterThan(10);
  });

  it("emits code behind the switch of every rule that can report, and none for the rules that cannot", () => {
    // allowed-values with allow-other="yes" that is alone at every node it reaches accepts every value: no code.
    const inert = new Set(result.inert);
    expect(inert.size).toBeGreaterThan(0);
    result.rules.forEach((rule, index) => {
      expect(code.includes(`A[${index}] === 1`), rule.id).toBe(!inert.has(rule.id));
      if (inert.has(rule.id)) expect(rule.description, rule.id).toContain("never fails alone: other values are accepted too");
    });
  });

  it("covers every constraint kind", () => {
    const kinds = new Set(result.rules.map((r) => r.keyword));
    for (const kind of ["allowed-values", "matches", "index", "is-unique", "index-has-key", "has-cardinality", "expect"]) expect(kinds).toContain(kind);
  });

  it("is deterministic and requires nothing but the constraint run time", () => {
    expect(readFileSync(path.join(outB, "semantic.cjs"), "utf8")).toBe(code);
    expect(code).not.toMatch(/^\s*import\s/m);
    expect([...code.matchAll(/\brequire\(([^)]*)\)/g)].map((m) => m[1])).toEqual(['"#runtime/constraints/runtime.cjs"']);
    expect(code).not.toContain(metaschemaDir);
  });
});
