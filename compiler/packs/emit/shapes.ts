// What the pack code emitter needs to know of a Metapath syntax tree to pick the code for it: whether it reads
// variables, whether it is a plain flag comparison, a child count, a flag path, and how a step's predicates split into
// those memoised per node and those applied on every evaluation.
import type { ComparisonOp, Expr, Step, ValueComparisonOp } from "../../metaschema/metapath.js";
import { readsVariable } from "../../metaschema/syntax-tree.js";

/** Whether a syntax tree (an expression, a step's expressions) reads no variable. */
export function variableFree(tree: object): boolean {
  return !readsVariable(tree);
}

/** A variable-free expression depends on its focus node only: its value is memoised per node, unless it is cheap. */
export function isMemoised(expr: Expr): boolean {
  return variableFree(expr) && !isCheap(expr);
}

/** Expressions cheaper to evaluate again than to memoise: flag comparisons, and and/or of them. */
export function isCheap(expr: Expr): boolean {
  if (expr.type === "cmp" || expr.type === "vcmp") return flagComparisonOf(expr) !== undefined;
  return (expr.type === "and" || expr.type === "or") && expr.items.every(isCheap);
}

/**
 * `@name = 'literal'` or `@name = ('a', 'b')` (general comparison), the commonest predicate: the flag's value is read
 * from the JSON and compared with the literals, without a flag node or sequences.
 */
export interface FlagComparison {
  op: ComparisonOp | ValueComparisonOp;
  flag: string;
  literals: (string | number)[];
}

export function flagComparisonOf(expr: Expr & { type: "cmp" | "vcmp" }): FlagComparison | undefined {
  const flag = bareFlagOf(expr.left);
  // A value comparison takes one literal; a general comparison a literal or a sequence of them.
  const items = expr.right.type === "sequence" && expr.type === "cmp" ? expr.right.items : [expr.right];
  return flag !== undefined && items.every((item) => item.type === "literal")
    ? { op: expr.op, flag, literals: items.map((item) => (item as Expr & { type: "literal" }).value) }
    : undefined;
}

/** The flag name of the path `@name`, or undefined for any other expression. */
export function bareFlagOf(expr: Expr): string | undefined {
  const step = expr.type === "path" && !expr.rootDescendant && expr.steps.length === 1 ? expr.steps[0]! : undefined;
  return step?.axis === "flag" && step.predicates.length === 0 ? step.name : undefined;
}

/** Whether an expression is the path ".", whose value is its focus. */
export function isFocus(expr: Expr): boolean {
  const step = expr.type === "path" && !expr.rootDescendant && expr.steps.length === 1 ? expr.steps[0]! : undefined;
  return step?.axis === "self" && step.predicates.length === 0;
}

/** The names of a path that only selects children by name (after self steps), or undefined for any other expression. */
export function childNamesOf(expr: Expr): readonly string[] | undefined {
  if (expr.type !== "path" || expr.rootDescendant || expr.steps.some((step) => step.predicates.length > 0)) return undefined;
  const last = expr.steps[expr.steps.length - 1];
  return last?.axis === "child" && expr.steps.slice(0, -1).every((step) => step.axis === "self") ? last.names : undefined;
}

/** A path ending in a flag step without predicates (`a/b/@name`): the path to the flag's parents, and the flag. */
export function flagPathOf(expr: Expr): { parents: Expr; flag: string } | undefined {
  if (expr.type !== "path" || (expr.rootDescendant && expr.steps.length === 1)) return undefined;
  const last = expr.steps[expr.steps.length - 1];
  if (last?.axis !== "flag" || last.predicates.length > 0) return undefined;
  const steps: Step[] = expr.steps.length > 1 ? expr.steps.slice(0, -1) : [{ axis: "self", predicates: [] }];
  return { parents: { type: "path", rootDescendant: expr.rootDescendant, steps }, flag: last.name };
}

/** The variable an expression reads before anything else, if it starts with one (its value depends on no target). */
export function leadingVariable(expr: Expr): string | undefined {
  switch (expr.type) {
    case "var":
      return expr.name;
    case "quantified":
      return leadingVariable(expr.bindings[0]!.in);
    case "cmp":
    case "vcmp":
      return leadingVariable(expr.left);
    default:
      return undefined;
  }
}

/** Whether every use of a variable in a tree is an operand of a comparison (which atomizes it), and none rebinds it. */
export function onlyCompared(tree: unknown, name: string): boolean {
  let uses = 0;
  let compared = 0;
  let rebound = false;
  const isVariable = (expr: unknown) => (expr as Expr | undefined)?.type === "var" && (expr as Expr & { type: "var" }).name === name;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== "object") return;
    const node = value as Partial<Record<string, unknown>>;
    if (node.type === "var" && node.name === name) uses++;
    if ((node.type === "cmp" || node.type === "vcmp") && isVariable(node.left)) compared++;
    if ((node.type === "cmp" || node.type === "vcmp") && isVariable(node.right)) compared++;
    if (node.type === "quantified" && (node.bindings as { name: string }[]).some((binding) => binding.name === name)) rebound = true;
    Object.values(node).forEach(visit);
  };
  visit(tree);
  return !rebound && uses === compared;
}

/**
 * `@flag = E`, E reading variables but not the focus (`$component-uuid`, `substring-after($href, '#')`), which a join
 * may stand for: the flag, and E. (Without variables, E is literals: compared as they are.)
 */
export function flagJoinOf(expr: Expr): { flag: string; values: Expr } | undefined {
  if (expr.type !== "cmp" || expr.op !== "=" || variableFree(expr.right) || !focusFree(expr.right)) return undefined;
  const flag = bareFlagOf(expr.left);
  return flag === undefined ? undefined : { flag, values: expr.right };
}

/**
 * Whether an expression's value is the same whatever its focus: it reads variables, literals and functions of them,
 * and paths that start from a variable (never from the focus or its document, which `doc()` may change).
 */
export function focusFree(expr: Expr): boolean {
  switch (expr.type) {
    case "literal":
    case "var":
      return true;
    case "path": {
      const [first] = expr.steps;
      return !expr.rootDescendant && first?.axis === "expr" && focusFree(first.expr);
    }
    case "call":
      // path() without an argument is the focus's.
      return (expr.name !== "path" || expr.args.length > 0) && expr.args.every(focusFree);
    case "sequence":
    case "union":
    case "and":
    case "or":
      return expr.items.every(focusFree);
    case "cmp":
    case "vcmp":
      return focusFree(expr.left) && focusFree(expr.right);
    case "if":
      return focusFree(expr.condition) && focusFree(expr.then) && focusFree(expr.else);
    case "quantified":
      return expr.bindings.every((binding) => focusFree(binding.in)) && focusFree(expr.satisfies);
    case "map":
      return focusFree(expr.left);
    case "lookup":
      return focusFree(expr.base);
  }
}

/**
 * `some $x in S satisfies $x = E` or `every $x in S satisfies $x != E` (either way round), E not reading $x: a test of
 * E's atoms against S's, which a hashed set of S's atoms answers without a comparison per pair.
 */
export function quantifiedEqualityOf(expr: Expr & { type: "quantified" }): { some: boolean; within: Expr; other: Expr } | undefined {
  const [binding, ...more] = expr.bindings;
  const some = expr.quantifier === "some";
  const test = expr.satisfies;
  if (binding === undefined || more.length > 0 || test.type !== "cmp" || test.op !== (some ? "=" : "!=")) return undefined;
  const bound = (operand: Expr) => operand.type === "var" && operand.name === binding.name;
  const other = bound(test.left) ? test.right : bound(test.right) ? test.left : undefined;
  return other === undefined || readsVariable(other, binding.name) ? undefined : { some, within: binding.in, other };
}

/**
 * A variable-free path that climbs to one node first (`../../component/@uuid`, `/system-security-plan/x`), as that
 * node's memoised value: `../..` then `(component/@uuid)`. Compared with each of many context nodes under the same
 * ancestor, its value is then one sequence, hashed once. Any other expression is returned as it is.
 */
export function ancestorScoped(expr: Expr): Expr {
  if (expr.type !== "path" || expr.rootDescendant || !variableFree(expr)) return expr;
  const plain = (step: Step | undefined, axis: Step["axis"]) => step?.axis === axis && step.predicates.length === 0;
  let up = plain(expr.steps[0], "root") ? 1 : 0;
  if (up === 0) while (plain(expr.steps[up], "parent")) up++;
  if (up === 0 || up === expr.steps.length) return expr;
  return { type: "path", rootDescendant: false, steps: [...expr.steps.slice(0, up), { axis: "expr", expr: { type: "path", rootDescendant: false, steps: expr.steps.slice(up) }, predicates: [] }] };
}

/** `map:merge(S ! map:entry(key, value))`, map:merge's usual argument: S, key and value; undefined for anything else. */
export function mergedEntriesOf(expr: Expr): { source: Expr; key: Expr; value: Expr } | undefined {
  if (expr.type !== "call" || expr.name !== "map:merge" || expr.args.length === 0) return undefined;
  const source = expr.args[0]!;
  if (source.type !== "map" || source.right.type !== "call" || source.right.name !== "map:entry" || source.right.args.length !== 2) return undefined;
  const [key, value] = source.right.args as [Expr, Expr];
  return { source: source.left, key, value };
}

/**
 * An operand of `=` whose steps after the last that reads a variable are variable-free (`$controls[@id =
 * $control]//part/@id`), with those steps as one, memoised per node: `$controls[@id = $control]` then
 * `(data(//part/@id))`. Compared with each of many context nodes that select the same node, its value is then one
 * sequence, hashed once; a tail ending in a flag gives the flag's values, which the comparison would take from its
 * nodes. Any other expression is returned as it is: a tail of one step is memoised already when it costs, and a
 * positional predicate counts in the whole sequence, not in what one node gives.
 */
export function tailScoped(expr: Expr): Expr {
  if (expr.type !== "path") return expr;
  let last = expr.steps.length - 1;
  while (last >= 0 && variableFree(expr.steps[last]!)) last--;
  const tail = expr.steps.slice(last + 1);
  if (last < 0 || tail.length < 2 || tail.some(isPositional)) return expr;
  const path: Expr = { type: "path", rootDescendant: false, steps: tail };
  const scoped: Step = { axis: "expr", expr: flagPathOf(path) === undefined ? path : { type: "call", name: "data", args: [path] }, predicates: [] };
  return { type: "path", rootDescendant: expr.rootDescendant, steps: [...expr.steps.slice(0, last + 1), scoped] };
}

/** Whether a step keeps a positional predicate (`[1]`). */
function isPositional(step: Step): boolean {
  return step.predicates.some((p) => p.type === "literal" && typeof p.value === "number");
}

/**
 * How a step is evaluated: its variable-free predicates (and the variable-free operands of an `and`) are applied once
 * per input node and memoised with the step's own result; the rest is applied on every evaluation. A step that keeps
 * a positional predicate applies all its predicates in order, unmemoised.
 */
export interface StepPlan {
  memoised: boolean;
  pure: Expr[];
  impure: Expr[];
}

export function planOf(step: Step): StepPlan {
  const own = step.axis === "expr" ? step.expr : step.axis === "call" ? step.call : step.axis === "group" ? step.branches : undefined;
  const positional = isPositional(step);
  // Child, flag, self and parent steps are cheap to repeat: memoised only to keep predicate results.
  const costly = step.axis === "descendant" || step.axis === "any" || own !== undefined;
  const varFree = own === undefined || variableFree(own);
  let memoised = !positional && varFree;
  let pure: Expr[] = [];
  let impure: Expr[] = [];
  if (!memoised) impure = step.predicates;
  else {
    for (const predicate of step.predicates) {
      const parts = predicate.type === "and" ? predicate.items : [predicate];
      const pureParts = parts.filter(variableFree);
      const impureParts = parts.filter((part) => !variableFree(part));
      pure.push(...pureParts);
      if (impureParts.length > 0) impure.push(impureParts.length === 1 ? impureParts[0]! : { type: "and", items: impureParts });
    }
    if (!costly && pure.length === 0) memoised = false;
    // Predicates that are all cheap, on a cheap step, are applied again rather than memoised (in their order).
    else if (!costly && impure.length === 0 && pure.every(isCheap)) {
      memoised = false;
      pure = [];
      impure = step.predicates;
    }
  }
  return { memoised, pure, impure };
}

/** The names of a path's first step when it searches the document node's descendants (`//x`, `/ //x`), else undefined. */
export function rootSearchOf(expr: Expr): readonly string[] | undefined {
  if (expr.type !== "path") return undefined;
  const [first, second] = expr.steps;
  if (expr.rootDescendant) return first?.axis === "descendant" ? first.names : undefined;
  return first?.axis === "root" && first.predicates.length === 0 && second?.axis === "descendant" ? second.names : undefined;
}

/** The names of every search of the document node's descendants in syntax trees. */
export function rootSearchesIn(trees: unknown): (readonly string[])[] {
  const found: (readonly string[])[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== "object") return;
    const names = rootSearchOf(value as Expr);
    if (names !== undefined) found.push(names);
    Object.values(value).forEach(visit);
  };
  visit(trees);
  return found;
}
