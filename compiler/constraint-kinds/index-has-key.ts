// index-has-key: every key a target node refers to is in the named index (resolved after the walk).
import { code, jsonLiteral } from "../codegen/code.js";
import { perTargetNode } from "../semantic/emit/constraint.js";
import type { KindEmitter } from "./kind.js";
import { checksFragmentLinks, linkLookedUp } from "../semantic/emit/context.js";
import { referenceKeys } from "../semantic/emit/expressions.js";
import { capitalised, indefinite, keyNoun, nodeNoun, nodeNounWithConditions, theNode } from "../semantic/emit/plain-words.js";

export const indexHasKey: KindEmitter = {
  kind: "index-has-key",
  overJson(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const index = ctx.indexVar(c.indexName!);
    const indexed = ctx.indexedInWords(c.indexName!);
    // The fragment of the node's own href, looked up among identifiers: if it is there, the fragment-link rule of ours
    // would find it declared too; if not, this constraint reports at the node, and that rule never reports a link whose
    // node holds a finding (finishLinks). Either way that rule need not check the link, if the walk visits it next
    // (walk.ts keeps the mark only where it does).
    const [field, ...more] = c.keyFields;
    const looksUpFragment = more.length === 0 && field?.target === "@href" && field.pattern === "#(.*)" && ctx.identifierIndexes.has(c.indexName!);
    return perTargetNode(ctx, unit, ref, (node) => {
      const key = keyNoun(c.keyFields, node.type);
      ctx.describeRule(rule, {
        description: `${capitalised(key === nodeNoun(node.type) ? theNode(node) : `the ${keyNoun(c.keyFields, node.type, true)} of ${indefinite(nodeNounWithConditions(node))}`)} names ${indefinite(indexed)} in the document.`,
        fix: `Change it to name ${indefinite(indexed)} the document has, or add that ${indexed}.`,
      });
      // What the finding says, made after the walk (SemanticRun's referenceMessage) from the key and these two parts.
      const prefix = field?.pattern === undefined ? "" : literalPrefix(field.pattern);
      const parts = [capitalised(`the ${key}`), `names no ${indexed} in this document`, ...(prefix === "" ? [] : [prefix])];
      const label = ctx.constant(jsonLiteral(parts).toString(), "L");
      const keys = referenceKeys(ctx, c, node);
      const settlesLink = looksUpFragment && node.type.kind !== "flag" && checksFragmentLinks(node.type.def);
      const marks = settlesLink ? linkLookedUp(node.v) : "";
      if ("one" in keys) return `${marks}R.reference(${rule}, ${index}, ${keys.one}, PL, ${label});`;
      return `{ const ks = ${keys.many}; for (let j = 0; j < ks.length; j++) R.reference(${rule}, ${index}, ks[j], PL, ${label}); }`;
    });
  },
  overView: {
    // The index was built before any target (see the pack's check function): a key it holds is never null.
    test: (c, t, emit) => code`R.index(${c.index!}).has(${emit.key()}(${t}, s))`,
  },
};

/**
 * The literal text before a key pattern's one capturing group when the group takes the rest (`#` of `#(.*)`, the only
 * form NIST's key fields use), so that a message can put it back in front of the key; "" for any other pattern.
 */
function literalPrefix(pattern: string): string {
  return /^([^\\()[\]{}.*+?^$|]*)\(\.\*\)$/.exec(pattern)?.[1] ?? "";
}
