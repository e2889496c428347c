// index-has-key: every key a target node refers to is in the named index (resolved after the walk).
import { perTargetNode, type ConstraintEmitter } from "../constraint.js";
import { js } from "../context.js";
import { referenceKeys } from "../expressions.js";

export const indexHasKey: ConstraintEmitter = {
  kind: "index-has-key",
  compile(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const index = ctx.indexVar(c.indexName!);
    const fields = c.keyFields.map((k) => k.target).join(", ");
    return perTargetNode(ctx, unit, ref, (node) => {
      const label = `${node.label} (${fields}) refers to a key missing from index ${c.indexName}:`;
      const keys = referenceKeys(ctx, c, node);
      if ("one" in keys) return `R.reference(${rule}, ${index}, ${keys.one}, PL, ${js(label)});`;
      return `{ const ks = ${keys.many}; for (let j = 0; j < ks.length; j++) R.reference(${rule}, ${index}, ks[j], PL, ${js(label)}); }`;
    });
  },
};
