// is-unique: the target nodes below one context node have distinct keys.
import { duplicateKeyCheck, perTargetNode, sourceId, type ConstraintEmitter } from "../constraint.js";
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
        duplicateKeyCheck(
          keyExpression(ctx, c, node),
          seen,
          rule,
          (key) => `"Duplicate ${node.label} (${fields}) " + ${key} + " within ${ref.label} [${sourceId(unit)}]"`,
          `if (${seen} === null) ${seen} = new Set(); `,
        ),
      `${seen} = null;`,
      seen,
    );
  },
};
