// The FedRAMP pack's rules that relate many nodes to many others (`some $uuid in ../../component/@uuid satisfies …`,
// `@uuid = $components/…/@value`, `every $param in $aggregate-parameters satisfies @param-id != $param`, the diagram
// links' resources) do work in proportion to the document, not to the product of its parts: on SSPs of 1k to 8k
// components, each doubling at most doubles the comparisons the engine makes (primitives' comparisonsMade), and every
// rule still passes every target.
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
