// has-cardinality: the number of target nodes below the context lies within bounds.
import { code, Code } from "../../../codegen/code.js";
import { parseMetapath } from "../../../metaschema/metapath.js";
import { sourceId, type ConstraintEmitter } from "../constraint.js";
import { emitTarget } from "../navigation.js";

export const hasCardinality: ConstraintEmitter = {
  kind: "has-cardinality",
  compile(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    // Reports at the context after counting, so it stays one block rather than joining a shared loop.
    const counter = ctx.state(`C${rule}`, "0");
    const counting = emitTarget(ctx, parseMetapath(c.target), ref, { path: false }, () => `${counter}++;`);
    // The target in the message with its double quotes made single, as messages have always shown it.
    const what = c.target.replace(/"/g, "'");
    const count = Code.verbatim(counter);
    const found = ` [${sourceId(unit)}]`;
    const checks: string[] = [];
    if (c.minOccurs !== undefined) checks.push(code`if (${count} < ${c.minOccurs}) R.report(${rule}, PL, ${`Expected at least ${c.minOccurs} of ${what} in ${ref.label}, found `} + ${count} + ${found});`.toString());
    if (c.maxOccurs !== undefined) checks.push(code`if (${count} > ${c.maxOccurs}) R.report(${rule}, PL, ${`Expected at most ${c.maxOccurs} of ${what} in ${ref.label}, found `} + ${count} + ${found});`.toString());
    return { reset: "", segments: [{ kind: "code", code: `${counter} = 0;\n${counting}\n${checks.join("\n")}`, enters: [] }], writes: undefined };
  },
};
