// expect: a Metapath test holds at every target node.
import { code } from "../codegen/code.js";
import { parseMetapath } from "../metaschema/metapath.js";
import { perTargetNode } from "../semantic/emit/constraint.js";
import type { KindEmitter } from "./kind.js";
import { js } from "../semantic/emit/context.js";
import { compileBoolean } from "../semantic/emit/expressions.js";
import { capitalised, indefinite, nodeNoun, nodeNounWithConditions, requirementInWords } from "../semantic/emit/plain-words.js";

export const expect: KindEmitter = {
  kind: "expect",
  overJson(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const test = parseMetapath(c.test!);
    const must = c.level === "ERROR" || c.level === "CRITICAL" ? "must" : "should";
    return perTargetNode(ctx, unit, ref, (node) => {
      // NIST's own message where it has one; else the test in words, or the constraint's formal name.
      const requirement = requirementInWords(test, node.type);
      const statement = requirement === undefined ? undefined : `${capitalised(indefinite(nodeNounWithConditions(node)))} ${must} ${requirement}.`;
      const unmet = c.formalName === undefined ? "a requirement of the OSCAL model; the rule catalog describes it" : `this requirement of the OSCAL model: ${c.formalName}`;
      // NIST's messages say what is wrong but not where: the finding's node is named after it.
      const own = c.message === undefined ? undefined : `${c.message.replace(/\.$/, "")} (${nodeNoun(node.type)}).`;
      const negative = requirement !== undefined && /^(?:not |have no )/.test(requirement);
      const message = own ?? (statement === undefined ? `The ${nodeNoun(node.type)} does not meet ${unmet}.` : `${statement} This one ${negative ? "does" : "does not"}.`);
      const fix = requirement !== undefined ? `Make the ${nodeNounWithConditions(node)} ${requirement}.` : c.message === undefined ? undefined : `Meet the requirement: ${c.message}`;
      ctx.describeRule(rule, { description: statement ?? c.message ?? c.formalName ?? `The ${nodeNoun(node.type)} meets a requirement of the OSCAL model.`, ...(fix === undefined ? {} : { fix }) });
      return `if (!(${compileBoolean(ctx, test, node)})) R.report(${rule}, PL, ${js(message)});`;
    });
  },
  overView: {
    test: (c, t, emit) => code`effectiveBoolean(${emit.expr(c.test!)}(${t}, s))`,
  },
};
