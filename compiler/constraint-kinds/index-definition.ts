// index: the target nodes are entered in a document-wide index under distinct keys, for index-has-key to look up.
import { code, Code } from "../codegen/code.js";
import { duplicateKeyCheck, perTargetNode } from "../semantic/emit/constraint.js";
import type { KindEmitter } from "./kind.js";
import { keyExpression } from "../semantic/emit/expressions.js";
import { keyNoun, nodeNounWithConditions } from "../semantic/emit/plain-words.js";

export const indexDefinition: KindEmitter = {
  kind: "index",
  overJson(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const index = ctx.indexVar(c.indexName!);
    let nouns = ctx.indexedNouns.get(c.indexName!);
    if (!nouns) ctx.indexedNouns.set(c.indexName!, (nouns = new Set()));
    const indexed = nouns;
    return perTargetNode(
      ctx,
      unit,
      ref,
      (node) => {
        indexed.add(nodeNounWithConditions(node));
        const item = nodeNounWithConditions(node);
        // The item is named before its key: "the same file name", not "the same Base64's file name".
        const key = keyNoun(c.keyFields, node.type, true);
        const excerpt = c.keyFields.length > 1 ? "EXKEY" : "EX";
        ctx.describeRule(rule, { description: `No two ${nodeNounWithConditions(node, true)} in the document have the same ${key}: references name them by it.`, fix: `Give each ${item} its own ${key}.` });
        return duplicateKeyCheck(keyExpression(ctx, c, node), index, rule, (k) => code`${`This ${item} repeats the ${key} `} + ${Code.verbatim(`${excerpt}(${k})`)} + ${` of an earlier one; references could not tell them apart.`}`.toString());
      },
      "",
      index,
    );
  },
};
