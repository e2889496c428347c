// allowed-values: the target's value is one of the enumerated values. Where several constraints reach the same node
// and one of them is strict, the verdict is their union, decided after the walk (SemanticRun.allowed).
import type { KindEmitter } from "./kind.js";
import { code, name } from "../codegen/code.js";
import { type CompileUnit, type EmitContext, type NodeRef } from "../semantic/emit/context.js";
import { parseMetapath } from "../metaschema/metapath.js";
import type { Expr, Step } from "../metaschema/metapath-ast.js";
import { readsVariable, someNode, type SyntaxNode } from "../metaschema/syntax-tree.js";
import { withAtom } from "../semantic/emit/expressions.js";
import { targetSegments } from "../semantic/emit/navigation.js";
import { bare, capitalised, definitionNoun, indefinite, nodeNoun, selectionInWords, theNode } from "../semantic/emit/plain-words.js";

/** How findings of the rule name the value and where it applies: the first node it reaches decides, or, where its nodes
 * are named differently, "the value" and "here". */
function phrasesOf(ctx: EmitContext, rule: number, node: NodeRef): { subject: string; where: string } {
  const selection = selectionInWords(node);
  const phrases = { subject: `The ${nodeNoun(node.type)}`, where: selection === undefined ? "here" : `for ${selection}` };
  const known = ctx.allowedPhrases.get(rule);
  if (known === undefined) ctx.allowedPhrases.set(rule, phrases);
  else if (known.subject !== phrases.subject || known.where !== phrases.where) ctx.allowedPhrases.set(rule, { subject: "The value", where: "here" });
  return ctx.allowedPhrases.get(rule)!;
}

/**
 * What the rule checks and how to fix a finding. `pooled`: other constraints reach the same node, one of them strict,
 * and a value any of them lists is accepted, so a strict rule's list is not all it accepts. An allow-other rule never
 * fails alone: it documents the known values (and, pooled, a strict rule accepts them too).
 */
function ruleWords(unit: CompileUnit, node: NodeRef, pooled: boolean): { description: string; fix: string } {
  const c = unit.constraint;
  const selection = selectionInWords(node);
  const values = [...new Set(c.enums.map((e) => e.value))];
  const listed = values.map((v) => JSON.stringify(v)).join(", ");
  // The context is said unless the node is it, or is a flag of it ("In a property, the name of a property ...").
  const contextIsNode = node.type.def === c.context || (node.type.kind === "flag" && node.type.owner === c.context);
  const within = contextIsNode ? "" : `In ${indefinite(definitionNoun(c.context))}, `;
  const subject = capitalised(`${within}${theNode(node)}`);
  const site = bare(definitionNoun(node.type.kind === "flag" ? node.type.owner : node.type.def));
  const description = c.allowOther
    ? `${subject} has ${values.length === 1 ? `a known value: ${listed}` : `${values.length} known values: ${listed}`}. The rule documents ${values.length === 1 ? "it" : "them"} and never fails alone: ${pooled ? `a stricter rule for the same ${site} accepts ${values.length === 1 ? "it" : "them"} as well as its own values` : "other values are accepted too"}.`
    : `${subject} is ${values.length === 1 ? listed : `one of ${values.length} values: ${listed}`}${pooled ? ` (or a value another rule for the same ${site} allows)` : ""}.`;
  const ownNamespace = node.type.kind === "flag" && node.type.def.name === "name" && selection?.includes("in the OSCAL namespace") ? `, or give ${indefinite(definitionNoun(node.type.owner))} of your own a namespace of your own (ns)` : "";
  return { description, fix: `Use one of the listed values${ownNamespace}.` };
}

/** Where an allowed-values constraint applies: the owner definition and flag, or the field definition. */
function siteOf(node: NodeRef): string {
  return node.type.kind === "flag" ? `${node.type.owner.contextPath}/@${node.type.def.name}` : node.type.def.contextPath;
}

export const allowedValues: KindEmitter = {
  kind: "allowed-values",
  overJson(unit, ref, ctx) {
    const { constraint: c, rule } = unit;
    const values = c.enums.map((e) => e.value);
    const set = ctx.stringSet(values);
    let fires = false;
    // A verdict is the same from any context that reaches the node: a search leaves nested contexts to their own.
    const segments = targetSegments(ctx, parseMetapath(c.target), ref, (node) => {
      const site = siteOf(node);
      let sites = ctx.avSites.get(site);
      if (!sites) ctx.avSites.set(site, (sites = new Set()));
      sites.add(c);
      const v = ctx.fresh("v");
      fires = fires || ctx.multiSites.has(site) || !c.allowOther;
      ctx.describeRule(rule, ruleWords(unit, node, ctx.multiSites.has(site)));
      const { subject, where } = phrasesOf(ctx, rule, node);
      if (ctx.multiSites.has(site)) {
        // A value another constraint of the site will enumerate at this node passes whatever this one says: counted as
        // a match here, it is never recorded as a miss to be cancelled later.
        const enumerated = [`${set}.has(s)`, ...coveringConstraints(ctx, unit, node).map(({ rule: other, set: values }) => `(A[${other}] === 1 && ${values}.has(s))`)];
        return withAtom(ctx, node, v, `{ const s = String(${v}); R.allowed(${rule}, ${enumerated.join(" || ")}, ${node.container}, ${node.key}, ${v}, PL); }`);
      }
      if (c.allowOther) return ""; // alone, or with only allow-other="yes" company, it can never be violated
      const value = name(v);
      const allowed = name(set);
      // The message is the run time's (notOneOf), which the verdicts of several constraints use too.
      return withAtom(ctx, node, v, code`if (!${allowed}.has(String(${value}))) R.report(${rule}, PL, notOneOf(${subject}, EX(${value}), ${where}, allowedList(${allowed})));`.toString());
    }, true);
    if (fires) return { reset: "", segments, writes: undefined };
    // Allows other values at every node it reaches, alone: it can never report, so no loop is emitted for it.
    ctx.inert.add(rule);
    return { reset: "", segments: [], writes: undefined };
  },
  overView: {
    // Other values allowed: every target passes, whatever its value. A pack's constraints are not pooled: FedRAMP's
    // harness reports each on its own.
    test: (c, t, emit) => (c.allowOther ? true : code`valueIn(${t}, ${emit.values()})`),
    // The value found and those allowed, in the words of NIST's layer (runtime/constraints/values.ts notAllowed).
    defaultMessage: (_, t, description, emit) => code`valueNotAllowed(${t}, ${emit.values()}, ${`. ${description}`})`,
  },
};

/**
 * The other allowed-values constraints certain to check the value at `node` too: those whose context is the definition
 * of the node's parent and whose target is the same child step (with the same predicates) and flag, or the same step
 * searched for among all the context's descendants (`.//part[...]/@name`, which meets every child it names too), so
 * that their walk meets the node whenever this constraint does. Only predicates that read the node alone compare: no
 * variables, no positions.
 */
function coveringConstraints(ctx: EmitContext, unit: CompileUnit, node: NodeRef): { rule: number; set: string }[] {
  if (node.type.kind !== "flag" || node.via === undefined || !nodeLocal(node.via.predicates)) return [];
  const { parent, inst, predicates } = node.via;
  const flag = node.type.def.name;
  const wanted = JSON.stringify(predicates);
  return ctx.unitsOf(parent).flatMap((other) => {
    const c = other.constraint;
    if (other === unit || c.kind !== "allowed-values" || ctx.notApplicable.has(c)) return [];
    const target = parseMetapath(c.target);
    if (target.type !== "path" || target.rootDescendant) return [];
    const { steps } = target;
    const fromSelf = steps.length === 3 && steps[0]!.axis === "self" && steps[0]!.predicates.length === 0;
    if (steps.length !== 2 && !fromSelf) return [];
    const [child, last] = (fromSelf ? steps.slice(1) : steps) as [Step, Step];
    const axis = fromSelf ? "descendant" : "child";
    const sameChild = child.axis === axis && child.names.length === 1 && child.names[0] === inst.name && JSON.stringify(child.predicates) === wanted;
    const sameFlag = last.axis === "flag" && last.name === flag && last.predicates.length === 0;
    return sameChild && sameFlag ? [{ rule: other.rule, set: ctx.stringSet(c.enums.map((e) => e.value)) }] : [];
  });
}

function nodeLocal(predicates: readonly Expr[]): boolean {
  const positional = (node: SyntaxNode) => "type" in node && node.type === "call" && (node.name === "position" || node.name === "last");
  return !readsVariable(predicates) && !someNode(predicates, positional) && predicates.every((p) => p.type !== "literal");
}
