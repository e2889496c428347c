// matches: the target's value matches a regular expression and/or the lexical pattern of a datatype.
import { code, Code, joinCode } from "../codegen/code.js";
import { datatypePattern } from "../metaschema/datatypes.js";
import { perTargetNode } from "../semantic/emit/constraint.js";
import type { KindEmitter } from "./kind.js";
import { withAtom } from "../semantic/emit/expressions.js";
import { capitalised, datatypeInWords, indefinite, nodeNoun, selectionInWords, theNode } from "../semantic/emit/plain-words.js";

const OR = Code.verbatim(" || ");

export const matches: KindEmitter = {
  kind: "matches",
  overJson(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const patterns = [...(c.regex === undefined ? [] : [c.regex]), ...(c.datatype === undefined ? [] : [datatypePattern(c.datatype)])];
    const fails = joinCode(
      patterns.map((pattern) => code`!${ctx.regex(pattern, c.key)}.test(s)`),
      OR,
    );
    const datatype = c.datatype === undefined ? undefined : datatypeInWords(c.datatype);
    return perTargetNode(ctx, unit, ref, (node) => {
      const selection = selectionInWords(node);
      const forWhat = selection === undefined ? "" : ` for ${selection}`;
      // "is not a valid date for a property with name ...: write it as YYYY-MM-DD."
      const expected = [datatype ? `is not a valid ${datatype.name}${c.regex ? "" : forWhat}` : "", c.regex ? (forWhat === "" ? `does not match the required pattern ${c.regex}` : `does not match the pattern ${c.regex} required${forWhat}`) : ""].filter(Boolean).join(" or ");
      const form = datatype?.form === undefined ? "" : `: write it as ${datatype.form}`;
      const noun = nodeNoun(node.type);
      ctx.describeRule(rule, {
        description: `${capitalised(theNode(node))} is ${[datatype ? indefinite(datatype.name) : "", c.regex ? `text matching the pattern ${c.regex}` : ""].filter(Boolean).join(" and ")}.`,
        fix: datatype?.form === undefined ? "Correct the value so that the whole of it matches the pattern." : `Write the value as ${datatype.form}.`,
      });
      return withAtom(ctx, node, "v", code`const s = String(v); if (${fails}) R.report(${rule}, PL, ${`The ${noun} `} + EX(s) + ${` ${expected}${form}.`});`.toString());
    });
  },
  overView: {
    test: (_, t, emit) => code`valueMatches(${t}, ${emit.patterns()})`,
  },
};
