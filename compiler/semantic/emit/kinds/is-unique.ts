// is-unique: the target nodes below one context node have distinct keys.
import { code } from "../../../codegen/code.js";
import { addingOnce, perTargetNode, sourceId, type ConstraintEmitter } from "../constraint.js";
import { keyExpression } from "../expressions.js";

export const isUnique: ConstraintEmitter = {
  kind: "is-unique",
  compile(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    // The keys seen below the current context node: none (null), the first (a string: most contexts have one target,
    // and need no set), or a set once there is a second.
    const seen = ctx.state(`U${rule}`, "null");
    const fields = c.keyFields.map((k) => k.target).join(", ");
    return perTargetNode(
      ctx,
      unit,
      ref,
      (node) => {
        const report = code`R.report(${rule}, PL, ${`Duplicate ${node.label} (${fields}) `} + EX(k) + ${` within ${ref.label} [${sourceId(unit)}]`});`.toString();
        return `{ const k = ${keyExpression(ctx, c, node)}; if (k !== null) { if (${seen} === null) ${seen} = k; else if (typeof ${seen} === "string") { if (${seen} === k) ${report} else ${seen} = new Set([${seen}, k]); } else { ${addingOnce(seen, "k", report)} } } }`;
      },
      `${seen} = null;`,
      seen,
    );
  },
};
