// Parser for the Metapath subset used by the OSCAL 1.2.2 constraints: relative paths with child (/),
// descendant (//), self (.) and flag (@) steps, predicates, unions (|), parenthesised unions as steps,
// general comparisons, and/or, string/number literals, sequences ('a','b') and function calls.
// External constraint files (rule packs) need more, parsed into node types of their own that the NIST compiler
// rejects: absolute paths, `..`, `*`, `$variables`, value comparisons (eq ne lt le gt ge), `if then else`,
// `some`/`every ... satisfies`, the simple map `!`, map lookups `?*`, and any expression as a (filtered) step.

import type { ComparisonOp, Expr, PathExpr, Step, ValueComparisonOp } from "./metapath-ast.js";

export type { ComparisonOp, Expr, PathExpr, Step, ValueComparisonOp };

const VALUE_COMPARISONS: readonly string[] = ["eq", "ne", "lt", "le", "gt", "ge"];

type Token = { kind: "name" | "string" | "number" | "op"; text: string };

const OPERATORS = ["//", "/", "!=", "<=", ">=", "=", "<", ">", "(", ")", "[", "]", ",", "|", "@", "..", "$", "!", "?", "*"];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === "'" || ch === '"') {
      const end = source.indexOf(ch, i + 1);
      if (end < 0) throw new Error(`unterminated string literal in "${source}"`);
      tokens.push({ kind: "string", text: source.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const number = /^[0-9]+(\.[0-9]+)?/.exec(source.slice(i));
    if (number) { tokens.push({ kind: "number", text: number[0] }); i += number[0].length; continue; }
    const name = /^[A-Za-z_][\w-]*(\.[\w-]+)*(:[A-Za-z_][\w-]*)?/.exec(source.slice(i));
    if (name) { tokens.push({ kind: "name", text: name[0] }); i += name[0].length; continue; }
    const op = OPERATORS.find((o) => source.startsWith(o, i)) ?? (ch === "." ? "." : undefined);
    if (!op) throw new Error(`unexpected character "${ch}" in "${source}"`);
    tokens.push({ kind: "op", text: op });
    i += op.length;
  }
  return tokens;
}

export function parseMetapath(source: string): Expr {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = (offset = 0) => tokens[pos + offset];
  const isOp = (text: string, offset = 0) => peek(offset)?.kind === "op" && peek(offset)?.text === text;
  const isKeyword = (text: string) => peek()?.kind === "name" && peek()?.text === text;
  const fail = (message: string): never => {
    throw new Error(`${message} at token ${pos} in Metapath "${source}"`);
  };
  const expectOp = (text: string) => {
    if (!isOp(text)) fail(`expected "${text}"`);
    pos++;
  };

  /** ExprSingle: if, some/every, or an or-expression. */
  const parseSingle = (): Expr => {
    if (isKeyword("if") && isOp("(", 1)) {
      pos += 2;
      const condition = parseSequenceBody();
      expectOp(")");
      expectKeyword("then");
      const then = parseSingle();
      expectKeyword("else");
      return { type: "if", condition, then, else: parseSingle() };
    }
    if ((isKeyword("some") || isKeyword("every")) && isOp("$", 1)) {
      const quantifier = peek()!.text as "some" | "every";
      pos++;
      const bindings: { name: string; in: Expr }[] = [];
      do {
        if (bindings.length > 0) pos++; // ","
        expectOp("$");
        const name = peek();
        if (name?.kind !== "name") return fail("expected a variable name");
        pos++;
        expectKeyword("in");
        bindings.push({ name: name.text, in: parseSingle() });
      } while (isOp(","));
      expectKeyword("satisfies");
      return { type: "quantified", quantifier, bindings, satisfies: parseSingle() };
    }
    return parseOr();
  };
  /** Expr: one or more comma-separated ExprSingle (a sequence when several). */
  const parseSequenceBody = (): Expr => {
    const items = [parseSingle()];
    while (isOp(",")) { pos++; items.push(parseSingle()); }
    return items.length === 1 ? items[0]! : { type: "sequence", items };
  };
  const expectKeyword = (text: string) => {
    if (!isKeyword(text)) fail(`expected "${text}"`);
    pos++;
  };

  const parseOr = (): Expr => {
    const items = [parseAnd()];
    while (isKeyword("or")) { pos++; items.push(parseAnd()); }
    return items.length === 1 ? items[0]! : { type: "or", items };
  };
  const parseAnd = (): Expr => {
    const items = [parseComparison()];
    while (isKeyword("and")) { pos++; items.push(parseComparison()); }
    return items.length === 1 ? items[0]! : { type: "and", items };
  };
  const parseComparison = (): Expr => {
    const left = parseUnion();
    const token = peek();
    if (token?.kind === "op" && ["=", "!=", "<", "<=", ">", ">="].includes(token.text)) {
      pos++;
      return { type: "cmp", op: token.text as ComparisonOp, left, right: parseUnion() };
    }
    if (token?.kind === "name" && VALUE_COMPARISONS.includes(token.text)) {
      pos++;
      return { type: "vcmp", op: token.text as ValueComparisonOp, left, right: parseUnion() };
    }
    return left;
  };
  const parseUnion = (): Expr => {
    const items = [parseSimpleMap()];
    while (isOp("|")) { pos++; items.push(parseSimpleMap()); }
    return items.length === 1 ? items[0]! : { type: "union", items };
  };
  const parseSimpleMap = (): Expr => {
    let left = parsePath();
    while (isOp("!") && !isOp("=", 1)) { pos++; left = { type: "map", left, right: parsePath() }; }
    return left;
  };

  const parsePath = (): Expr => {
    let rootDescendant = false;
    const steps: Step[] = [];
    if (isOp("//")) { rootDescendant = true; pos++; }
    else if (isOp("/")) {
      pos++;
      steps.push({ axis: "root", predicates: [] });
    }
    const first = parseStep(rootDescendant ? "descendant" : "child", rootDescendant || steps.length > 0);
    if (first.kind === "value") {
      if (rootDescendant || steps.length > 0) fail("a value cannot follow / or //");
      return first.expr;
    }
    steps.push(first.step);
    while (isOp("/") || isOp("//")) {
      const axis = isOp("//") ? "descendant" : "child";
      pos++;
      const next = parseStep(axis, true);
      if (next.kind === "value") return fail("a literal cannot be a path step");
      steps.push(next.step);
    }
    return { type: "path", rootDescendant, steps };
  };

  const parsePredicates = (): Expr[] => {
    const predicates: Expr[] = [];
    while (isOp("[")) { pos++; predicates.push(parseSequenceBody()); expectOp("]"); }
    return predicates;
  };

  /** One step, or a value expression (literal, sequence, non-path call) that is not a step. */
  const parseStep = (axis: "child" | "descendant", continuation: boolean): { kind: "step"; step: Step } | { kind: "value"; expr: Expr } => {
    const token = peek();
    if (!token) return fail("unexpected end");
    if (token.kind === "string" || token.kind === "number") {
      pos++;
      return { kind: "value", expr: { type: "literal", value: token.kind === "number" ? Number(token.text) : token.text } };
    }
    if (isOp("..")) {
      pos++;
      if (axis === "descendant") fail("'//..' is not supported");
      return { kind: "step", step: { axis: "parent", predicates: parsePredicates() } };
    }
    if (isOp("*")) {
      pos++;
      return { kind: "step", step: { axis: "any", descendant: axis === "descendant", predicates: parsePredicates() } };
    }
    if (isOp("$")) {
      pos++;
      const name = peek();
      if (name?.kind !== "name") return fail("expected a variable name");
      pos++;
      if (axis === "descendant") fail("a variable cannot follow //");
      return primaryStep({ type: "var", name: name.text });
    }
    if (isOp(".")) {
      pos++;
      if (axis === "descendant") fail("'//.' is not supported");
      return { kind: "step", step: { axis: "self", predicates: parsePredicates() } };
    }
    if (isOp("@")) {
      pos++;
      const name = peek();
      if (name?.kind !== "name") return fail("expected a flag name");
      pos++;
      if (axis === "descendant") fail("'//@flag' is not supported");
      return { kind: "step", step: { axis: "flag", name: name.text, predicates: parsePredicates() } };
    }
    if (token.kind === "name" && isOp("(", 1)) {
      pos += 2;
      const args: Expr[] = [];
      if (!isOp(")")) {
        args.push(parseSingle());
        while (isOp(",")) { pos++; args.push(parseSingle()); }
      }
      expectOp(")");
      const call = { type: "call" as const, name: token.text, args };
      if (isOp("?")) return primaryStep(call);
      const predicates = parsePredicates();
      // A function call is a step only when a path continues from it (e.g. doc(...)/x) or it is filtered.
      if (predicates.length === 0 && !isOp("/") && !isOp("//")) return { kind: "value", expr: call };
      return { kind: "step", step: { axis: "call", call, predicates } };
    }
    if (token.kind === "name") {
      pos++;
      return { kind: "step", step: { axis, names: [token.text], predicates: parsePredicates() } };
    }
    if (isOp("(")) {
      pos++;
      const items = [parseSingle()];
      while (isOp(",")) { pos++; items.push(parseSingle()); }
      expectOp(")");
      const inner = items.length === 1 ? items[0]! : undefined;
      const usedAsStep = continuation || isOp("[") || isOp("/") || isOp("//");
      if (inner && !usedAsStep) return { kind: "value", expr: inner };
      if (!inner) {
        if (usedAsStep) fail("a sequence cannot be a path step");
        return { kind: "value", expr: { type: "sequence", items } };
      }
      const predicates = parsePredicates();
      const branches = inner.type === "union" ? inner.items : [inner];
      if (!branches.every((b) => b.type === "path" && !b.rootDescendant && b.steps[0]?.axis !== "root")) {
        if (axis === "descendant") return fail("only a union of names may follow //");
        return { kind: "step", step: { axis: "expr", expr: inner, predicates } };
      }
      const paths = branches as PathExpr[];
      const single = (b: PathExpr) => b.steps.length === 1 && b.steps[0]!.predicates.length === 0;
      if (paths.length === 1 && single(paths[0]!) && paths[0]!.steps[0]!.axis === "self" && axis === "child") {
        return { kind: "step", step: { axis: "self", predicates } }; // (.)
      }
      if (paths.every((b) => single(b) && b.steps[0]!.axis === "child")) {
        // (a|b|c): one step matching several element names.
        return { kind: "step", step: { axis, names: paths.flatMap((b) => (b.steps[0] as { names: string[] }).names), predicates } };
      }
      if (axis === "descendant") return fail("only a union of names may follow //");
      return { kind: "step", step: { axis: "group", branches: paths, predicates } };
    }
    return fail(`unexpected token "${token.text}"`);
  };

  /**
   * A primary expression (variable, function call) with its postfix lookups `?*` and predicates: a value, or a step
   * when filtered or when a path continues from it.
   */
  const primaryStep = (primary: Expr): { kind: "step"; step: Step } | { kind: "value"; expr: Expr } => {
    let expr = primary;
    while (isOp("?")) {
      pos++;
      expectOp("*");
      expr = { type: "lookup", base: expr };
    }
    const predicates = parsePredicates();
    if (predicates.length === 0 && !isOp("/") && !isOp("//")) return { kind: "value", expr };
    return { kind: "step", step: { axis: "expr", expr, predicates } };
  };

  const expr = parseSequenceBody();
  if (pos !== tokens.length) fail("unexpected trailing input");
  return expr;
}
