// The semantic layer stays linear in document size at any nesting depth: a finding deep down costs no copy of its
// path. Parts nested 2,000 deep with a finding at every level ("item" is not a part name of a control, nor of the parts
// below a statement) run in
// about 8 times the time of 250 levels (quadratic work would take 64 times), in little memory.
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

function fastest(depth: number): { ms: number; findings: ReturnType<typeof runSemanticLayer>["issues"] } {
  const document = nestedParts(depth);
  let best = Number.POSITIVE_INFINITY;
  let findings = runSemanticLayer("catalog", document, active).issues;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    findings = runSemanticLayer("catalog", document, active).issues;
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, findings };
}

describe("semantic layer at depth", () => {
  it("reports at every level of 2,000 nested parts with the full pointer, in time linear in depth", () => {
    const shallow = fastest(250);
    const heapBefore = getHeapStatistics().total_heap_size;
    const deep = fastest(2000);
    const heapGrowth = getHeapStatistics().total_heap_size - heapBefore;

    const placement = deep.findings.filter((f) => f.message.startsWith('Value "item" is not allowed'));
    expect(placement.length).toBe(2000);
    const deepest = placement.at(-1)!;
    expect(deepest.path).toBe(`/catalog/controls/0${"/parts/0".repeat(2000)}/name`);
    expect(placement[0]!.path).toBe("/catalog/controls/0/parts/0/name");

    expect(deep.ms).toBeLessThan(2000);
    expect(deep.ms / Math.max(shallow.ms, 2)).toBeLessThan(24);
    expect(heapGrowth).toBeLessThan(256 * 1024 * 1024);
  });
});
