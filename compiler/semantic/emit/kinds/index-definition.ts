// index: the target nodes are entered in a document-wide index under distinct keys, for index-has-key to look up.
import { code, Code } from "../../../codegen/code.js";
import { duplicateKeyCheck, perTargetNode, sourceId, type ConstraintEmitter } from "../constraint.js";
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
      (node) => duplicateKeyCheck(keyExpression(ctx, c, node), index, rule, (key) => code`${`Duplicate key (${fields}) `} + ${Code.verbatim(key)} + ${` in index ${c.indexName} [${sourceId(unit)}]`}`.toString()),
      "",
      index,
    );
  },
};
