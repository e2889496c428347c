// is-unique: the target nodes below one context node have distinct keys.
import { perTargetNode, sourceId, type ConstraintEmitter } from "../constraint.js";
import { keyExpression } from "../expressions.js";

export const isUnique: ConstraintEmitter = {
  kind: "is-unique",
  compile(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const seen = ctx.state(`U${rule}`, "null");
    const fields = c.keyFields.map((k) => k.target).join(", ");
    return perTargetNode(
      ctx,
      unit,
      ref,
      (node) =>
        `{ const k = ${keyExpression(ctx, c, node)}; if (k !== null) { if (${seen} === null) ${seen} = new Set(); if (${seen}.has(k)) R.report(${rule}, PL, "Duplicate ${node.label} (${fields}) " + EX(k) + " within ${ref.label} [${sourceId(unit)}]"); else ${seen}.add(k); } }`,
      `${seen} = null;`,
      seen,
    );
  },
};
