// expect: a Metapath test holds at every target node.
import { parseMetapath } from "../../../metaschema/metapath.js";
import { perTargetNode, sourceId, type ConstraintEmitter } from "../constraint.js";
import { js } from "../context.js";
import { compileBoolean } from "../expressions.js";

export const expect: ConstraintEmitter = {
  kind: "expect",
  compile(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const test = parseMetapath(c.test!);
    const message = c.message ?? `Expected ${c.test} to hold`;
    return perTargetNode(ctx, unit, ref, (node) => `if (!(${compileBoolean(ctx, test, node)})) R.report(${rule}, PL, ${js(`${message} (${node.label}) [${sourceId(unit)}]`)});`);
  },
};
