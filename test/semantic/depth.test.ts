// The semantic layer at any nesting depth: parts nested 2,000 deep with a finding at every level ("item" is not a part
// name of a control, nor of the parts below a statement) are all reported with their full pointers, in little memory (a
// finding deep down costs no copy of its path). That the time grows linearly with the depth (2,000 levels in about 8
// times the time of 250; quadratic work would take 64 times) is measured by bench/linear-curves.ts, not timed here.
import { describe, expect, it } from "vitest";
import { getHeapStatistics } from "node:v8";
import { resolveSemanticRules, runSemanticLayer } from "../../runtime/core/semantic.js";
import { catalog } from "./helpers.js";

const resolved = resolveSemanticRules([]);
if (!resolved.ok) throw new Error("the default rules resolve");
const { active } = resolved;

function nestedParts(depth: number): unknown {
  let part: Record<string, unknown> = { id: `p${depth}`, name: "item", prose: "Do it." };
  for (let level = depth - 1; level >= 1; level--) part = { id: `p${level}`, name: "item", parts: [part] };
  return catalog({ controls: [{ id: "c1", title: "Control", parts: [part] }] });
}

describe("semantic layer at depth", () => {
  it("reports at every level of 2,000 nested parts with the full pointer, in little memory", () => {
    runSemanticLayer("catalog", nestedParts(250), active);
    const heapBefore = getHeapStatistics().total_heap_size;
    const findings = runSemanticLayer("catalog", nestedParts(2000), active).issues;
    const heapGrowth = getHeapStatistics().total_heap_size - heapBefore;

    const placement = findings.filter((f) => f.message.startsWith('The part name "item" is not one of the values allowed'));
    // The control's own part fails the constraint on a control's parts too: reported under each.
    expect(placement.length).toBe(2001);
    expect(new Set(placement.map((f) => f.path)).size).toBe(2000);
    const deepest = placement.at(-1)!;
    expect(deepest.path).toBe(`/catalog/controls/0${"/parts/0".repeat(2000)}/name`);
    expect(placement[0]!.path).toBe("/catalog/controls/0/parts/0/name");

    expect(heapGrowth).toBeLessThan(256 * 1024 * 1024);
  });
});
