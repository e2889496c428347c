// The pack code emitter on a small hand-made pack: contexts found by the generated walk and contexts whose targets are
// evaluated give the same nodes, in document order, each once; equalities with many values, hashed, give the outcomes
// of comparing every pair; the generated module loads from a file like the build's, requiring by name the run time
// NIST's generated module requires too, and runs with that module's engine.
import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { emitPackModule, type SourceContext, type SourcePack } from "../../compiler/packs/emit/module.js";
import { parseMetapath } from "../../compiler/metaschema/metapath.js";
import type { PackModule, PackRule } from "../../runtime/packs/engine.js";
import { repoRoot } from "../helpers/corpus.js";
import { SMALL_PACK_DEFINITIONS } from "../helpers/small-pack.js";

const DOCUMENT = {
  "system-security-plan": {
    uuid: "s",
    metadata: { parties: [{ uuid: "p1" }] },
    components: [
      { uuid: "c1", type: "x", props: [{ name: "a", value: "1" }, { name: "b", value: "2" }] },
      { uuid: "c2", type: "y", props: [{ name: "a", value: "3" }] },
      { uuid: "c3", type: "x" },
    ],
  },
};

const rule = (i: number, keyword: string): PackRule => ({ id: `TST-00${i}.a`, constraintId: `c${i}`, severity: "error", keyword, description: `rule ${i}`, models: ["system-security-plan"] });

/** Three contexts, their targets written as given: each checks that its nodes have a prop named "a". */
function pack(targets: string[][]): SourcePack {
  const contexts: SourceContext[] = targets.map((written, i) => ({
    targets: written.map((target) => parseMetapath(target)),
    lets: [],
    constraints: [{ rule: i, kind: "expect", target: parseMetapath("."), test: parseMetapath("exists(prop[@name = 'a']) or @name = 'a'") }],
  }));
  return { name: "test", definitions: SMALL_PACK_DEFINITIONS, roots: { "system-security-plan": 0 }, rules: targets.map((_, i) => rule(i, "expect")), contexts };
}

function run(source: SourcePack, document: unknown = DOCUMENT, active: (rule: number) => boolean = () => true) {
  // In the package, as the build's modules are: package.json's imports resolve the run time's name there.
  const outputs = path.join(repoRoot, "test-output");
  mkdirSync(outputs, { recursive: true });
  const dir = mkdtempSync(path.join(outputs, "pack-emit-"));
  try {
    const file = path.join(dir, "test.cjs");
    writeFileSync(file, emitPackModule(source, "test pack"));
    const module = createRequire(file)(file) as PackModule;
    const { findings, results } = module.runtime.runPack(module.runtime.packProgram(module), document, { active, now: new Date(0) });
    return { text: emitPackModule(source, "test pack"), findings: findings.map((finding) => ({ rule: finding.rule, path: finding.describe().path })), messages: findings.map((finding) => finding.describe().message), results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("generated rule-pack code", () => {
  const walked = pack([["//component"], ["/system-security-plan//prop", "//component/prop"], ["system-security-plan/component", "/system-security-plan/metadata/party"]]);
  // The same targets with a predicate that keeps every node: evaluated from the document node, not walked.
  const evaluated = pack([["//component[true()]"], ["/system-security-plan//prop[true()]", "//component/prop[true()]"], ["system-security-plan/component[true()]", "/system-security-plan/metadata/party[true()]"]]);

  it("finds each context's nodes in one walk, in document order, each once", () => {
    const { text, findings, results } = run(walked);
    // Every context's targets are left to the walk (the constraints here target their context node).
    expect(text).not.toMatch(/targets: (?!undefined)/);
    expect(results).toEqual([
      { pass: 2, fail: 1, notEvaluated: 0 },
      { pass: 2, fail: 1, notEvaluated: 0 },
      { pass: 2, fail: 2, notEvaluated: 0 },
    ]);
    expect(findings).toEqual([
      { rule: 0, path: "/system-security-plan/components/2" },
      { rule: 1, path: "/system-security-plan/components/0/props/1" },
      // Document order follows the definition: metadata's party comes before the components.
      { rule: 2, path: "/system-security-plan/metadata/parties/0" },
      { rule: 2, path: "/system-security-plan/components/2" },
    ]);
  });

  it("walks only towards the contexts of the active rules, with the same outcome for each", () => {
    const all = run(walked);
    for (const rule of [0, 1, 2]) {
      const alone = run(walked, DOCUMENT, (r) => r === rule);
      expect(alone.results[rule]).toEqual(all.results[rule]);
      expect(alone.findings).toEqual(all.findings.filter((finding) => finding.rule === rule));
    }
  });

  it("evaluates targets the walk cannot match, with the same outcome", () => {
    const walkedRun = run(walked);
    const evaluatedRun = run(evaluated);
    expect(evaluatedRun.text).toMatch(/targets: (?!undefined)/);
    expect(evaluatedRun.results).toEqual(walkedRun.results);
    expect(evaluatedRun.findings).toEqual(walkedRun.findings);
  });

  it("requires nothing but the constraint run time, as NIST's module does", () => {
    expect([...emitPackModule(walked, "test pack").matchAll(/\brequire\(([^)]*)\)/g)].map((m) => m[1])).toEqual(['"#runtime/constraints/runtime.cjs"']);
  });

  it("emits the same module for the same pack", () => {
    expect(emitPackModule(walked, "test pack")).toBe(emitPackModule(pack([["//component"], ["/system-security-plan//prop", "//component/prop"], ["system-security-plan/component", "/system-security-plan/metadata/party"]]), "test pack"));
  });

  it("puts the children of nested nodes in document order, walked or evaluated", () => {
    // catalog → groups, controls; a group → groups, controls: the controls of a nested group come before its parent's.
    const definitions: SourcePack["definitions"] = [
      ["a", [], [["group", "groups", 1], ["control", "controls", 2]]],
      ["a", [["id", "id"]], [["group", "groups", 1], ["control", "controls", 2]]],
      ["a", [["id", "id"]], []],
    ];
    const catalog = { catalog: { groups: [{ id: "g1", groups: [{ id: "g2", controls: [{ id: "c2" }] }], controls: [{ id: "c1" }] }] } };
    const nested = (target: string): SourcePack => ({
      name: "test",
      definitions,
      roots: { catalog: 0 },
      rules: [{ ...rule(0, "expect"), models: ["catalog"] }],
      contexts: [{ targets: [parseMetapath(target)], lets: [], constraints: [{ rule: 0, kind: "expect", target: parseMetapath("."), test: parseMetapath("false()") }] }],
    });
    const inOrder = [
      { rule: 0, path: "/catalog/groups/0/groups/0/controls/0" },
      { rule: 0, path: "/catalog/groups/0/controls/0" },
    ];
    expect(run(nested("//group/control"), catalog).findings).toEqual(inOrder);
    expect(run(nested("//group/control[true()]"), catalog).findings).toEqual(inOrder);
  });

  it("hashes equalities of many values with the same outcome as comparing every pair", () => {
    // Ten components; each prop's value names a component's uuid, or none (every third).
    const components = Array.from({ length: 10 }, (_, i) => ({ uuid: `c${i}`, type: "x", props: [{ name: "a", value: i % 3 === 0 ? "none" : `c${(i + 1) % 10}` }] }));
    const document = { "system-security-plan": { uuid: "s", components } };
    // Each rule as the hashed forms take it, and written so that every pair is compared (`and true()` keeps a test
    // from being read as E's atoms against S's, and the general comparison and the filter are spelled out as a `some`
    // and a filter no index serves).
    const tests = (pairwise: boolean) => {
      const wrap = (test: string): string => (pairwise ? `(${test} and true())` : test);
      return [
        `some $u in ../../component/@uuid satisfies ${wrap("$u = @value")}`,
        `every $u in ../../component/@uuid satisfies ${wrap("@value != $u")}`,
        pairwise ? `some $u in ../../component/@uuid satisfies ${wrap("$u = @value")}` : "../../component/@uuid = @value",
        `exists(../../component[${wrap("@uuid = $target")}])`,
      ];
    };
    const written = (pairwise: boolean): SourcePack => ({
      ...pack([]),
      rules: tests(pairwise).map((_, i) => rule(i, "expect")),
      contexts: [
        {
          targets: [parseMetapath("//component/prop")],
          lets: [{ name: "target", expr: parseMetapath("@value") }],
          constraints: tests(pairwise).map((test, i) => ({ rule: i, kind: "expect" as const, target: parseMetapath("."), test: parseMetapath(test) })),
        },
      ],
    });
    const hashed = run(written(false), document);
    const pairwise = run(written(true), document);
    expect(hashed.text).toMatch(/quantifiedEquality\(true,[^]*quantifiedEquality\(false,/);
    expect(pairwise.text).not.toMatch(/quantifiedEquality\(/);
    expect(hashed.results).toEqual(pairwise.results);
    expect(hashed.findings).toEqual(pairwise.findings);
    expect(hashed.results).toEqual([
      { pass: 6, fail: 4, notEvaluated: 0 },
      { pass: 4, fail: 6, notEvaluated: 0 },
      { pass: 6, fail: 4, notEvaluated: 0 },
      { pass: 6, fail: 4, notEvaluated: 0 },
    ]);
  });

  it("checks has-cardinality once per context node, saying the bounds and the count", () => {
    // c1 has props a and b, c2 prop a, c3 none: one, one and no prop named "a".
    const bounded = (minOccurs: number | undefined, maxOccurs: number | undefined, target = "prop[@name = 'a']"): SourcePack => ({
      ...pack([]),
      rules: [rule(0, "has-cardinality")],
      contexts: [{ targets: [parseMetapath("//component")], lets: [], constraints: [{ rule: 0, kind: "has-cardinality", target: parseMetapath(target), minOccurs, maxOccurs }] }],
    });
    const exactlyOne = run(bounded(1, 1));
    expect(exactlyOne.findings).toEqual([{ rule: 0, path: "/system-security-plan/components/2" }]);
    expect(exactlyOne.messages).toEqual(["Expected exactly one, found 0. rule 0"]);
    const atMostOne = run(bounded(undefined, 1, "prop"));
    expect(atMostOne.findings).toEqual([{ rule: 0, path: "/system-security-plan/components/0" }]);
    expect(atMostOne.messages).toEqual(["Expected at most one, found 2. rule 0"]);
    expect(run(bounded(2, undefined, "prop")).messages).toEqual(["Expected at least 2, found 1. rule 0", "Expected at least 2, found 0. rule 0"]);
    expect(run(bounded(1, 2, "prop")).results).toEqual([{ pass: 2, fail: 1, notEvaluated: 0 }]);
  });

  it("keys by several fields as NIST's layer does: an absent field is not an empty one", () => {
    // Components keyed by uuid and type: the first has an empty type, the second none, the third none either.
    const components = [{ uuid: "c", type: "" }, { uuid: "c" }, { uuid: "c" }];
    const document = { "system-security-plan": { uuid: "s", components } };
    const unique: SourcePack = {
      ...pack([]),
      rules: [rule(0, "is-unique")],
      contexts: [
        {
          targets: [parseMetapath("/system-security-plan")],
          lets: [],
          constraints: [{ rule: 0, kind: "is-unique", target: parseMetapath("component"), keys: [{ target: parseMetapath("@uuid") }, { target: parseMetapath("@type") }] }],
        },
      ],
    };
    const { text, results, findings } = run(unique, document);
    expect(text).toContain("KEYN([keyPart(");
    expect(results).toEqual([{ pass: 2, fail: 1, notEvaluated: 0 }]);
    expect(findings).toEqual([{ rule: 0, path: "/system-security-plan/components/2" }]);
  });

  it("keeps the first node of each key of map:merge(nodes ! map:entry(key, .))?* without the map, as the map would", () => {
    const components = [{ uuid: "c1", type: "x" }, { uuid: "c2", type: "y" }, { uuid: "c3", type: "x" }, { uuid: "c4" }, { uuid: "c5", type: "z" }];
    const document = { "system-security-plan": { uuid: "s", components } };
    // `./.` is the node itself too, but not written as `.`: its entries go through a map.
    const merged = (value: string): SourcePack => ({
      ...pack([]),
      rules: [rule(0, "expect")],
      contexts: [{ targets: [parseMetapath(`map:merge(//component ! map:entry(@type, ${value}))?*`)], lets: [], constraints: [{ rule: 0, kind: "expect", target: parseMetapath("."), test: parseMetapath("false()") }] }],
    });
    const direct = run(merged("."), document);
    const throughMap = run(merged("./."), document);
    expect(direct.text).toMatch(/firstOfEachKey\(/);
    expect(throughMap.text).not.toMatch(/firstOfEachKey\(/);
    expect(direct.findings).toEqual(throughMap.findings);
    expect(direct.findings.map((finding) => finding.path)).toEqual([0, 1, 4].map((i) => `/system-security-plan/components/${i}`));
  });

  it("points at items past the millionth of one array", () => {
    // 2^20 + 1 props, the last one failing: a node's position packs its instance number and array index into one
    // number, whose 20 bits for the index were once too few (a 4 MB body holds such an array of one-letter strings).
    const props = Array.from({ length: 0x100001 }, (_, i) => ({ name: i === 0x100000 ? "b" : "a", value: "v" }));
    const wide = { "system-security-plan": { uuid: "s", components: [{ uuid: "c", type: "x", props }] } };
    const source: SourcePack = {
      ...pack([]),
      rules: [rule(0, "expect")],
      contexts: [{ targets: [parseMetapath("//component/prop")], lets: [], constraints: [{ rule: 0, kind: "expect", target: parseMetapath("."), test: parseMetapath("@name = 'a'") }] }],
    };
    expect(run(source, wide).findings).toEqual([{ rule: 0, path: "/system-security-plan/components/0/props/1048576" }]);
  });
});
