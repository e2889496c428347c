// Metapath expressions compiled to JavaScript expressions on a node: atomised values, booleans (comparisons, and/or,
// existence, the functions the OSCAL constraints call) and index keys.
import { COMPARATORS } from "../../codegen/constraint-runtime.js";
import type { RawConstraint } from "../../metaschema/metaschema.js";
import { parseMetapath, type Expr, type Step } from "../../metaschema/metapath.js";
import { someNode } from "../../metaschema/syntax-tree.js";
import { js, nodeName, NotApplicable, type EmitContext, type NodeRef } from "./context.js";
import { emitTarget } from "./navigation.js";

const OSCAL_NAMESPACE = "http://csrc.nist.gov/ns/oscal";

/**
 * The one node `expr` selects (a JS expression of its raw JSON value, to atomise), a literal, or undefined when `expr`
 * may yield several values.
 */
function singleOperand(ctx: EmitContext, expr: Expr, ref: NodeRef): { literal: string } | { node: string } | undefined {
  if (expr.type === "literal") return { literal: js(expr.value) };
  if (expr.type !== "path" || expr.rootDescendant || expr.steps.length !== 1) return undefined;
  const step = expr.steps[0]!;
  if (step.predicates.length > 0) return undefined;
  if (step.axis === "self") return { node: nodeValue(ctx, ref) };
  if (step.axis === "flag" && ref.type.kind !== "flag") {
    const inst = ref.type.def.flags.find((f) => f.name === step.name);
    if (!inst) throw new NotApplicable(`target names no existing node: ${ref.type.def.name} has no flag @${step.name}`);
    return { node: `${ref.v}${ctx.member(ref.type.def, inst.jsonName)}` };
  }
  return undefined;
}

/** JS expression: the single atomised value of `expr` (or undefined), when `expr` yields at most one value. */
export function singleValue(ctx: EmitContext, expr: Expr, ref: NodeRef): string | undefined {
  const operand = singleOperand(ctx, expr, ref);
  if (operand === undefined) return undefined;
  return "literal" in operand ? operand.literal : `AT(${operand.node})`;
}

/** Like singleValue, as a string: AS atomises by itself, so the node goes to it directly. */
function singleString(ctx: EmitContext, expr: Expr, ref: NodeRef): string | undefined {
  const operand = singleOperand(ctx, expr, ref);
  if (operand === undefined) return undefined;
  if ("literal" in operand) return `AS(${operand.literal})`;
  const read = `AS(${operand.node})`;
  // A member of the node (a flag, a field's value), which other conditions on the same node may read too.
  if (operand.node !== ref.v) ctx.noteStringRead(ref.v, read);
  return read;
}

/** JS expression: the atomic value of the node (undefined when it has none). */
export function atomOf(ctx: EmitContext, ref: NodeRef): string {
  return `AT(${nodeValue(ctx, ref)})`;
}

/** Statements running `code` with the node's atomic value in `name`, when it has one (known, when already checked). */
export function withAtom(ctx: EmitContext, ref: NodeRef, name: string, code: string): string {
  if (ref.atomic === true) return `{ const ${name} = ${ref.v}; ${code} }`;
  return `{ const ${name} = ${atomOf(ctx, ref)}; if (${name} !== undefined) { ${code} } }`;
}

/** JS expression: the raw JSON value holding the node's atomic value. */
function nodeValue(ctx: EmitContext, ref: NodeRef): string {
  if (ref.type.kind === "flag") return ref.v;
  if (ref.type.kind === "field") return ref.type.def.valueKey === null ? ref.v : `${ref.v}${ctx.member(ref.type.def, ref.type.def.valueKey)}`;
  throw new Error(`an assembly (${ref.type.def.name}) has no atomic value`);
}

/** JS expression: an array of all atomised values of `expr`. */
function values(ctx: EmitContext, expr: Expr, ref: NodeRef): string {
  const single = singleValue(ctx, expr, ref);
  if (single !== undefined) return `SEQ(${single})`;
  if (expr.type === "sequence") {
    if (!expr.items.every((i) => i.type === "literal")) throw new Error("only literal sequences are supported");
    return ctx.constant(js(expr.items.map((i) => (i as { value: unknown }).value)), "L");
  }
  return `${pathFunction(ctx, expr, ref, "values")}(${ref.v})`;
}

/**
 * A generated function of the node evaluating a path (no path stack): whether it selects anything, its values, or
 * whether one of its values, as a string, is in the set named by `among`.
 */
function pathFunction(ctx: EmitContext, expr: Expr, ref: NodeRef, kind: "exists" | "values" | { among: string }): string {
  // One function per distinct path, node type and use, however many constraints evaluate it.
  const site = ref.type.kind === "flag" ? `${ref.type.owner.contextPath}/@${ref.type.def.name}` : ref.type.def.contextPath;
  const use = typeof kind === "string" ? kind : `among ${kind.among}`;
  const key = `${use}|${ref.type.kind}:${site}|${JSON.stringify(expr)}`;
  const known = ctx.pathFunctions.get(key);
  if (known !== undefined) return known;
  const name = ctx.fresh(kind === "values" ? "V_" : "Q");
  const arg: NodeRef = { ...ref, v: "n", atomic: false };
  if (someNode(expr, (node) => "axis" in node && node.axis === "descendant")) throw new Error(`a // step inside a predicate or test is not supported: ${JSON.stringify(expr)}`);
  let body: string;
  if (kind === "exists") body = `${emitTarget(ctx, expr, arg, { path: false }, () => "return true;")}\nreturn false;`;
  else if (kind === "values") body = `const out = [];\n${emitTarget(ctx, expr, arg, { path: false }, (node) => `{ const a = ${atomOf(ctx, node)}; if (a !== undefined) out.push(a); }`)}\nreturn out;`;
  else body = `${emitTarget(ctx, expr, arg, { path: false }, (node) => `if (${kind.among}.has(AS(${nodeValue(ctx, node)}))) return true;`)}\nreturn false;`;
  ctx.functions.push(`function ${name}(n) {\n${body}\n}`);
  ctx.pathFunctions.set(key, name);
  return name;
}

/** The strings of a string literal or of a sequence of them, else undefined. */
function stringLiterals(expr: Expr): string[] | undefined {
  const items = expr.type === "sequence" ? expr.items : [expr];
  return items.every((i) => i.type === "literal" && typeof i.value === "string") ? items.map((i) => (i as { value: string }).value) : undefined;
}

/** JS expression: the effective boolean value of `expr` on the node. */
export function compileBoolean(ctx: EmitContext, expr: Expr, ref: NodeRef): string {
  switch (expr.type) {
    case "and":
    case "or":
      return `(${expr.items.map((i) => compileBoolean(ctx, i, ref)).join(expr.type === "and" ? " && " : " || ")})`;
    case "cmp": {
      const left = singleString(ctx, expr.left, ref);
      const right = expr.right;
      if (left !== undefined && (expr.op === "=" || expr.op === "!=") && right.type === "literal") {
        return expr.op === "=" ? `(${left} === ${js(String(right.value))})` : `NE(${left}, ${js(String(right.value))})`;
      }
      if (left !== undefined && expr.op === "=" && right.type === "sequence" && right.items.every((i) => i.type === "literal")) {
        return `${ctx.stringSet(right.items.map((i) => String((i as { value: unknown }).value)))}.has(${left})`;
      }
      // Several values against strings: the comparison is on the values as strings, so a set answers it without
      // making an array of the values.
      const strings = stringLiterals(right);
      if (left === undefined && expr.op === "=" && strings !== undefined) return `${pathFunction(ctx, expr.left, ref, { among: ctx.stringSet(strings) })}(${ref.v})`;
      return `CMPG(${COMPARATORS[expr.op]}, ${values(ctx, expr.left, ref)}, ${values(ctx, expr.right, ref)})`;
    }
    case "call":
      return compileCall(ctx, expr, ref);
    case "literal":
      return js(Boolean(expr.value));
    case "sequence":
      return js(expr.items.length > 0);
    case "path":
    case "union": {
      const single = singleValue(ctx, expr, ref);
      if (single !== undefined) return `(${single} !== undefined)`;
      if (expr.type === "path" && expr.steps.length === 1 && expr.steps[0]!.axis === "child" && expr.steps[0]!.predicates.length === 0 && ref.type.kind === "assembly") {
        const step = expr.steps[0] as Step & { axis: "child" };
        const def = ref.type.def;
        const instances = def.children.filter((c) => step.names.includes(c.name));
        if (instances.length !== step.names.length) throw new NotApplicable(`target names no existing node: ${def.name} has no child ${step.names.join("|")}`);
        return `(${instances.map((i) => `HAS(${ref.v}${ctx.member(def, i.jsonName)})`).join(" || ")})`;
      }
      return `${pathFunction(ctx, expr, ref, "exists")}(${ref.v})`;
    }
    default:
      throw new Error(`unsupported Metapath expression (${expr.type}) in a NIST constraint`);
  }
}

function compileCall(ctx: EmitContext, expr: Expr & { type: "call" }, ref: NodeRef): string {
  const args = expr.args;
  switch (expr.name) {
    case "not":
      return `!${compileBoolean(ctx, args[0]!, ref)}`;
    case "exists":
      return compileBoolean(ctx, args[0]!, ref);
    case "true":
      return "true";
    case "false":
      return "false";
    case "starts-with": {
      const subject = singleValue(ctx, args[0]!, ref);
      const prefix = args[1];
      if (subject === undefined || prefix?.type !== "literal") throw new Error("starts-with() is supported on a single value and a literal prefix");
      return `SW(${subject}, ${js(String(prefix.value))})`;
    }
    case "has-oscal-namespace": {
      const nsFlag = ref.type.kind === "flag" ? undefined : ref.type.def.flags.find((f) => f.name === "ns");
      if (ref.type.kind === "flag" || !nsFlag) {
        throw new NotApplicable(`not evaluable: has-oscal-namespace() applied to ${nodeName(ref.type)}, which has no @ns flag (metaschema-java rejects this too)`);
      }
      const namespaces = args.flatMap((a) => (a.type === "sequence" ? a.items : [a])).map((a) => {
        if (a.type !== "literal") throw new Error("has-oscal-namespace() takes literal namespaces");
        return String(a.value);
      });
      // A missing @ns means the OSCAL namespace.
      const set = ctx.stringSet(namespaces);
      const ns = `${ref.v}${ctx.member(ref.type.def, nsFlag.jsonName)}`;
      const read = `AS(${ns})`;
      ctx.noteStringRead(ref.v, read);
      return namespaces.includes(OSCAL_NAMESPACE) ? `(${ns} === undefined || ${set}.has(${read}))` : `${set}.has(${read})`;
    }
    case "doc":
      throw new NotApplicable("needs another document: doc() loads an imported or leveraged OSCAL document");
    default:
      throw new Error(`unsupported Metapath function ${expr.name}()`);
  }
}

/** JS expression: the index key of a node (string, or null when every key field is empty). */
export function keyExpression(ctx: EmitContext, c: RawConstraint, ref: NodeRef): string {
  const parts = c.keyFields.map((kf) => {
    const expr = parseMetapath(kf.target);
    const str = singleString(ctx, expr, ref) ?? `AS(${values(ctx, expr, ref)}[0])`;
    return kf.pattern === undefined ? str : keyOfPattern(ctx, kf.pattern, c.key, str);
  });
  // A lone key field's string, or undefined or null (no key), is the key once undefined becomes null.
  if (parts.length === 1) return `(${parts[0]} ?? null)`;
  return `KEYN([${parts.join(", ")}])`;
}

/**
 * For index-has-key: the key of a node, or (one key field selecting several values, e.g. several party-uuid fields)
 * an array of keys, every one a reference.
 */
export function referenceKeys(ctx: EmitContext, c: RawConstraint, ref: NodeRef): { one: string } | { many: string } {
  const onlyField = c.keyFields[0];
  if (c.keyFields.length !== 1 || !onlyField) return { one: keyExpression(ctx, c, ref) };
  const expr = parseMetapath(onlyField.target);
  if (singleValue(ctx, expr, ref) !== undefined) return { one: keyExpression(ctx, c, ref) };
  const all = values(ctx, expr, ref);
  return { many: `${all}.map((v) => ${onlyField.pattern === undefined ? "AS(v)" : keyOfPattern(ctx, onlyField.pattern, c.key, "AS(v)")} ?? null)` };
}

/** A pattern of a literal then `(.*)`, as `#(.*)`; its literal holds no character special in a regular expression. */
const LITERAL_THEN_REST = /^([A-Za-z0-9#:/_-]*)\(\.\*\)$/;

/**
 * The key a key field's pattern takes from `str`: the first capturing group of a full match; a non-matching or empty
 * group gives no key. A literal prefix and the rest of the value is cut without a regular expression.
 */
function keyOfPattern(ctx: EmitContext, pattern: string, what: string, str: string): string {
  const literal = LITERAL_THEN_REST.exec(pattern)?.[1];
  return literal === undefined ? `KEYPAT(${ctx.regex(pattern, what)}, ${str})` : `KEYREST(${js(literal)}, ${str})`;
}
