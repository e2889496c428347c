// Metapath navigation over the metaschema model, compiled to loops over the JSON document: child, flag, descendant,
// self and grouped steps with their predicates, honouring each instance's JSON multiplicity.
import type { AssemblyDef, FieldDef, ModelInstance } from "../../metaschema/metaschema.js";
import type { Expr, Step } from "../../metaschema/metapath.js";
import type { DescendantSegment, LoopSegment, Segment } from "./constraint.js";
import { atSegment, js, nodeName, NotApplicable, type EmitContext, type LoopNames, type Mode, type NodeRef } from "./context.js";
import { compileBoolean } from "./expressions.js";
import { conditionsInWords, flagStepConditions } from "./plain-words.js";

/** Conditions in words of a node selected by a further step: null once one of them is not simply said. */
function alsoRequired(before: NodeRef["conditions"], added: readonly string[] | null): NodeRef["conditions"] {
  if (before === null || added === null) return null;
  return added.length === 0 ? before : [...(before ?? []), ...added];
}

const reachMemos = new WeakMap<EmitContext, Map<string, boolean>>();

/** Whether some node named in `names` lies below nodes of `def` (memoised per generator run, like its callers' order). */
export function canReach(ctx: EmitContext, def: AssemblyDef | FieldDef, names: readonly string[]): boolean {
  let memo = reachMemos.get(ctx);
  if (!memo) reachMemos.set(ctx, (memo = new Map()));
  const key = `${def.contextPath}|${names.join(",")}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  memo.set(key, false); // cycle guard
  let result = false;
  if (def.kind === "assembly") {
    for (const child of def.children) {
      if (names.includes(child.name) || canReach(ctx, child.def, names)) {
        result = true;
        break;
      }
    }
  }
  memo.set(key, result);
  return result;
}

function itemGuard(def: AssemblyDef | FieldDef, v: string): string {
  return def.kind === "field" && def.valueKey === null ? `isAtom(${v})` : `isObj(${v})`;
}

/** Loop over the JSON values of one model instance of `parent`, honouring its JSON multiplicity. */
export function emitInstanceLoop(
  ctx: EmitContext,
  parent: string,
  owner: AssemblyDef,
  inst: ModelInstance,
  mode: Mode,
  body: (v: string, container: string, key: string) => string,
  { c, i, y }: LoopNames = { c: ctx.fresh("c"), i: ctx.fresh("i"), y: ctx.fresh("y") },
): string {
  const guard = itemGuard(inst.def, y);
  const at = (segment: string, code: string) => (mode.path ? atSegment(segment, code) : code);
  const arrayLoop = `for (let ${i} = 0; ${i} < ${c}.length; ${i}++) { const ${y} = ${c}[${i}]; ${at(i, `if (${guard}) { ${body(y, c, i)} }`)} }`;
  const single = `{ const ${y} = ${c}; if (${guard}) { ${body(y, parent, js(inst.jsonName))} } }`;
  let inner: string;
  if (inst.multiplicity === "array") inner = `if (Array.isArray(${c})) { ${arrayLoop} }`;
  else if (inst.multiplicity === "single") inner = `if (!Array.isArray(${c})) ${single}`;
  else inner = `if (Array.isArray(${c})) { ${arrayLoop} } else ${single}`;
  return `{ const ${c} = ${parent}${ctx.member(owner, inst.jsonName)}; if (${c} !== undefined) { ${at(js(inst.jsonName), inner)} } }`;
}

/** A child node, once its loop has checked its shape (itemGuard): a field without a value key is then atomic. */
function childRef(parent: AssemblyDef, inst: ModelInstance, predicates: readonly Expr[], v: string, container: string, key: string): NodeRef {
  const type: NodeRef["type"] = inst.def.kind === "assembly" ? { kind: "assembly", def: inst.def } : { kind: "field", def: inst.def };
  const conditions = conditionsInWords(predicates);
  return { v, type, container, key, conditions, atomic: inst.def.kind === "field" && inst.def.valueKey === null, via: { parent, inst, predicates } };
}

/** Statements running `body` once per node selected by `expr` from `ref`. */
export function emitTarget(ctx: EmitContext, expr: Expr, ref: NodeRef, mode: Mode, body: (node: NodeRef) => string): string {
  if (expr.type === "union") return expr.items.map((item) => emitTarget(ctx, item, ref, mode, body)).join("\n");
  if (expr.type !== "path") throw new Error(`a target must be a path, got ${expr.type}`);
  return emitSteps(ctx, expr.steps, 0, ref, mode, body, expr.rootDescendant);
}

function emitSteps(ctx: EmitContext, steps: readonly Step[], at: number, ref: NodeRef, mode: Mode, body: (node: NodeRef) => string, rootDescendant = false): string {
  if (at === steps.length) return body(ref);
  const step = steps[at]!;
  const filtered = (next: NodeRef) => afterStep(ctx, steps, at, next, mode, body);
  switch (step.axis) {
    case "call":
      if (step.call.name === "doc") throw new NotApplicable("needs another document: doc() loads an imported or leveraged OSCAL document");
      throw new Error(`unsupported function step ${step.call.name}()`);
    case "self":
      return filtered({ ...ref, conditions: alsoRequired(ref.conditions, conditionsInWords(step.predicates)) });
    case "group": {
      // (a|b/c|.//d)/rest: each branch continues with the remaining steps; group predicates apply to branch results.
      return step.branches
        .map((branch) => {
          const last = branch.steps[branch.steps.length - 1]!;
          const withPredicates = { ...last, predicates: [...last.predicates, ...step.predicates] } as Step;
          return emitSteps(ctx, [...branch.steps.slice(0, -1), withPredicates, ...steps.slice(at + 1)], 0, ref, mode, body);
        })
        .join("\n");
    }
    case "flag": {
      if (ref.type.kind === "flag") throw new NotApplicable(`a flag has no flag @${step.name}`);
      const inst = ref.type.def.flags.find((f) => f.name === step.name);
      if (!inst) throw new NotApplicable(`target names no existing node: ${ref.type.def.name} has no flag @${step.name}`);
      const f = ctx.fresh("f");
      const owner = ref.type.def;
      const next: NodeRef = { v: f, type: { kind: "flag", def: inst.def, owner }, container: ref.v, key: js(inst.jsonName), conditions: alsoRequired(ref.conditions, flagStepConditions(step)), atomic: true, via: ref.via };
      const onFlag = filtered(next);
      return `{ const ${f} = ${ref.v}${ctx.member(owner, inst.jsonName)}; if (isAtom(${f})) { ${mode.path ? atSegment(js(inst.jsonName), onFlag) : onFlag} } }`;
    }
    case "child": {
      const owner = childOwner(ref, step);
      return childInstances(owner, step)
        .map((inst) => emitInstanceLoop(ctx, ref.v, owner, inst, mode, (v, c, k) => filtered(childRef(owner, inst, step.predicates, v, c, k))))
        .join("\n");
    }
    case "descendant": {
      if (ref.type.kind !== "assembly") throw new NotApplicable(`${nodeName(ref.type)} has no descendants`);
      if (rootDescendant && !ref.type.def.rootName) throw new Error(`a //path is only supported from a root assembly`);
      if (!canReach(ctx, ref.type.def, step.names)) throw new NotApplicable(`target names no existing node: no ${step.names.join("|")} below ${ref.type.def.name}`);
      // Only the search from the context leaves nested nodes of its definition to their own: the steps after it do not.
      const { leaves, ...after } = mode;
      const found = (next: NodeRef) => afterStep(ctx, steps, at, next, after, body);
      return `${descendantFunction(ctx, ref.type.def, step, found, after, leaves)}(${ref.v});`;
    }
    default:
      throw new Error(`unsupported Metapath step (${step.axis}) in a NIST constraint`);
  }
}

/** The predicates of `steps[at]` on `next`, then the remaining steps. */
function afterStep(ctx: EmitContext, steps: readonly Step[], at: number, next: NodeRef, mode: Mode, body: (node: NodeRef) => string): string {
  const predicate = steps[at]!.predicates.map((p) => compileBoolean(ctx, p, next)).join(" && ");
  const rest = emitSteps(ctx, steps, at + 1, next, mode, body);
  return predicate ? `if (${predicate}) { ${rest} }` : rest;
}

function childOwner(ref: NodeRef, step: { names: readonly string[] }): AssemblyDef {
  if (ref.type.kind !== "assembly") throw new NotApplicable(`${nodeName(ref.type)} has no child ${step.names.join("|")}`);
  return ref.type.def;
}

/** The child instances of `owner` a child step names (all of them must exist). */
export function childInstances(owner: AssemblyDef, step: { names: readonly string[] }): ModelInstance[] {
  const instances = owner.children.filter((c) => step.names.includes(c.name));
  const missing = step.names.filter((n) => !instances.some((i) => i.name === n));
  if (missing.length > 0) throw new NotApplicable(`target names no existing node: ${owner.name} has no child ${missing.join(", ")}`);
  return instances;
}

/**
 * Like emitTarget, but a path starting (after guards on the context) with a child step becomes loop segments. With
 * `leavesNested`, for a constraint whose verdicts are the same from any context that reaches a node (allowed-values), a
 * search of the context's descendants does not search below nested nodes of the context's definition, which run the
 * same search of their own.
 */
export function targetSegments(ctx: EmitContext, expr: Expr, ref: NodeRef, body: (node: NodeRef) => string, leavesNested = false): Segment[] {
  const mode: Mode = { path: true };
  const items = expr.type === "union" ? expr.items : [expr];
  return items.flatMap((item): Segment[] => {
    const descendantAt = item.type === "path" ? rootDescendantStep(item.steps, item.rootDescendant, ref) : undefined;
    if (item.type === "path" && descendantAt !== undefined) return [descendantSegment(ctx, item.steps, descendantAt, ref, mode, body)];
    if (item.type !== "path" || item.rootDescendant) return [{ kind: "code", code: emitTarget(ctx, item, ref, mode, body) }];
    const selfSteps = item.steps.findIndex((s) => s.axis !== "self");
    const step = item.steps[selfSteps];
    const code = () => emitTarget(ctx, item, ref, mode, body);
    if (step?.axis === "descendant" && ref.type.kind === "assembly") {
      const def = ref.type.def;
      const unfiltered = item.steps.slice(0, selfSteps).every((s) => s.predicates.length === 0);
      const leaves = leavesNested && unfiltered && containsItself(def);
      // A search leaving nested nodes to their own records nothing below them, unless it names them.
      const searched = (inst: ModelInstance) => step.names.includes(inst.name) || (!(leaves && inst.def === def) && canReach(ctx, inst.def, step.names));
      const enters = def.children.filter(searched);
      return [{ kind: "code", code: emitTarget(ctx, item, ref, leaves ? { ...mode, leaves: def } : mode, body), leavesNested: leaves, enters }];
    }
    // The context node itself or its flags: nothing below a child.
    if (item.steps.slice(Math.max(selfSteps, 0)).every((s) => s.axis === "self" || s.axis === "flag")) return [{ kind: "code", code: code(), enters: [] }];
    if (step?.axis !== "child") return [{ kind: "code", code: code() }];
    const guard = item.steps.slice(0, selfSteps).flatMap((s) => s.predicates.map((p) => compileBoolean(ctx, p, ref))).join(" && ");
    const owner = childOwner(ref, step);
    return childInstances(owner, step).map((inst): LoopSegment => {
      ctx.member(owner, inst.jsonName);
      const { c, i, y } = ctx.loopNamesOf(inst);
      // Predicates read the value only, not where it sits: the filters serve both bodies.
      const filters = step.predicates.flatMap(conjuncts).map((p) => ctx.compileFilter(() => compileBoolean(ctx, p, childRef(owner, inst, step.predicates, y, c, i))));
      const render = (container: string, key: string) => emitSteps(ctx, item.steps, selfSteps + 1, childRef(owner, inst, step.predicates, y, container, key), mode, body);
      return {
        kind: "loop",
        owner,
        inst,
        guard: guard === "" ? undefined : guard,
        filters,
        inArray: inst.multiplicity === "single" ? "" : render(c, i),
        single: inst.multiplicity === "array" ? "" : render(ref.v, js(inst.jsonName)),
      };
    });
  });
}

/** Whether nodes of `def` can hold nodes of `def` (controls in controls, parts in parts). */
function containsItself(def: AssemblyDef): boolean {
  const seen = new Set<AssemblyDef>();
  const pending = [def];
  while (pending.length > 0) {
    for (const inst of pending.pop()!.children) {
      if (inst.def === def) return true;
      if (inst.def.kind === "assembly" && !seen.has(inst.def)) {
        seen.add(inst.def);
        pending.push(inst.def);
      }
    }
  }
  return false;
}

/** The operands of a predicate's top-level `and`s: members of a shared loop test each distinct one once per value. */
function conjuncts(predicate: Expr): Expr[] {
  return predicate.type === "and" ? predicate.items.flatMap(conjuncts) : [predicate];
}

/**
 * Where a path evaluated at a model's root starts with a descendant step (after self steps without predicates): the
 * root is visited once per document, so the main walk can stand for its walk of the whole document.
 */
function rootDescendantStep(steps: readonly Step[], rootDescendant: boolean, ref: NodeRef): number | undefined {
  if (ref.type.kind !== "assembly" || ref.type.def.rootName === undefined) return undefined;
  const at = steps.findIndex((s) => s.axis !== "self" || s.predicates.length > 0);
  if (at < 0 || steps[at]!.axis !== "descendant" || (rootDescendant && at !== 0)) return undefined;
  return at;
}

/** The code of every match of `steps[at]` below the root `ref`, per parent definition and child instance. */
function descendantSegment(ctx: EmitContext, steps: readonly Step[], at: number, ref: NodeRef, mode: Mode, body: (node: NodeRef) => string): DescendantSegment {
  const step = steps[at] as Step & { axis: "descendant" };
  const root = ref.type.def as AssemblyDef;
  if (!canReach(ctx, root, step.names)) throw new NotApplicable(`target names no existing node: no ${step.names.join("|")} below ${root.name}`);
  const matches = new Map<AssemblyDef, Map<ModelInstance, string>>();
  const queue: AssemblyDef[] = [root];
  const queued = new Set<AssemblyDef>(queue);
  for (let q = 0; q < queue.length; q++) {
    const current = queue[q]!;
    for (const inst of current.children) {
      if (step.names.includes(inst.name)) {
        ctx.member(current, inst.jsonName);
        let byInstance = matches.get(current);
        if (!byInstance) matches.set(current, (byInstance = new Map()));
        byInstance.set(inst, afterStep(ctx, steps, at, childRef(current, inst, step.predicates, "h", "hc", "hk"), mode, body));
      }
      if (inst.def.kind === "assembly" && !queued.has(inst.def) && canReach(ctx, inst.def, step.names)) {
        queued.add(inst.def);
        queue.push(inst.def);
      }
    }
  }
  return { kind: "descendant", matches };
}

/** A recursive function visiting every descendant named in `step` below nodes of `def`, not below nodes of `leaves`. */
function descendantFunction(
  ctx: EmitContext,
  def: AssemblyDef,
  step: Step & { axis: "child" | "descendant" },
  onMatch: (node: NodeRef) => string,
  mode: Mode,
  leaves: AssemblyDef | undefined,
): string {
  const site = ctx.fresh("D");
  const names = new Map<AssemblyDef | FieldDef, string>();
  const queue: AssemblyDef[] = [];
  const fnName = (d: AssemblyDef | FieldDef) => {
    let name = names.get(d);
    if (!name) {
      name = `${site}_${names.size}`;
      names.set(d, name);
      if (d.kind === "assembly") queue.push(d);
    }
    return name;
  };
  fnName(def);
  for (let q = 0; q < queue.length; q++) {
    const current = queue[q]!;
    const parts: string[] = [];
    for (const inst of current.children) {
      const matches = step.names.includes(inst.name);
      const deeper = inst.def.kind === "assembly" && inst.def !== leaves && canReach(ctx, inst.def, step.names);
      if (!matches && !deeper) continue;
      parts.push(
        emitInstanceLoop(ctx, "x", current, inst, mode, (v, c, k) => {
          const match = matches ? onMatch(childRef(current, inst, step.predicates, v, c, k)) : "";
          const recurse = deeper ? `${fnName(inst.def)}(${v});` : "";
          return `${match}\n${recurse}`;
        }),
      );
    }
    ctx.functions.push(`function ${fnName(current)}(x) {\n${parts.join("\n")}\n}`);
  }
  return fnName(def);
}
