// allowed-values: the target's value is one of the enumerated values. Where several constraints reach the same node
// and one of them is strict, the verdict is their union, decided after the walk (SemanticRun.allowed).
import { perTargetNode, sourceId, type ConstraintEmitter } from "../constraint.js";
import { js, type NodeRef } from "../context.js";
import { withAtom } from "../expressions.js";

/** Where an allowed-values constraint applies: the owner definition and flag, or the field definition. */
function siteOf(node: NodeRef): string {
  return node.type.kind === "flag" ? `${node.type.owner.contextPath}/@${node.type.def.name}` : node.type.def.contextPath;
}

export const allowedValues: ConstraintEmitter = {
  kind: "allowed-values",
  compile(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const values = c.enums.map((e) => e.value);
    const set = ctx.stringSet(values);
    let fires = false;
    const compiled = perTargetNode(ctx, unit, ref, (node) => {
      const site = siteOf(node);
      let sites = ctx.avSites.get(site);
      if (!sites) ctx.avSites.set(site, (sites = new Set()));
      sites.add(c);
      const v = ctx.fresh("v");
      fires = fires || ctx.multiSites.has(site) || !c.allowOther;
      if (ctx.multiSites.has(site)) return withAtom(ctx, node, v, `R.allowed(${rule}, ${set}.has(String(${v})), ${node.container}, ${node.key}, ${v}, PL);`);
      if (c.allowOther) return ""; // alone, or with only allow-other="yes" company, it can never be violated
      return withAtom(ctx, node, v, `if (!${set}.has(String(${v}))) R.report(${rule}, PL, "Value " + EX(${v}) + " is not allowed for ${node.label}; allowed: " + ${js(listText(values))} + " [${sourceId(unit)}]");`);
    });
    if (fires) return { ...compiled, repeatsHarmlessly: true };
    // Allows other values at every node it reaches, alone: it can never report, so no loop is emitted for it.
    ctx.inert.add(rule);
    return { reset: "", segments: [], writes: undefined };
  },
};

function listText(values: readonly string[]): string {
  const sorted = [...new Set(values)].sort();
  const shown = sorted.slice(0, 12).map((v) => JSON.stringify(v)).join(", ");
  return sorted.length > 12 ? `${shown}, ... (${sorted.length - 12} more)` : shown;
}
