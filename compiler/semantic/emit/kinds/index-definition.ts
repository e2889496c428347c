// index: the target nodes are entered in a document-wide index under distinct keys, for index-has-key to look up.
import { perTargetNode, sourceId, type ConstraintEmitter } from "../constraint.js";
import { keyExpression } from "../expressions.js";

export const indexDefinition: ConstraintEmitter = {
  kind: "index",
  compile(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const index = ctx.indexVar(c.indexName!);
    const fields = c.keyFields.map((k) => k.target).join(", ");
    return perTargetNode(
      ctx,
      unit,
      ref,
      (node) =>
        `{ const k = ${keyExpression(ctx, c, node)}; if (k !== null) { if (${index}.has(k)) R.report(${rule}, PL, "Duplicate key (${fields}) " + EX(k) + " in index ${c.indexName} [${sourceId(unit)}]"); else ${index}.add(k); } }`,
      "",
      index,
    );
  },
};
