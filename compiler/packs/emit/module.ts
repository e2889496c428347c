// A rule pack's generated module: it requires the constraint run time by name (CONSTRAINT_RUNTIME_MODULE: the primitives
// and the engine, in the module NIST's generated module requires too) and exports it with `program()`, which makes the
// program: the node view's definitions, the rules, the walk that finds every context node, and each context's lets and
// constraints, every constraint a function that checks it at a context node and records the outcomes in the run's state
// (runtime/packs/engine.ts PackModule, PackProgram, Run). The core runs the program with the engine of that module, as
// NIST's generated module creates its run from it: every node and error is then of the classes the generated code tests
// with instanceof, from whichever copy the core runs.
import type { ConstraintKind } from "../../metaschema/constraint.js";
import type { Expr } from "../../metaschema/metapath.js";
import type { DefinitionRow, PackRule } from "../program-interface.js";
import { code, Code, joinCode, jsonLiteral, lineComment, name, regexLiteral, type Name } from "../../codegen/code.js";
import { CONSTRAINT_RUNTIME_MODULE } from "../../codegen/constraint-runtime.js";
import { Declarations, ExpressionEmitter } from "./expressions.js";
import { namesBelow } from "./names-below.js";
import { flagPathOf, isFocus, leadingVariable, onlyCompared, rootSearchesIn } from "./shapes.js";
import { KINDS } from "../../constraint-kinds/registry.js";
import type { KindEmitter, ViewEmit } from "../../constraint-kinds/kind.js";
import { emitWalk, walkablePatterns, type Pattern } from "./walk.js";

/** A constraint as the compiler reads it: Metapath syntax trees. */
export interface SourceConstraint {
  rule: number; // index into rules; -1 for an index (they have no id and feed index-has-key)
  kind: ConstraintKind;
  target: Expr;
  test?: Expr;
  /** has-cardinality's bounds on the number of targets at a context node (absent: none on that side). */
  minOccurs?: number;
  maxOccurs?: number;
  values?: string[];
  allowOther?: boolean;
  /** Full-match regular expression sources a value must all match (the regex, the datatype's pattern). */
  patterns?: string[];
  index?: string;
  keys?: { target: Expr; pattern?: string }[];
  /** The message template: text, and expressions rendered as short excerpts. */
  message?: (string | Expr)[];
}

export interface SourceContext {
  targets: Expr[];
  lets: { name: string; expr: Expr }[];
  constraints: SourceConstraint[];
}

export interface SourcePack {
  name: string;
  definitions: DefinitionRow[];
  roots: Record<string, number>;
  rules: PackRule[];
  contexts: SourceContext[];
}

/**
 * The primitives generated code may call (runtime/packs/primitives.ts, and the key joining NIST's code calls too, KEYN
 * of runtime/constraints/values.ts), taken from the constraint run time; declared to the run time as `PrimitiveName`
 * (generated/packs/index.d.ts), which checks that it provides each.
 */
export const PRIMITIVES = [
  "ChildNames", "DOCUMENT_ADDRESS", "EMPTY", "FALSE", "KEYN", "TRUE", "XNode", "addKey", "atomize", "bool", "childStep", "childrenStep",
  "compareFlagWith", "compareGeneral", "compareValues", "concat", "countOf", "countWithin", "currentDateTime", "descendantStep",
  "descendantsStep", "doc", "docAvailable", "effectiveBoolean", "equal", "filterOrJoin", "firstNotEvaluated", "firstOfEachKey", "flagIs",
  "flagStep", "flagValueIs", "flagValueOf", "flagValues", "greater", "greaterOrEqual", "keyPart", "less",
  "lessOrEqual", "literalValue", "lookupAll", "mapEach", "mapEntry", "memo", "memoStep", "mergeEntries", "mergeMaps",
  "messagePart", "normalize", "notEqual", "oneAtom", "parentStep", "pathOf", "pathOfFocus", "quantifiedEquality",
  "resolveProfile", "resolveUri", "rootStep", "selfStep", "startsWith", "stepEach", "substring", "substringAfter",
  "substringOfLength", "textOf", "valueIn", "valueMatches", "valueNotAllowed", "variable",
] as const;

const UNDEFINED = Code.verbatim("undefined");
const NEXT_LINE = Code.verbatim(",\n");

/**
 * An object literal of every entry, `undefined` where a value is absent: the objects of a kind share one shape, so the
 * engine's loops over them see one hidden class.
 */
const object = (entries: [string, Code | undefined][]): Code => code`{ ${joinCode(entries.map(([key, value]) => code`${name(key)}: ${value ?? UNDEFINED}`))} }`;

/** An array literal of code items. */
const array = (items: readonly Code[]): Code => code`[${joinCode(items)}]`;

/**
 * A let selecting flags (`by-component/@component-uuid`) that is only ever compared (`@uuid = $component-uuid`) is
 * taken as its flags' values, `data(...)`: the same comparisons, without flag nodes.
 */
function letExpression(context: SourceContext, binding: SourceContext["lets"][number]): Expr {
  return flagPathOf(binding.expr) !== undefined && onlyCompared(context, binding.name) ? { type: "call", name: "data", args: [binding.expr] } : binding.expr;
}

/** The searches of the document's descendants the walk collects: their names, each with a slot after the contexts'. */
class RootSearches {
  readonly names: (readonly string[])[] = [];
  private readonly slots = new Map<string, number>();

  /** The search slots (numbered from 0) of the searches in syntax trees. */
  slotsIn(trees: unknown): number[] {
    const slots = rootSearchesIn(trees).map((names) => {
      const key = JSON.stringify(names);
      let slot = this.slots.get(key);
      if (slot === undefined) {
        this.slots.set(key, (slot = this.names.length));
        this.names.push(names);
      }
      return slot;
    });
    return [...new Set(slots)].sort((a, b) => a - b);
  }
}

/** The function an expression compiles to, by name. */
const evaluator = (emitter: ExpressionEmitter, expr: Expr): Name => name(emitter.expr(expr));

/** The names of a check function's context node and of the target it checks. */
const NODE = name("node");
const TARGET = name("t");

/**
 * The code of one constraint: for a constraint of a kind that checks targets, a function `(R, node, s)` that evaluates
 * it at a context node and records each target's outcome in the run (R: runtime/packs/engine.ts Run); for an index,
 * a function `(index, node, s)` adding its targets there by key.
 */
class ConstraintCode implements ViewEmit {
  constructor(
    private readonly c: SourceConstraint,
    private readonly emitter: ExpressionEmitter,
    private readonly declarations: Declarations,
  ) {}

  values(): Name {
    return name(this.declarations.constant(`new Set(${jsonLiteral(this.c.values!)})`));
  }

  patterns(): Name {
    const literals = this.c.patterns!.map((pattern) => fullMatch(pattern));
    return name(this.declarations.constant(array(literals).toString()));
  }

  key(): Name {
    const keys = this.c.keys!;
    const part = (key: (typeof keys)[number]) => code`keyPart(${Code.verbatim(this.emitter.keyAtom(key.target, "t"))}, ${key.pattern === undefined ? UNDEFINED : fullMatch(key.pattern)})`;
    const body = keys.length === 1 ? part(keys[0]!) : code`KEYN(${array(keys.map(part))})`;
    return name(this.declarations.declare("key", body.toString(), (fn) => `function ${fn}(t, s) {\nreturn ${body};\n}`));
  }

  expr(expr: Expr): Name {
    return evaluator(this.emitter, expr);
  }

  /** The node-view emitter of the constraint's kind (not an index: its targets are added, not checked). */
  private view(): NonNullable<KindEmitter["overView"]> {
    const view = KINDS[this.c.kind].overView;
    if (view === undefined) throw new Error(`a ${this.c.kind} constraint is not checked at its targets`);
    return view;
  }

  /** The message function `(t, s)` of a failure; undefined: the rule's description. */
  message(description: string): Name | undefined {
    const { message } = this.c;
    let body: Code;
    if (message !== undefined) {
      const parts = message.map((part) => (typeof part === "string" ? code`${part}` : code`messagePart(${evaluator(this.emitter, part)}, t, s)`));
      body = parts.length === 0 ? code`""` : joinCode(parts, Code.verbatim(" + "));
    } else {
      const defaultMessage = this.view().defaultMessage;
      if (defaultMessage === undefined) return undefined;
      body = defaultMessage(this.c, TARGET, description, this);
    }
    return name(this.declarations.declare("msg", body.toString(), (fn) => `function ${fn}(t, s) {\nreturn ${body};\n}`));
  }

  /** The function adding an index constraint's targets at a context node to the index, by key. */
  indexAdder(): Name {
    const c = this.c;
    const targets = isFocus(c.target) ? code`node.alone()` : code`${this.expr(c.target)}(node, s)`;
    const body = code`var targets = ${targets};
for (var i = 0; i < targets.length; i++) addKey(index, ${this.key()}(targets[i], s), targets[i]);`;
    return name(this.declarations.declare("index", JSON.stringify(c), (fn) => `function ${fn}(index, node, s) {\n${body}\n}`));
  }

  /** The function checking a constraint of a kind that has targets at a context node. */
  check(description: string): Name {
    const c = this.c;
    const rule = c.rule;
    const leading = c.kind === "expect" ? leadingVariable(c.test!) : undefined;
    // has-cardinality is checked once at the context node, on the number of its targets there.
    const focus = c.kind === "has-cardinality" || isFocus(c.target);
    const target = focus ? NODE : TARGET;
    const test = this.view().test(c, target, this);
    const message = test === true ? undefined : this.message(description);
    const checked =
      test === true
        ? code`R.pass(${rule});`
        : code`try {\nif (${test}) R.pass(${rule}); else R.fail(${rule}, ${c.kind}, ${target}, node, s, ${message ?? UNDEFINED});\n} catch (error) {\nR.notEvaluated(${rule}, ${target}, node, error);\n}`;
    // What is evaluated once per context node: a failure there is the node's, and no target is checked.
    const prelude = [
      ...(focus ? [] : [code`targets = ${this.expr(c.target)}(node, s);`]),
      // The whole index, before any target, once the targets are known: a constraint whose targets cannot be evaluated
      // (they need another document) does not cost building it.
      ...(c.kind === "index-has-key" ? [code`R.index(${c.index!});`] : []),
    ];
    const lines: Code[] = [];
    if (!focus) lines.push(code`var targets;`);
    if (prelude.length > 0) lines.push(code`try {\n${joinCode(prelude, Code.verbatim("\n"))}\n} catch (error) {\nR.notEvaluated(${rule}, node, node, error);\nreturn;\n}`);
    // A test reading a variable before anything else (`every $p in $params satisfies …`) cannot be evaluated on any
    // target when the variable cannot: found out once per context node rather than thrown for each target.
    if (leading !== undefined) lines.push(focus ? code`var failure = s.failureOf(${leading});` : code`var failure = targets.length === 0 ? undefined : s.failureOf(${leading});`);
    const skip = leading === undefined ? undefined : code`if (failure !== undefined) {\nR.notEvaluated(${rule}, ${target}, node, failure);\n${focus ? code`return;` : code`continue;`}\n}`;
    const perTarget = skip === undefined ? checked : code`${skip}\n${checked}`;
    lines.push(focus ? perTarget : code`for (var i = 0; i < targets.length; i++) {\nvar t = targets[i];\n${perTarget}\n}`);
    const body = joinCode(lines, Code.verbatim("\n"));
    return name(this.declarations.declare("check", JSON.stringify(c), (fn) => `function ${fn}(R, node, s) {\n${body}\n}`));
  }
}

/** A full-match regular expression literal of a pattern of a constraint file. */
const fullMatch = (pattern: string): Code => regexLiteral(`^(?:${pattern})$`, "u", `pattern ${pattern.slice(0, 40)}`);

function constraintCode(c: SourceConstraint, emitter: ExpressionEmitter, declarations: Declarations, rules: readonly PackRule[], searches: readonly number[]): Code {
  const constraint = new ConstraintCode(c, emitter, declarations);
  const index = c.kind === "index";
  return object([
    ["rule", jsonLiteral(c.rule)],
    ["index", c.index === undefined ? undefined : jsonLiteral(c.index)],
    ["searches", searches.length === 0 ? undefined : jsonLiteral(searches)],
    ["check", index ? undefined : constraint.check(rules[c.rule]!.description)],
    ["addKeys", index ? constraint.indexAdder() : undefined],
  ]);
}

/** The module of a pack, headed by a comment of one line (`header`). */
export function emitPackModule(pack: SourcePack, header: string): string {
  const declarations = new Declarations();
  // Worked out once: the expressions' nesting test, the walk's pruning and the run time's `//name` searches use it.
  const below = namesBelow(pack.definitions);
  const emitter = new ExpressionEmitter(declarations, pack.definitions, pack.roots, below);
  const walkable = walkablePatterns(pack.contexts);
  const searches = new RootSearches();
  const contexts = pack.contexts.map((context, c) => {
    // A context the walk cannot find is evaluated from the document node.
    const targets = walkable.has(c) ? undefined : evaluator(emitter, context.targets.length === 1 ? context.targets[0]! : { type: "union", items: context.targets });
    const lets = array(context.lets.map((binding) => code`{ name: ${binding.name}, value: ${evaluator(emitter, letExpression(context, binding))} }`));
    // What a constraint may search: its own expressions, its context's lets, and targets the walk does not find.
    const shared = [context.lets, walkable.has(c) ? [] : context.targets];
    const constraints = code`[\n${joinCode(
      context.constraints.map((constraint) => constraintCode(constraint, emitter, declarations, pack.rules, searches.slotsIn([constraint, shared]))),
      NEXT_LINE,
    )}\n]`;
    return object([
      ["targets", targets],
      ["lets", lets],
      ["constraints", constraints],
    ]);
  });
  const searchPatterns: Pattern[] = searches.names.map((names, j) => ({ slot: pack.contexts.length + j, steps: [{ descendant: true, names }] }));
  const { walk, walkSlots } = emitWalk(declarations, [...[...walkable.values()].flat(), ...searchPatterns], pack.definitions, pack.roots, below);
  // The same constants as the searches' steps use: the walk's results are kept on the document node under them.
  const searchKeys = searches.names.map((names) => name(declarations.constant(jsonLiteral(names).toString())));
  return code`${lineComment(header)}
"use strict";
var runtime = require(${CONSTRAINT_RUNTIME_MODULE});
var { ${joinCode(PRIMITIVES.map(name))} } = runtime;
exports.runtime = runtime;
exports.program = function program() {
${Code.verbatim(declarations.toString())}
return {
name: ${pack.name},
definitions: ${jsonLiteral(pack.definitions)},
roots: ${jsonLiteral(pack.roots)},
namesBelow: ${jsonLiteral(below.map((names) => [...names]))},
rules: ${jsonLiteral(pack.rules)},
contexts: [\n${joinCode(contexts, NEXT_LINE)}\n],
searches: ${array(searchKeys)},
walk: ${name(walk)},
walkSlots: ${jsonLiteral(walkSlots)},
};
};
`.toString();
}
