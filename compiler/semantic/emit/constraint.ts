// The shape of a constraint's compiled code over the JSON walk (compiler/constraint-kinds: each kind's `overJson`), which
// the walk places into the visit function of the constraint's context, and helpers the kinds build it with.
import type { AssemblyDef, ModelInstance } from "../../metaschema/metaschema.js";
import { parseMetapath } from "../../metaschema/metapath.js";
import type { CompileUnit, EmitContext, Filter, NodeRef } from "./context.js";
import { targetSegments } from "./navigation.js";

/** Part of a constraint's code: either one loop over the values of a child instance of the context, which other
 * constraints may share (their bodies run per value, in constraint order), or code run on its own. */
export type Segment = CodeSegment | LoopSegment | DescendantSegment;

export interface CodeSegment {
  kind: "code";
  code: string;
  /**
   * The code is a search of the context node's descendants (`.//x`) that leaves out what lies below the nested nodes of
   * the context's definition (a control's enhancements): the same search from their own context covers it.
   */
  leavesNested?: boolean;
  /** The context's child instances below which the code records anything (findings, references, state); absent: any. */
  enters?: readonly ModelInstance[];
}

/** Bodies are rendered with the loop variables the visit function shares for `inst` (EmitContext.loopNamesOf). */
export interface LoopSegment {
  kind: "loop";
  owner: AssemblyDef;
  inst: ModelInstance;
  guard: string | undefined; // condition on the context node, evaluated once before the loop
  filters: Filter[]; // conditions on the value (the conjuncts of the step's predicates), each evaluated once per value for all members
  inArray: string; // body for a value inside a JSON array, once it passes the filters
  single: string; // body for a lone value, once it passes the filters
}

/**
 * The nodes a `.//x` (or `//x`) target selects from a model's root: the main walk runs their code where it meets them
 * instead of the constraint walking the whole document again (see Walk).
 */
export interface DescendantSegment {
  kind: "descendant";
  /** Code per parent definition and matched child instance, on the node `h` at key `hk` of its container `hc`. */
  matches: Map<AssemblyDef, Map<ModelInstance, string>>;
}

/** A compiled constraint: `reset` runs before any of its segments. */
export interface CompiledConstraint {
  reset: string;
  segments: Segment[];
  /** Per-node state shared across the constraint's values (is-unique set, index); a loop may hold one writer of each. */
  writes: string | undefined;
}

/** A constraint whose code runs `body` at every node its target selects from the context node `ref`. */
export function perTargetNode(ctx: EmitContext, unit: CompileUnit, ref: NodeRef, body: (node: NodeRef) => string, reset = "", writes?: string): CompiledConstraint {
  return { reset, segments: targetSegments(ctx, parseMetapath(unit.constraint.target), ref, body), writes };
}

/**
 * Code entering the node's key (a JS expression: a string, or null for no key) in `set`, reporting a key already there;
 * `describe` writes the message from the variable holding the key.
 */
export function duplicateKeyCheck(key: string, set: string, rule: number, describe: (key: string) => string): string {
  return `{ const k = ${key}; if (k !== null) { ${addingOnce(set, "k", `R.report(${rule}, PL, ${describe("k")});`)} } }`;
}

/** Code adding `value` to `set` and running `duplicate` when it was there already: one lookup, not has() then add(). */
export function addingOnce(set: string, value: string, duplicate: string): string {
  return `const s = ${set}, n = s.size; if (s.add(${value}).size === n) ${duplicate}`;
}
