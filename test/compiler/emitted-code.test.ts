// The code the constraint compiler emits for a few representative constraints of each kind, kept as golden files
// (test/compiler/golden/): a change to an emitter shows there as a readable diff of generated code. NIST's constraints
// are the metaschema's own; the pack ones are written here over a small node view. To accept a deliberate change:
// `npx vitest run test/compiler/emitted-code.test.ts -u`, then read the diff before committing it.
import { describe, expect, it } from "vitest";
import { emitPackModule, type SourceConstraint, type SourcePack } from "../../compiler/packs/emit/module.js";
import { loadMetaschema, type ConstraintKind } from "../../compiler/metaschema/metaschema.js";
import { parseMetapath } from "../../compiler/metaschema/metapath.js";
import { buildPaths } from "../../compiler/paths.js";
import type { CompileUnit } from "../../compiler/semantic/emit/context.js";
import { Walk } from "../../compiler/semantic/emit/walk.js";
import { SMALL_PACK_DEFINITIONS } from "../helpers/small-pack.js";

/** NIST constraints by id, per kind: flags and fields, predicates, datatypes, keys, indexes and their references. */
const NIST_EXAMPLES: Record<ConstraintKind, string[]> = {
  "allowed-values": ["oscal-metadata-party-type-values", "oscal-activity-type-values"],
  matches: ["oscal-metadata-telephone-number-regex", "oscal-risk-priority-datatype"],
  expect: ["oscal-component-protocol-port-range-starts-before-end", "oscal-catalog-control-require-statement-when-not-withdrawn"],
  "has-cardinality": ["oscal-activity-type-cardinality"],
  "is-unique": ["oscal-unique-activity-responsible-role"],
  index: ["oscal-system-implementation-component-leveraged-authorization-uuid-index"],
  "index-has-key": ["oscal-system-implementation-component-prop-leveraged-authorization-uuid-index"],
};

describe("code emitted for NIST's constraints", () => {
  const { roots, constraints } = loadMetaschema(buildPaths().metaschemaDir);
  for (const [kind, ids] of Object.entries(NIST_EXAMPLES)) {
    it(`${kind}: ${ids.join(", ")}`, async () => {
      // The index an index-has-key example refers to is compiled with it: the reference needs it.
      const wanted = kind === "index-has-key" ? [...ids, ...NIST_EXAMPLES.index] : ids;
      const chosen = wanted.map((id) => constraints.find((c) => c.id === id && (c.kind === kind || kind === "index-has-key")));
      expect(chosen.every((c) => c !== undefined)).toBe(true);
      const byContext = new Map<CompileUnit["constraint"]["context"], CompileUnit[]>();
      chosen.forEach((constraint, rule) => byContext.set(constraint!.context, [...(byContext.get(constraint!.context) ?? []), { constraint: constraint!, rule }]));
      const walk = new Walk(byContext, new Set(), undefined, new Set());
      const models = [...roots.keys()].sort();
      const visits = walk.visitRoots(models.map((model) => roots.get(model)!));
      expect([...walk.ctx.notApplicable.keys()].map((c) => c.id)).toEqual([]);
      const { declarations, functions } = walk.code();
      const text = `// ${ids.join(", ")}\n${declarations}\n\n${functions}\n\n// roots: ${models.map((model, i) => `${model} ${visits[i]}`).join(", ")}\n`;
      await expect(text).toMatchFileSnapshot(`golden/semantic-${kind}.js`);
    });
  }
});

/** Pack constraints per kind, each in a context of its own, with the expressions packs need and NIST's do not. */
const PACK_EXAMPLES: Record<SourceConstraint["kind"], { context: string; lets?: [string, string][]; constraint: Omit<SourceConstraint, "rule" | "kind" | "target" | "test"> & { target?: string; test?: string } }[]> = {
  expect: [
    { context: "//component", constraint: { test: "exists(prop[@name = 'a']) or @type = 'x'" } },
    { context: "/system-security-plan", lets: [["parties", "metadata/party/@uuid"]], constraint: { test: "every $p in $parties satisfies $p = component/@uuid" } },
    { context: "//component", constraint: { test: "if (@type = 'x') then count(prop) ge 1 else true()" } },
    { context: "//component", constraint: { test: "starts-with(@type, 'x') or substring(@uuid, 2) eq 'a'" } },
  ],
  "allowed-values": [{ context: "//component", constraint: { target: "@type", values: ["x", "y"], allowOther: false } }],
  matches: [{ context: "//component/prop", constraint: { target: "@value", patterns: ["[0-9]+"] } }],
  index: [{ context: "/system-security-plan/metadata", constraint: { target: "party", index: "parties", keys: [{ target: parseMetapath("@uuid") }] } }],
  "index-has-key": [{ context: "//component", constraint: { target: "prop[@name = 'party']", index: "parties", keys: [{ target: parseMetapath("@value") }] } }],
  "is-unique": [{ context: "/system-security-plan", constraint: { target: "component", keys: [{ target: parseMetapath("@uuid") }] } }],
  "has-cardinality": [{ context: "//component", constraint: { target: "prop[@name = 'a']", minOccurs: 1, maxOccurs: 1 } }],
};

describe("code emitted for a pack's constraints", () => {
  for (const [kind, examples] of Object.entries(PACK_EXAMPLES)) {
    it(kind, async () => {
      const withIndex = kind === "index-has-key" ? [...PACK_EXAMPLES.index.map((example) => ({ kind: "index", example })), ...examples.map((example) => ({ kind, example }))] : examples.map((example) => ({ kind, example }));
      const source: SourcePack = {
        name: "golden",
        definitions: SMALL_PACK_DEFINITIONS,
        roots: { "system-security-plan": 0 },
        rules: withIndex.map((_, i) => ({ id: `TST-00${i}.a`, constraintId: `c${i}`, severity: "error", keyword: kind, description: `rule ${i}`, models: ["system-security-plan"] })),
        contexts: withIndex.map(({ kind: exampleKind, example }, i) => ({
          targets: [parseMetapath(example.context)],
          lets: (example.lets ?? []).map(([name, expression]) => ({ name, expr: parseMetapath(expression) })),
          constraints: [
            {
              ...example.constraint,
              rule: exampleKind === "index" ? -1 : i,
              kind: exampleKind as SourceConstraint["kind"],
              target: parseMetapath(example.constraint.target ?? "."),
              test: example.constraint.test === undefined ? undefined : parseMetapath(example.constraint.test),
            },
          ],
        })),
      };
      await expect(emitPackModule(source, `golden: ${kind}`)).toMatchFileSnapshot(`golden/pack-${kind}.js`);
    });
  }
});
