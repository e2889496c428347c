// Metapath syntax trees → JavaScript functions `(focus, scope) => items` over the pack primitives
// (runtime/packs/primitives.ts). Each distinct expression, step and memoised predicate is declared once for all written
// alike: a generated function (paths step by step, and/or, quantifiers, function calls), or for the commonest leaves
// (steps, memoised predicates, variables, literals, flag comparisons) a closure of a primitive, whose optimised code
// all closures of that primitive share. A memoised closure is also the key of its values on a node, so constraints
// repeating a predicate evaluate it once per node. A `//x` search is kept on its node under its names' constant, also
// one for all written alike (the walk stores the document node's searches under the same constants).
import type { ComparisonOp, Expr, PathExpr, Step, ValueComparisonOp } from "../../metaschema/metapath.js";
import { COMPARATORS } from "../../codegen/constraint-runtime.js";
import type { DefinitionRow } from "../program-interface.js";
import { ancestorScoped, bareFlagOf, childNamesOf, flagComparisonOf, flagJoinOf, flagPathOf, isFocus, isMemoised, mergedEntriesOf, planOf, quantifiedEqualityOf, tailScoped } from "./shapes.js";

const literal = (value: unknown) => JSON.stringify(value);

/** JavaScript's operator for a comparison of two numbers. */
const JS_COMPARISONS: Record<ComparisonOp | ValueComparisonOp, string> = {
  "=": "===", eq: "===", "!=": "!==", ne: "!==", "<": "<", lt: "<", "<=": "<=", le: "<=", ">": ">", gt: ">", ">=": ">=", ge: ">=",
};

/**
 * The declarations of a generated module, each made once per distinct key and named by a prefix and a number. They are
 * `var`s: V8 checks every read of the program's `const`s and `let`s from its inner functions for their temporal dead
 * zone, and a `var`'s for nothing.
 */
export class Declarations {
  private readonly text: string[] = [];
  private readonly names = new Map<string, string>();

  /** The name of the declaration for `key`; `make` writes it (declaring what it uses first) the first time. */
  declare(prefix: string, key: string, make: (name: string) => string): string {
    const id = `${prefix}\u0000${key}`;
    const known = this.names.get(id);
    if (known !== undefined) return known;
    const name = `${prefix}${this.names.size}`;
    this.names.set(id, name);
    this.text.push(make(name));
    return name;
  }

  /** A constant, shared by every use of the same JavaScript value. */
  constant(js: string): string {
    return this.declare("k", js, (name) => `var ${name} = ${js};`);
  }

  toString(): string {
    return this.text.join("\n");
  }
}

export class ExpressionEmitter {
  /** The names of elements that can hold one another (`group` in `group`, `part` in `part`). */
  private readonly nesting: (names: readonly string[]) => boolean;

  constructor(
    private readonly declarations: Declarations,
    definitions: readonly DefinitionRow[],
    roots: Record<string, number>,
    /** Per definition, the element names that can occur below it. */
    below: readonly ReadonlySet<string>[],
  ) {
    const definitionsNamed = new Map<string, number[]>(Object.entries(roots).map(([name, def]) => [name, [def]]));
    for (const row of definitions) if (row[0] === "a") for (const [name, , def] of row[2]) definitionsNamed.set(name, [...(definitionsNamed.get(name) ?? []), def]);
    this.nesting = (names) => names.some((name) => (definitionsNamed.get(name) ?? []).some((def) => names.some((inner) => below[def]!.has(inner))));
  }

  /** The function evaluating an expression. */
  expr(expr: Expr): string {
    return this.declarations.declare("e", JSON.stringify(expr), (name) => {
      const leaf = this.leaf(expr);
      return leaf !== undefined ? `var ${name} = ${leaf};` : `function ${name}(f, s) {\n${this.body(expr)}\n}`;
    });
  }

  /** A literal, a variable or a flag comparison: a closure made by a primitive, sharing its code with all alike. */
  private leaf(expr: Expr): string | undefined {
    if (expr.type === "literal") return `literalValue(${literal(expr.value)})`;
    if (expr.type === "var") return `variable(${literal(expr.name)})`;
    const comparison = expr.type === "cmp" || expr.type === "vcmp" ? flagComparisonOf(expr) : undefined;
    if (comparison === undefined) return undefined;
    // A value comparison with an absent flag is the empty sequence; a general one is false.
    const factory = expr.type === "cmp" ? "flagIs" : "flagValueIs";
    return `${factory}(${COMPARATORS[comparison.op]}, ${this.declarations.constant(literal(comparison.literals))}, ${literal(comparison.flag)})`;
  }

  /** The function evaluating an expression, its value memoised per focus node when it depends on nothing else. */
  memoised(expr: Expr): string {
    if (!isMemoised(expr)) return this.expr(expr);
    const plain = this.expr(expr);
    return this.declarations.declare("m", JSON.stringify(expr), (name) => `var ${name} = memo(${plain});`);
  }

  /** A key read from a node: a flag's value read from the JSON, or an expression's value. */
  key(expr: Expr): string {
    const flag = bareFlagOf(expr);
    return this.declarations.constant(flag !== undefined ? `{ flag: ${literal(flag)} }` : `{ value: ${this.expr(expr)} }`);
  }

  /** A key field's atom at the item named `item` (in the scope `s`): a flag's value read from the JSON, or the first atom of an expression's value. */
  keyAtom(expr: Expr, item: string): string {
    const flag = bareFlagOf(expr);
    return flag !== undefined ? `flagValueOf(${literal(flag)}, ${item})` : `atomize(${this.expr(expr)}(${item}, s))[0]`;
  }

  /** The value of an expression at the focus `f`, as JavaScript: literals and variables in place, else a call. */
  private value(expr: Expr): string {
    if (expr.type === "literal") return this.declarations.constant(`[${literal(expr.value)}]`);
    if (expr.type === "var") return `s.lookup(${literal(expr.name)})`;
    return `${this.expr(expr)}(f, s)`;
  }

  /** The body of the function of an expression that is not a leaf. */
  private body(expr: Expr): string {
    switch (expr.type) {
      case "literal":
      case "var":
        throw new Error(`a ${expr.type} is a leaf`);
      case "path":
        return this.path(expr);
      case "sequence":
        return `return concat(${expr.items.map((item) => this.value(item)).join(", ")});`;
      case "union":
        return `return normalize(concat(${expr.items.map((item) => this.value(item)).join(", ")}));`;
      case "and":
      case "or":
        return this.logical(expr.type === "and", expr.items);
      case "cmp":
      case "vcmp": {
        // `count(x) >= 1`: two numbers, whatever the kind of comparison; compared without sequences of them.
        const { left, right: rightExpr } = expr;
        if (left.type === "call" && left.name === "count" && left.args.length === 1 && rightExpr.type === "literal" && typeof rightExpr.value === "number" && Number.isFinite(rightExpr.value)) {
          return `return bool(${this.size(left.args[0]!)} ${JS_COMPARISONS[expr.op]} ${rightExpr.value});`;
        }
        const comparator = COMPARATORS[expr.op];
        if (expr.type === "vcmp") {
          // The left operand's atom first: an operand with several fails before the other is evaluated.
          const what = literal("the constraint compares one value");
          return `return compareValues(${comparator}, oneAtom(${this.value(expr.left)}, ${what}), oneAtom(${this.value(expr.right)}, ${what}));`;
        }
        // An equality hashes a long side once per sequence: a side read from an ancestor is made one sequence per
        // ancestor, and one ending in variable-free steps one per node those steps start from.
        const operand = (side: Expr) => this.value(expr.op === "=" ? tailScoped(ancestorScoped(side)) : side);
        // `@name = expression`: the flag's value is read from the JSON, without its node.
        const leftFlag = bareFlagOf(expr.left);
        if (leftFlag !== undefined) return `const value = flagValueOf(${literal(leftFlag)}, f);\nreturn compareFlagWith(${comparator}, value, ${operand(expr.right)});`;
        return `return compareGeneral(${comparator}, ${operand(expr.left)}, ${operand(expr.right)});`;
      }
      case "if":
        return `return effectiveBoolean(${this.value(expr.condition)}) ? ${this.value(expr.then)} : ${this.value(expr.else)};`;
      case "quantified": {
        const equality = quantifiedEqualityOf(expr);
        if (equality !== undefined) {
          const { some, within, other } = equality;
          return `return quantifiedEquality(${some}, ${this.expr(ancestorScoped(within))}, ${this.expr(other)}, f, s);`;
        }
        return this.quantified(expr.quantifier === "some", expr.bindings, expr.satisfies);
      }
      case "map":
        return `return mapEach(${this.value(expr.left)}, ${this.expr(expr.right)}, s);`;
      case "lookup": {
        // `map:merge(S ! map:entry(key, .))?*`: one node of S per key, kept without a map.
        const entries = mergedEntriesOf(expr.base);
        if (entries !== undefined && isFocus(entries.value)) return `return firstOfEachKey(${this.value(entries.source)}, ${this.key(entries.key)}, s);`;
        return `return lookupAll(${this.value(expr.base)});`;
      }
      case "call":
        return this.callBody(expr);
    }
  }

  /**
   * and/or, operand by operand: the first that decides (false for and, true for or) is the value; an operand that cannot
   * be evaluated does not matter when a later one decides, and is the outcome when none does.
   */
  private logical(and: boolean, items: readonly Expr[]): string {
    const decides = and ? "!effectiveBoolean" : "effectiveBoolean";
    const operands = items.map(
      (item) => `try {\nif (${decides}(${this.memoised(item)}(f, s))) return ${and ? "FALSE" : "TRUE"};\n} catch (error) {\npending = firstNotEvaluated(error, pending);\n}`,
    );
    return ["var pending;", ...operands, "if (pending !== undefined) throw pending;", `return ${and ? "TRUE" : "FALSE"};`].join("\n");
  }

  /** some/every: a loop per binding, each binding's sequence evaluated in the scope of those before it. */
  private quantified(some: boolean, bindings: readonly { name: string; in: Expr }[], satisfies: Expr): string {
    const scope = (level: number) => (level === 0 ? "s" : `s${level}`);
    const decides = some ? "effectiveBoolean" : "!effectiveBoolean";
    let body = `if (${decides}(${this.expr(satisfies)}(f, ${scope(bindings.length)}))) return ${some ? "TRUE" : "FALSE"};`;
    for (let level = bindings.length - 1; level >= 0; level--) {
      const { name, in: within } = bindings[level]!;
      const [items, i] = [`in${level}`, `i${level}`];
      body = `var ${items} = ${this.expr(within)}(f, ${scope(level)});\nfor (var ${i} = 0; ${i} < ${items}.length; ${i}++) {\nvar ${scope(level + 1)} = ${scope(level)}.bind(${literal(name)}, ${items}[${i}]);\n${body}\n}`;
    }
    return `${body}\nreturn ${some ? "FALSE" : "TRUE"};`;
  }

  /** The hot functions (tests of existence and counts) inlined; the others dispatch on their name when called. */
  private callBody({ name, args }: Expr & { type: "call" }): string {
    if (args.length === 1) {
      const [arg] = args as [Expr];
      switch (name) {
        case "exists":
          return `return bool(${this.size(arg)} > 0);`;
        case "empty":
          return `return bool(${this.size(arg)} === 0);`;
        case "count":
          return `return countOf(${this.size(arg)});`;
        case "not":
          return `return bool(!effectiveBoolean(${this.value(arg)}));`;
        case "data": {
          // A path's flag values are read from the JSON, without flag nodes.
          const flagPath = flagPathOf(arg);
          return flagPath === undefined ? `return atomize(${this.value(arg)});` : `return flagValues(${this.value(flagPath.parents)}, ${literal(flagPath.flag)});`;
        }
      }
    }
    if (args.length === 0 && (name === "true" || name === "false")) return `return ${name === "true" ? "TRUE" : "FALSE"};`;
    // Arguments past those the functions take are ignored (map:merge's options: duplicates keep the first entry).
    if (name === "map:entry" && args.length >= 2) return `return mapEntry(${this.key(args[0]!)}, ${this.expr(args[1]!)}, f, s);`;
    if (name === "map:merge" && args.length >= 1) {
      // `nodes ! map:entry(key, value)`, the usual argument: entries merged as they are made, without a map each.
      const entries = mergedEntriesOf({ type: "call", name, args });
      if (entries !== undefined) return `return mergeEntries(${this.value(entries.source)}, ${this.key(entries.key)}, ${this.expr(entries.value)}, s);`;
      return `return mergeMaps(${this.value(args[0]!)});`;
    }
    return `return ${this.functionCall(name, args)};`;
  }

  /** A call of the run time's helper for a Metapath function the code does not inline, its arguments evaluated in order. */
  private functionCall(name: string, args: readonly Expr[]): string {
    /** A string argument: its one atom as a string, undefined when the sequence is empty or the argument absent. */
    // What the function does with its one value, in words: a finding that it got several is read by people who know no Metapath.
    const what = name === "doc" || name === "doc-available" ? "DOCUMENT_ADDRESS" : literal("the constraint takes one value");
    const text = (at: number) => (args[at] === undefined ? "undefined" : `textOf(${this.value(args[at])}, ${what})`);
    switch (name) {
      case "starts-with":
        return `startsWith(${text(0)}, ${text(1)})`;
      case "substring":
        return args.length > 2 ? `substringOfLength(${text(0)}, ${text(1)}, ${text(2)})` : `substring(${text(0)}, ${text(1)})`;
      case "substring-after":
        return `substringAfter(${text(0)}, ${text(1)})`;
      case "current-dateTime":
        return "currentDateTime(s)";
      case "path":
        return args.length > 0 ? `pathOf(${this.value(args[0]!)})` : "pathOfFocus(f)";
      case "resolve-uri":
        return args.length > 0 ? `resolveUri(${this.value(args[0]!)})` : "[]";
      case "doc-available":
        return `docAvailable(${text(0)}, s)`;
      case "doc":
        return `doc(${text(0)}, s)`;
      case "resolve-profile":
        if (args.length > 0) return `resolveProfile(${this.value(args[0]!)}, s)`;
    }
    throw new Error(`unsupported Metapath function ${name}() with ${args.length} argument(s)`);
  }

  /** The length of a sequence; children by name (count(x), exists(x)) are counted in the JSON without their nodes. */
  private size(expr: Expr): string {
    const names = childNamesOf(expr);
    if (names !== undefined) return `(f instanceof XNode ? f.countChildrenNamed(${this.childNames(names)}) : 0)`;
    return `${this.value(expr)}.length`;
  }

  private childNames(names: readonly string[]): string {
    return this.declarations.constant(`new ChildNames(${literal(names)})`);
  }

  /**
   * The body of a path's function: its steps one after the other, each followed by its predicates that read variables
   * (the others are memoised with the step). The first step is taken from the start item itself: no sequence of it is
   * made (most nodes never need one); `.` gives its focus node itself.
   */
  private path(expr: PathExpr): string {
    const lines: string[] = [];
    if (isFocus(expr)) lines.push("if (f instanceof XNode) return f.alone();");
    let start = "f";
    if (expr.rootDescendant) {
      lines.push('if (!(f instanceof XNode)) throw new Error("// needs a node as context");');
      start = "f.view.root";
    } else lines.push("if (f === undefined) return EMPTY;");
    if (expr.steps.length === 0) return [...lines, "return EMPTY;"].join("\n");
    // Whether the items so far are "flat": none is an ancestor of another. Children of flat nodes in document order
    // come out in document order; children of nested ones (`//group/control`) must be put in order.
    let flat = true;
    expr.steps.forEach((step, i) => {
      const ordered = step.axis === "flag" || (step.axis === "child" && flat);
      flat = this.flatAfter(step, flat);
      const taken = this.step(step);
      lines.push(i === 0 ? `var items = ${taken}(${start}, s);` : `items = items.length === 1 ? ${taken}(items[0], s) : stepEach(items, ${taken}, s, ${ordered});`);
      for (const predicate of planOf(step).impure) {
        const join = flagJoinOf(predicate);
        const joinConstant = join === undefined ? "null" : this.declarations.constant(`{ flag: ${literal(join.flag)}, values: ${this.expr(join.values)} }`);
        lines.push(`items = filterOrJoin(items, ${this.memoised(predicate)}, ${joinConstant}, s);`);
      }
    });
    return [...lines, "return items;"].join("\n");
  }

  /** Whether a step's items are flat, given whether its input was (flags, the root: always; a variable: never known). */
  private flatAfter(step: Step, flat: boolean): boolean {
    switch (step.axis) {
      case "flag":
      case "root":
        return true;
      case "self":
      case "child":
        return flat;
      case "descendant":
        return flat && !this.nesting(step.names);
      case "any":
        return flat && !step.descendant;
      default:
        return false;
    }
  }

  /** A step from one item, its variable-free predicates applied and the result memoised on the item when that pays. */
  private step(step: Step): string {
    const plan = planOf(step);
    // Unmemoised, a step is its selection alone: one for all that select alike, whatever their predicates.
    const plain = this.plainStep(step);
    if (!plan.memoised) return plain;
    // Its predicates are applied once per node the step is taken from, its value kept: memoising each predicate's value
    // on each node it tests as well would cost a cache per node tested, most of them tested once.
    return this.declarations.declare("s", JSON.stringify(step), (name) => `var ${name} = memoStep(${plain}, [${plan.pure.map((predicate) => this.expr(predicate)).join(", ")}]);`);
  }

  /** The items a step selects from an item, as a function `(item, scope)`. */
  private plainStep(step: Step): string {
    switch (step.axis) {
      case "self":
        return "selfStep";
      case "parent":
        return "parentStep";
      case "root":
        return "rootStep";
      case "any":
        return step.descendant ? "descendantsStep" : "childrenStep";
      case "call":
        return this.expr(step.call);
      case "expr":
        return this.expr(step.expr);
      case "child":
        return this.declarations.constant(`childStep(${this.childNames(step.names)})`);
      case "flag":
        return this.declarations.constant(`flagStep(${literal(step.name)})`);
      case "descendant":
        return this.declarations.constant(`descendantStep(${this.declarations.constant(literal(step.names))})`);
      case "group": {
        const branches = step.branches.map((branch) => `${this.expr(branch)}(item, s)`);
        return this.declarations.declare("g", branches.join(), (name) => `function ${name}(item, s) {\nreturn normalize(concat(${branches.join(", ")}));\n}`);
      }
    }
  }
}
