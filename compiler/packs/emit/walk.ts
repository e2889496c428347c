// One walk for every context of a pack: the contexts' targets (`/system-security-plan/metadata`, `//user`,
// `/catalog//control`) and the searches of the document's descendants its expressions make (`//component`) are matched
// together, as an automaton over element names, by generated functions per definition and match state. The walk
// enters only the child instances that can lead to a match, in definition order, so each slot's nodes come out in
// document order, each once.
import type { Expr } from "../../metaschema/metapath.js";
import type { DefinitionRow } from "../program-interface.js";
import type { Declarations } from "./expressions.js";

/**
 * A target as steps from the document node: a child (one level) or a descendant (any depth) with one of the names; its
 * nodes go to `sites[slot]`.
 */
export interface Pattern {
  slot: number;
  steps: { descendant: boolean; names: readonly string[] }[];
}

/** The target's steps from the document node, or undefined for a target the walk cannot find (it is evaluated). */
function patternOf(target: Expr, slot: number): Pattern | undefined {
  if (target.type !== "path") return undefined;
  const [first] = target.steps;
  const fromRoot = first?.axis === "root" && !target.rootDescendant;
  if (fromRoot && first.predicates.length > 0) return undefined;
  const steps = fromRoot ? target.steps.slice(1) : target.steps;
  if (steps.length === 0) return undefined;
  const out: Pattern["steps"] = [];
  for (const step of steps) {
    if ((step.axis !== "child" && step.axis !== "descendant") || step.predicates.length > 0) return undefined;
    out.push({ descendant: step.axis === "descendant", names: step.names });
  }
  return { slot, steps: out };
}

/** The contexts whose targets the walk finds: each target a pattern. */
export function walkablePatterns(contexts: readonly { targets: Expr[] }[]): Map<number, Pattern[]> {
  const walkable = new Map<number, Pattern[]>();
  contexts.forEach((context, c) => {
    const patterns = context.targets.map((target) => patternOf(target, c));
    if (patterns.every((pattern) => pattern !== undefined)) walkable.set(c, patterns as Pattern[]);
  });
  return walkable;
}

/**
 * The walk function applied to each node of a child instance (into `nodes`), when a slot it can reach is wanted this run
 * (`live`). Indexed: the walk runs unoptimised at first, where for-of allocates an iterator result per item.
 */
const eachChild = (instance: string, walk: { name: string; index: number }) =>
  `if (live[${walk.index}]) {\nnodes = ${instance};\nfor (let j = 0; j < nodes.length; j++) ${walk.name}(nodes[j], sites, wanted, live);\n}`;

/** A pattern waiting for its step `at`. */
type Position = readonly [pattern: number, at: number];

/**
 * Declares the walk: the name of its entry, `(document, sites, wanted, live)`, which from the document node pushes each
 * node a pattern matches to `sites[slot]` when `wanted[slot]`, entering only walk functions that are `live` (a wanted
 * slot can be reached from them: `walkSlots` lists them per walk function).
 */
export function emitWalk(
  declarations: Declarations,
  patterns: readonly Pattern[],
  definitions: readonly DefinitionRow[],
  roots: Record<string, number>,
  reach: readonly ReadonlySet<string>[],
): { walk: string; walkSlots: number[][] } {
  const childElementNames = (def: number) => {
    const row = definitions[def]!;
    return row[0] === "a" ? row[2].map(([name]) => name) : [];
  };
  /** Whether a node of the definition can still complete the position. */
  const useful = (def: number, [p, at]: Position) => {
    const step = patterns[p]!.steps[at]!;
    return step.descendant ? step.names.some((name) => reach[def]!.has(name)) : step.names.some((name) => childElementNames(def).includes(name));
  };
  /** Entering a child named `name` of definition `def`: the slots it is a node of, and the positions it carries on. */
  const enter = (positions: readonly Position[], name: string, def: number) => {
    const matched = new Set<number>();
    const next: Position[] = [];
    for (const [p, at] of positions) {
      const step = patterns[p]!.steps[at]!;
      if (step.names.includes(name)) {
        if (at + 1 === patterns[p]!.steps.length) matched.add(patterns[p]!.slot);
        else next.push([p, at + 1]);
      }
      if (step.descendant) next.push([p, at]);
    }
    // One position once, in a fixed order: the state names its walk function.
    const carried = [...new Map(next.filter((position) => useful(def, position)).map((position) => [position.join(":"), position])).values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return { matched: [...matched].sort((a, b) => a - b), carried };
  };

  // Walk functions by state, each with the slots it matches and the walk functions it calls on children.
  const walkIndexes = new Map<string, number>();
  const walks: { matched: readonly number[]; children: number[] }[] = [];
  const visit = (def: number, matched: readonly number[], positions: readonly Position[]): { name: string; index: number } => {
    const key = JSON.stringify([def, matched, positions]);
    let index = walkIndexes.get(key);
    if (index === undefined) {
      walkIndexes.set(key, (index = walks.length));
      walks.push({ matched, children: [] });
    }
    const walk = walks[index]!;
    const name = declarations.declare("w", key, (name) => {
      const pushes = matched.map((c) => `if (wanted[${c}]) sites[${c}].push(node);`);
      const row = definitions[def]!;
      const loops = (row[0] === "a" ? row[2] : []).flatMap(([childName, , childDef], i) => {
        const entered = enter(positions, childName, childDef);
        if (entered.matched.length === 0 && entered.carried.length === 0) return [];
        const child = visit(childDef, entered.matched, entered.carried);
        walk.children.push(child.index);
        return [eachChild(`node.instanceAt(${i})`, child)];
      });
      const declaration = loops.length > 0 ? ["let nodes;"] : [];
      return `function ${name}(node, sites, wanted, live) {\n${[...declaration, ...pushes, ...loops].join("\n")}\n}`;
    });
    return { name, index };
  };

  const start: Position[] = patterns.map((_, p) => [p, 0]);
  const cases = Object.keys(roots)
    .sort()
    .flatMap((model) => {
      const entered = enter(start, model, roots[model]!);
      if (entered.matched.length === 0 && entered.carried.length === 0) return [];
      return [`case ${JSON.stringify(model)}:\n${eachChild("document.instanceAt(0)", visit(roots[model]!, entered.matched, entered.carried))}\nbreak;`];
    });
  const walk = declarations.declare("walk", "", (name) => `function ${name}(document, sites, wanted, live) {\nlet nodes;\nswitch (document.view.model) {\n${cases.join("\n")}\n}\n}`);
  return { walk, walkSlots: slotsBelow(walks) };
}

/** Per walk function, the slots it or the walk functions it reaches match (states may recur: a fixpoint). */
function slotsBelow(walks: readonly { matched: readonly number[]; children: readonly number[] }[]): number[][] {
  const slots = walks.map((walk) => new Set(walk.matched));
  for (let changed = true; changed; ) {
    changed = false;
    walks.forEach((walk, i) => {
      for (const child of walk.children) {
        for (const slot of slots[child]!) {
          if (slots[i]!.has(slot)) continue;
          slots[i]!.add(slot);
          changed = true;
        }
      }
    });
  }
  return slots.map((set) => [...set].sort((a, b) => a - b));
}
