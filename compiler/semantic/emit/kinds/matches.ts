// matches: the target's value matches a regular expression and/or the lexical pattern of a datatype.
import { code, Code, joinCode } from "../../../codegen/code.js";
import { datatypePattern } from "../../../metaschema/datatypes.js";
import { perTargetNode, sourceId, type ConstraintEmitter } from "../constraint.js";
import { withAtom } from "../expressions.js";

const OR = Code.verbatim(" || ");

export const matches: ConstraintEmitter = {
  kind: "matches",
  compile(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const patterns = [...(c.regex === undefined ? [] : [c.regex]), ...(c.datatype === undefined ? [] : [datatypePattern(c.datatype)])];
    const fails = joinCode(
      patterns.map((pattern) => code`!${ctx.regex(pattern, c.key)}.test(s)`),
      OR,
    );
    const expected = [c.regex ? `the pattern ${c.regex}` : "", c.datatype ? `the ${c.datatype} datatype` : ""].filter(Boolean).join(" and ");
    return perTargetNode(ctx, unit, ref, (node) =>
      withAtom(ctx, node, "v", code`const s = String(v); if (${fails}) R.report(${rule}, PL, "Value " + EX(s) + ${` of ${node.label} does not match ${expected} [${sourceId(unit)}]`});`.toString()),
    );
  },
};
