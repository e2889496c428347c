// is-unique: the target nodes below one context node have distinct keys.
import { code, Code } from "../codegen/code.js";
import { addingOnce, perTargetNode } from "../semantic/emit/constraint.js";
import type { KindEmitter } from "./kind.js";
import { keyExpression } from "../semantic/emit/expressions.js";
import { keyNoun, nodeNoun, nodeNounWithConditions } from "../semantic/emit/plain-words.js";

export const isUnique: KindEmitter = {
  kind: "is-unique",
  overJson(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    // The keys seen below the current context node: none (null), the first (a string: most contexts have one target,
    // and need no set), or a set once there is a second.
    const seen = ctx.state(`U${rule}`, "null");
    const context = nodeNoun(ref.type);
    return perTargetNode(
      ctx,
      unit,
      ref,
      (node) => {
        const item = nodeNounWithConditions(node);
        // The item is named before its key: "the same file name", not "the same Base64's file name".
        const key = keyNoun(c.keyFields, node.type, true);
        const excerpt = Code.verbatim(c.keyFields.length > 1 ? "EXKEY(k)" : "EX(k)");
        ctx.describeRule(rule, { description: `No two ${nodeNounWithConditions(node, true)} in the same ${context} have the same ${key}.`, fix: `Give each ${item} its own ${key}, or merge the repeated ones.` });
        const report = code`R.report(${rule}, PL, ${`This ${item} repeats the ${key} `} + ${excerpt} + ${` of an earlier one in the same ${context}; each must be unique there.`});`.toString();
        return `{ const k = ${keyExpression(ctx, c, node)}; if (k !== null) { if (${seen} === null) ${seen} = k; else if (typeof ${seen} === "string") { if (${seen} === k) ${report} else ${seen} = new Set([${seen}, k]); } else { ${addingOnce(seen, "k", report)} } } }`;
      },
      `${seen} = null;`,
      seen,
    );
  },
  overView: {
    test: (c, t, emit) => code`R.firstKey(${c.rule}, ${emit.key()}(${t}, s))`,
  },
};
