// Parser for the Metapath subset used by the OSCAL 1.2.2 constraints: relative paths with child (/),
// descendant (//), self (.) and flag (@) steps, predicates, unions (|), parenthesised unions as steps,
// general comparisons, and/or, string/number literals, sequences ('a','b') and function calls.

export type Expr =
  | { type: "path"; rootDescendant: boolean; steps: Step[] }
  | { type: "union"; items: Expr[] }
  | { type: "and" | "or"; items: Expr[] }
  | { type: "cmp"; op: ComparisonOp; left: Expr; right: Expr }
  | { type: "call"; name: string; args: Expr[] }
  | { type: "literal"; value: string | number }
  | { type: "sequence"; items: Expr[] };

export type ComparisonOp = "=" | "!=" | "<" | "<=" | ">" | ">=";

export type Step =
  | { axis: "self"; predicates: Expr[] }
  | { axis: "flag"; name: string; predicates: Expr[] }
  | { axis: "child" | "descendant"; names: string[]; predicates: Expr[] }
  | { axis: "call"; call: Expr & { type: "call" }; predicates: Expr[] }
  | { axis: "group"; branches: PathExpr[]; predicates: Expr[] };

export type PathExpr = Expr & { type: "path" };

type Token = { kind: "name" | "string" | "number" | "op"; text: string };

const OPERATORS = ["//", "/", "!=", "<=", ">=", "=", "<", ">", "(", ")", "[", "]", ",", "|", "@", ".."];

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
    const name = /^[A-Za-z_][\w-]*(\.[\w-]+)*/.exec(source.slice(i));
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
    return left;
  };
  const parseUnion = (): Expr => {
    const items = [parsePath()];
    while (isOp("|")) { pos++; items.push(parsePath()); }
    return items.length === 1 ? items[0]! : { type: "union", items };
  };

  const parsePath = (): Expr => {
    let rootDescendant = false;
    if (isOp("//")) { rootDescendant = true; pos++; }
    else if (isOp("/")) fail("absolute paths are not supported");
    const first = parseStep(rootDescendant ? "descendant" : "child", rootDescendant);
    if (first.kind === "value") {
      if (rootDescendant) fail("a value cannot follow //");
      return first.expr;
    }
    const steps: Step[] = [first.step];
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
    while (isOp("[")) { pos++; predicates.push(parseOr()); expectOp("]"); }
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
    if (isOp("..")) return fail("the parent axis is not supported");
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
        args.push(parseOr());
        while (isOp(",")) { pos++; args.push(parseOr()); }
      }
      expectOp(")");
      const call = { type: "call" as const, name: token.text, args };
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
      const items = [parseOr()];
      while (isOp(",")) { pos++; items.push(parseOr()); }
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
      if (!branches.every((b) => b.type === "path" && !b.rootDescendant)) return fail("only relative paths may be grouped as a step");
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

  const expr = parseOr();
  if (pos !== tokens.length) fail("unexpected trailing input");
  return expr;
}
