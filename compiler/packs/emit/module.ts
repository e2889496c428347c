// A rule pack's generated module: `module.exports = (primitives) => program`, where the program holds the node view's
// definitions, the rules, the walk that finds every context node, and each context's lets and constraints as
// functions (runtime/packs/engine.ts PackProgram). The module takes the primitives it calls as its one argument: it
// imports nothing, so Node.js, the code cache and the browser bundle load it alike.
import type { Expr } from "../../metaschema/metapath.js";
import type { DefinitionRow, PackRule } from "../program-interface.js";
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
  "ChildNames", "FALSE", "NotEvaluated", "TRUE", "XNode", "atomOf", "atomize", "bool", "call", "childStep", "childrenStep", "compareFlagWith",
  "compareGeneral", "compareValues", "comparisonsMade", "concat", "countOf", "descendantStep", "descendantsStep", "effectiveBoolean", "flagIs",
  "flagStep", "flagValueIs", "flagValueOf", "flagValues", "literalValue", "logical", "lookupAll", "mapEach", "mapEntry", "memo", "memoStep",
  "mergeEntries", "mergeMaps", "normalize", "parentStep", "path", "quantified", "quantifiedEquality", "rootStep", "selfStep", "variable",
] as const;

const literal = (value: unknown) => JSON.stringify(value);

/**
 * An object literal of every entry, `undefined` where a value is absent: the objects of a kind share one shape, so the
 * engine's loops over them see one hidden class.
 */
const object = (entries: [string, string | undefined][]) => `{ ${entries.map(([key, value]) => `${key}: ${value ?? "undefined"}`).join(", ")} }`;

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

function constraintCode(c: SourceConstraint, emitter: ExpressionEmitter, searches: readonly number[]): string {
  const expect = c.kind === "expect";
  const leading = expect ? leadingVariable(c.test!) : undefined;
  return object([
    ["rule", String(c.rule)],
    ["kind", literal(c.kind)],
    ["targets", isFocus(c.target) ? undefined : emitter.expr(c.target)],
    ["test", expect ? emitter.expr(c.test!) : undefined],
    ["leading", leading === undefined ? undefined : literal(leading)],
    ["values", c.values === undefined ? undefined : literal(c.values)],
    ["allowOther", c.allowOther === undefined ? undefined : String(c.allowOther)],
    ["patterns", c.patterns === undefined ? undefined : literal(c.patterns)],
    ["index", c.index === undefined ? undefined : literal(c.index)],
    ["keys", c.keys === undefined ? undefined : `[${c.keys.map((k) => object([["key", emitter.key(k.target)], ["pattern", k.pattern === undefined ? undefined : literal(k.pattern)]])).join(", ")}]`],
    ["message", c.message === undefined ? undefined : `[${c.message.map((part) => (typeof part === "string" ? literal(part) : emitter.expr(part))).join(", ")}]`],
    ["searches", searches.length === 0 ? undefined : literal(searches)],
  ]);
}

export function emitPackModule(pack: SourcePack, header: string): string {
  const declarations = new Declarations();
  const emitter = new ExpressionEmitter(declarations, pack.definitions, pack.roots);
  const walkable = walkablePatterns(pack.contexts);
  const searches = new RootSearches();
  const contexts = pack.contexts.map((context, c) => {
    // A context the walk cannot find is evaluated from the document node.
    const targets = walkable.has(c) ? undefined : emitter.expr(context.targets.length === 1 ? context.targets[0]! : { type: "union", items: context.targets });
    const lets = `[${context.lets.map((binding) => `{ name: ${literal(binding.name)}, value: ${emitter.expr(letExpression(context, binding))} }`).join(", ")}]`;
    // What a constraint may search: its own expressions, its context's lets, and targets the walk does not find.
    const shared = [context.lets, walkable.has(c) ? [] : context.targets];
    const constraints = `[\n${context.constraints.map((constraint) => constraintCode(constraint, emitter, searches.slotsIn([constraint, shared]))).join(",\n")}\n]`;
    return object([
      ["targets", targets],
      ["lets", lets],
      ["constraints", constraints],
    ]);
  });
  const searchPatterns: Pattern[] = searches.names.map((names, j) => ({ slot: pack.contexts.length + j, steps: [{ descendant: true, names }] }));
  const { walk, walkSlots } = emitWalk(declarations, [...[...walkable.values()].flat(), ...searchPatterns], pack.definitions, pack.roots);
  // The same constants as the searches' steps use: the walk's results are kept on the document node under them.
  const searchKeys = searches.names.map((names) => declarations.constant(literal(names)));
  return `${header}
"use strict";
module.exports = function program(primitives) {
var { ${PRIMITIVES.join(", ")} } = primitives;
${declarations}
return {
name: ${literal(pack.name)},
definitions: ${literal(pack.definitions)},
roots: ${literal(pack.roots)},
namesBelow: ${literal(namesBelow(pack.definitions).map((names) => [...names]))},
rules: ${literal(pack.rules)},
contexts: [\n${contexts.join(",\n")}\n],
searches: [${searchKeys.join(", ")}],
walk: ${walk},
walkSlots: ${literal(walkSlots)},
};
};
`;
}
