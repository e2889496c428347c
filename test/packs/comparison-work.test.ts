// The FedRAMP pack's rules that relate many nodes to many others (`some $uuid in ../../component/@uuid satisfies …`,
// `@uuid = $components/…/@value`, `every $param in $aggregate-parameters satisfies @param-id != $param`, the diagram
// links' resources) do work in proportion to the document, not to the product of its parts: on SSPs of 1k to 8k
// components, each doubling at most doubles the comparisons the engine makes (primitives' comparisonsMade), and every
// rule still passes every target. So does oscal-package's statement rule (`@statement-id = $baseline-controls[@id =
// $control]//part/@id`) on a control with ever more parts and statements.
import { describe, expect, it } from "vitest";
import { packModule } from "#generated/packs/index.js";
import type { PackModule } from "../../runtime/packs/engine.js";
import { largeSsp } from "./large-ssp.js";

// The primitives that count are those of the run time the pack's generated module requires.
const pack = packModule("fedramp") as PackModule;
const { comparisonsMade, runPack } = pack.runtime;
const program = pack.runtime.packProgram(pack);
const NOW = new Date("2026-06-01T00:00:00Z");
const SIZES = [1000, 2000, 4000, 8000];
/** Each doubling of the document may double the work, and a little more for what grows with it unevenly (hash sets). */
const DOUBLING_AT_MOST = 2.1;

/** The rules, and how many targets each passes on an SSP of n components. */
const RULES: Record<string, (n: number) => number> = {
  "used-by-link-references-component": (n) => n,
  "non-provider-responsible-role-references-user": () => 1,
  "aggregate-parameters-warning": (n) => n,
  "has-authorization-boundary-diagram-link-href-target": (n) => n,
  "has-data-flow-diagram-link-href-target": (n) => n,
  "has-network-architecture-diagram-link-href-target": (n) => n,
};

const documents = new Map(SIZES.map((n) => [n, largeSsp(n)]));

/** The comparisons of a run of the rules with these constraint ids on an SSP of n components, and their results. */
function measure(constraintIds: readonly string[], n: number) {
  const rules = new Set(program.rules.flatMap((rule, i) => (constraintIds.includes(rule.constraintId) ? [i] : [])));
  const { document, documents: supplied } = documents.get(n)!;
  const before = comparisonsMade();
  const { results } = runPack(program, document, { active: (rule) => rules.has(rule), documents: supplied, now: NOW });
  return { work: comparisonsMade() - before, results: new Map([...rules].map((rule) => [program.rules[rule]!.constraintId, results[rule]])) };
}

function expectLinear(work: readonly number[]): void {
  for (let i = 1; i < work.length; i++) expect(work[i]! / work[i - 1]!, `work by size: ${work.join(", ")}`).toBeLessThanOrEqual(DOUBLING_AT_MOST);
}

describe("comparisons of the fedramp pack on SSPs of 1k to 8k components", () => {
  for (const [constraintId, passes] of Object.entries(RULES)) {
    it(`${constraintId}: linear`, () => {
      const work = SIZES.map((n) => {
        const { work, results } = measure([constraintId], n);
        expect(results.get(constraintId)).toEqual({ pass: passes(n), fail: 0, notEvaluated: 0 });
        return work;
      });
      expectLinear(work);
    });
  }

  it("every rule together: linear", () => {
    expectLinear(SIZES.map((n) => measure(program.rules.map((rule) => rule.constraintId), n).work));
  });
});

describe("comparisons of oscal-package's statement rule on a control of 250 to 2,000 parts", () => {
  const oscalPackage = packModule("oscal-package") as PackModule;
  const statementProgram = oscalPackage.runtime.packProgram(oscalPackage);
  const rule = statementProgram.rules.findIndex((candidate) => candidate.constraintId === "ssp-statement-in-control");
  const uuid = "5a5c1d2e-3f40-4b51-8c62-7d8e9fa0b1c2";
  const metadata = { title: "Parts", "last-modified": "2026-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" };

  /** The comparisons of the rule on an SSP whose one requirement has a statement for each part of its control. */
  function statementWork(parts: number) {
    const ids = Array.from({ length: parts }, (_, i) => `c-1_smt.${i}`);
    const catalog = { catalog: { uuid, metadata, controls: [{ id: "c-1", title: "C 1", parts: [{ id: "c-1_smt", name: "statement", parts: ids.map((id) => ({ id, name: "item" })) }] }] } };
    const requirement = { uuid, "control-id": "c-1", statements: ids.map((id) => ({ "statement-id": id, uuid })) };
    const ssp = { "system-security-plan": { uuid, metadata, "import-profile": { href: "baseline.json" }, "control-implementation": { description: "", "implemented-requirements": [requirement] } } };
    const before = comparisonsMade();
    const { results } = runPack(statementProgram, ssp, { active: (r) => r === rule, documents: { "baseline.json": catalog }, now: NOW });
    expect(results[rule]).toEqual({ pass: parts, fail: 0, notEvaluated: 0 });
    return comparisonsMade() - before;
  }

  it("each statement looks its part up among its control's parts, hashed once for the control: linear", () => {
    expectLinear([250, 500, 1000, 2000].map(statementWork));
  });
});
