// matches: the target's value matches a regular expression and/or the lexical pattern of a datatype.
import { datatypePattern } from "../../../metaschema/datatypes.js";
import { perTargetNode, sourceId, type ConstraintEmitter } from "../constraint.js";
import { withAtom } from "../expressions.js";

export const matches: ConstraintEmitter = {
  kind: "matches",
  compile(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const checks: string[] = [];
    if (c.regex !== undefined) checks.push(`!${ctx.regex(c.regex, c.key)}.test(s)`);
    if (c.datatype !== undefined) checks.push(`!${ctx.regex(datatypePattern(c.datatype), c.key)}.test(s)`);
    const expected = [c.regex ? `the pattern ${c.regex}` : "", c.datatype ? `the ${c.datatype} datatype` : ""].filter(Boolean).join(" and ");
    return perTargetNode(ctx, unit, ref, (node) =>
      withAtom(ctx, node, "v", `const s = String(v); if (${checks.join(" || ")}) R.report(${rule}, PL, "Value " + EX(s) + " of ${node.label} does not match ${expected.replace(/"/g, '\\"')} [${sourceId(unit)}]");`),
    );
  },
};
