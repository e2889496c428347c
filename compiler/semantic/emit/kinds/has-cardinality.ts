// has-cardinality: the number of target nodes below the context lies within bounds.
import { code, Code } from "../../../codegen/code.js";
import { parseMetapath } from "../../../metaschema/metapath.js";
import type { ConstraintEmitter } from "../constraint.js";
import { emitTarget } from "../navigation.js";
import { capitalised, indefinite, joinedWithOr, nodeNoun, nodeNounWithConditions } from "../plain-words.js";

export const hasCardinality: ConstraintEmitter = {
  kind: "has-cardinality",
  compile(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    // Reports at the context after counting, so it stays one block rather than joining a shared loop.
    const counter = ctx.state(`C${rule}`, "0");
    const counted: string[] = [];
    const counting = emitTarget(ctx, parseMetapath(c.target), ref, { path: false }, (node) => {
      counted.push(nodeNounWithConditions(node));
      return `${counter}++;`;
    });
    const what = joinedWithOr(counted);
    const context = capitalised(indefinite(nodeNoun(ref.type)));
    const count = Code.verbatim(counter);
    const checks: string[] = [];
    const bound = (n: number) => (n === 1 ? "one" : String(n));
    if (c.minOccurs !== undefined) checks.push(code`if (${count} < ${c.minOccurs}) R.report(${rule}, PL, ${`${context} needs at least ${bound(c.minOccurs)} ${what} (found `} + ${count} + ").");`.toString());
    if (c.maxOccurs !== undefined) checks.push(code`if (${count} > ${c.maxOccurs}) R.report(${rule}, PL, ${`${context} may have at most ${bound(c.maxOccurs)} ${what} (found `} + ${count} + ").");`.toString());
    const range = c.minOccurs !== undefined && c.maxOccurs !== undefined ? (c.minOccurs === c.maxOccurs ? `exactly ${bound(c.minOccurs)}` : `from ${c.minOccurs} to ${c.maxOccurs}`) : c.minOccurs !== undefined ? `at least ${bound(c.minOccurs)}` : `at most ${bound(c.maxOccurs!)}`;
    const fix = c.minOccurs !== undefined && c.maxOccurs !== undefined ? `Keep ${range} ${what}.` : c.minOccurs !== undefined ? `Add the missing ${what}.` : `Remove the extra ${what}.`;
    ctx.describeRule(rule, { description: `${context} has ${range} ${what}.`, fix });
    return { reset: "", segments: [{ kind: "code", code: `${counter} = 0;\n${counting}\n${checks.join("\n")}`, enters: [] }], writes: undefined };
  },
};
