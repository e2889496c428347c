// has-cardinality: the number of target nodes below the context lies within bounds.
import { code, Code } from "../codegen/code.js";
import { parseMetapath } from "../metaschema/metapath.js";
import type { KindEmitter } from "./kind.js";
import { emitTarget } from "../semantic/emit/navigation.js";
import { capitalised, indefinite, joinedWithOr, nodeNoun, nodeNounWithConditions } from "../semantic/emit/plain-words.js";

export const hasCardinality: KindEmitter = {
  kind: "has-cardinality",
  overJson(unit, ref, ctx) {
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
    if (c.minOccurs !== undefined) checks.push(code`if (${count} < ${c.minOccurs}) R.report(${rule}, PL, ${`${context} needs at least ${bound(c.minOccurs)} ${what} (found `} + ${count} + ").");`.toString());
    if (c.maxOccurs !== undefined) checks.push(code`if (${count} > ${c.maxOccurs}) R.report(${rule}, PL, ${`${context} may have at most ${bound(c.maxOccurs)} ${what} (found `} + ${count} + ").");`.toString());
    const range = rangeInWords(c.minOccurs, c.maxOccurs);
    const fix = c.minOccurs !== undefined && c.maxOccurs !== undefined ? `Keep ${range} ${what}.` : c.minOccurs !== undefined ? `Add the missing ${what}.` : `Remove the extra ${what}.`;
    ctx.describeRule(rule, { description: `${context} has ${range} ${what}.`, fix });
    return { reset: "", segments: [{ kind: "code", code: `${counter} = 0;\n${counting}\n${checks.join("\n")}`, enters: [] }], writes: undefined };
  },
  // `t` is the context node (a pack checks this kind once there): the bounds apply to the number of its targets.
  overView: {
    test: (c, t, emit) => code`countWithin(${emit.expr(c.target)}(${t}, s).length, ${c.minOccurs}, ${c.maxOccurs})`,
    defaultMessage: (c, t, description, emit) => code`${`Expected ${rangeInWords(c.minOccurs, c.maxOccurs)}, found `} + ${emit.expr(c.target)}(${t}, s).length + ${`. ${description}`}`,
  },
};

/** A bound as findings say it: "one" for 1. */
const bound = (n: number): string => (n === 1 ? "one" : String(n));

/** The bounds in words: "exactly one", "from 1 to 3", "at least one", "at most 2". */
function rangeInWords(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${bound(min)}` : `from ${min} to ${max}`;
  return min !== undefined ? `at least ${bound(min)}` : `at most ${bound(max!)}`;
}
