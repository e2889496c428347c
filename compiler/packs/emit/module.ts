// A rule pack's generated module: `module.exports = (primitives) => program`, where the program holds the node view's
// definitions, the rules, the walk that finds every context node, and each context's lets and constraints as
// functions (runtime/packs/engine.ts PackProgram). The module takes the primitives it calls as its one argument: it
// imports nothing, so Node.js, the code cache and the browser bundle load it alike.
import type { Expr } from "../../metaschema/metapath.js";
import type { DefinitionRow, PackRule } from "../program-interface.js";
import { code, Code, joinCode, jsonLiteral, lineComment, name, type Name } from "../../codegen/code.js";
import { Declarations, ExpressionEmitter } from "./expressions.js";
import { namesBelow } from "./names-below.js";
import { flagPathOf, isFocus, leadingVariable, onlyCompared, rootSearchesIn } from "./shapes.js";
import { emitWalk, walkablePatterns, type Pattern } from "./walk.js";

/** A constraint as the compiler reads it: Metapath syntax trees. */
export interface SourceConstraint {
  rule: number; // index into rules; -1 for an index (they have no id and feed index-has-key)
  kind: "expect" | "allowed-values" | "matches" | "index" | "index-has-key" | "is-unique";
  target: Expr;
  test?: Expr;
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
 * The primitives generated code may call (runtime/packs/primitives.ts), taken from the module's argument; declared to
 * the run time as `PrimitiveName` (generated/packs/index.d.ts), which checks that it provides each.
 */
export const PRIMITIVES = [
  "ChildNames", "FALSE", "TRUE", "XNode", "atomize", "bool", "call", "childStep", "childrenStep", "compareFlagWith",
  "compareGeneral", "compareValues", "concat", "countOf", "descendantStep", "descendantsStep", "effectiveBoolean", "flagIs",
  "flagStep", "flagValueIs", "flagValueOf", "flagValues", "literalValue", "logical", "lookupAll", "mapEach", "mapEntry", "memo", "memoStep",
  "mergeEntries", "mergeMaps", "normalize", "parentStep", "path", "quantified", "quantifiedEquality", "rootStep", "selfStep", "variable",
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

function constraintCode(c: SourceConstraint, emitter: ExpressionEmitter, searches: readonly number[]): Code {
  const expect = c.kind === "expect";
  const leading = expect ? leadingVariable(c.test!) : undefined;
  return object([
    ["rule", jsonLiteral(c.rule)],
    ["kind", jsonLiteral(c.kind)],
    ["targets", isFocus(c.target) ? undefined : evaluator(emitter, c.target)],
    ["test", expect ? evaluator(emitter, c.test!) : undefined],
    ["leading", leading === undefined ? undefined : jsonLiteral(leading)],
    ["values", c.values === undefined ? undefined : jsonLiteral(c.values)],
    ["allowOther", c.allowOther === undefined ? undefined : code`${c.allowOther}`],
    ["patterns", c.patterns === undefined ? undefined : jsonLiteral(c.patterns)],
    ["index", c.index === undefined ? undefined : jsonLiteral(c.index)],
    ["keys", c.keys === undefined ? undefined : array(c.keys.map((k) => object([["key", Code.verbatim(emitter.key(k.target))], ["pattern", k.pattern === undefined ? undefined : jsonLiteral(k.pattern)]])))],
    ["message", c.message === undefined ? undefined : array(c.message.map((part) => (typeof part === "string" ? jsonLiteral(part) : evaluator(emitter, part))))],
    ["searches", searches.length === 0 ? undefined : jsonLiteral(searches)],
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
      context.constraints.map((constraint) => constraintCode(constraint, emitter, searches.slotsIn([constraint, shared]))),
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
module.exports = function program(primitives) {
var { ${joinCode(PRIMITIVES.map(name))} } = primitives;
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
