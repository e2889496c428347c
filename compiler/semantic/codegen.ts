// Compiles metaschema constraints (Metapath over the metaschema model) into plain JavaScript that walks
// the JSON document once, schema-directed: one visit function per definition, constraint code run at each
// node of its context definition, index keys collected during the walk and references resolved after it.
import type { AssemblyDef, FieldDef, FlagDef, ModelInstance, RawConstraint } from "./metaschema.js";
import { parseMetapath, type Expr, type Step } from "./metapath.js";
import { datatypePattern } from "./datatypes.js";

/** A constraint that cannot be decided from one document (or never selects anything); carries the reason. */
export class NotApplicable extends Error {}

const OSCAL_NAMESPACE = "http://csrc.nist.gov/ns/oscal";

type NodeType = { kind: "assembly"; def: AssemblyDef } | { kind: "field"; def: FieldDef } | { kind: "flag"; def: FlagDef; owner: AssemblyDef | FieldDef };

interface NodeRef {
  v: string; // JS variable holding the node's JSON value
  type: NodeType;
  container: string; // JS expression: the JSON object/array holding the value
  key: string; // JS expression: its key in the container
  label: string; // Metapath-like name for messages
}

interface Mode {
  path: boolean; // maintain the JSON Pointer stack while stepping
}

export interface CompileUnit {
  constraint: RawConstraint;
  rule: number;
}

/** A JSON property the generated code reads on nodes of `owner`, and which constraint (or the walk) reads it. */
export interface Navigation {
  owner: AssemblyDef | FieldDef;
  property: string;
  by: string;
}

/** Part of a constraint's code: either one loop over the values of a child instance of the context, which
 * consecutive constraints share (their bodies run per value, in constraint order), or code run on its own. */
type Segment = { kind: "code"; code: string } | LoopSegment;

/** Bodies are rendered with the loop variables the visit function shares for `inst` (see loopNamesOf). */
interface LoopSegment {
  kind: "loop";
  owner: AssemblyDef;
  inst: ModelInstance;
  guard: string | undefined; // condition on the context node, evaluated once before the loop
  inArray: string; // body for a value inside a JSON array
  single: string; // body for a lone value
}

interface LoopNames {
  c: string;
  i: string;
  y: string;
}

/** A compiled constraint: `reset` runs before any of its segments. */
interface CompiledConstraint {
  reset: string;
  segments: Segment[];
  /** Per-node state shared across the constraint's values (is-unique set, index); a loop may hold one writer of each. */
  writes: string | undefined;
}

export interface OwnRuleIndices {
  uuidUnique: number;
  fragmentHref: number;
  insertParam: number;
}

function js(value: unknown): string {
  return JSON.stringify(value);
}

/** Pushes a segment on the generated walk's path stack, clearing the cached path node of that depth (see SemanticRun). */
function pushPath(segment: string): string {
  return `P[PL] = ${segment}; M[PL++] = undefined; `;
}

function nodeName(type: NodeType): string {
  return type.kind === "flag" ? `@${type.def.name}` : type.def.name;
}

export class Codegen {
  private readonly consts = new Map<string, string>(); // declaration text → name
  private readonly functions: string[] = [];
  private counter = 0;
  private readonly visitNames = new Map<AssemblyDef | FieldDef, string>();
  private readonly visitBodies: string[] = [];
  private readonly reachMemo = new Map<string, boolean>();
  readonly indexNames = new Set<string>();
  /** allowed-values target sites (owner definition + flag, or field definition) → constraints reaching them. */
  readonly avSites = new Map<string, Set<RawConstraint>>();
  readonly stateVars = new Set<string>();
  readonly notApplicable = new Map<RawConstraint, string>();
  private readonly navigationKeys = new Set<string>();
  readonly navigations: Navigation[] = [];
  private reader = "the document walk";
  private readonly workMemo = new Map<AssemblyDef | FieldDef, boolean>();
  private loopNames = new Map<ModelInstance, LoopNames>(); // of the visit function being compiled

  constructor(
    private readonly byContext: Map<AssemblyDef | FieldDef | FlagDef, CompileUnit[]>,
    private readonly multiSites: ReadonlySet<string>,
    private readonly own: OwnRuleIndices | undefined,
  ) {}

  private fresh(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  constant(declaration: string, prefix = "K"): string {
    const existing = this.consts.get(declaration);
    if (existing) return existing;
    const name = this.fresh(prefix);
    this.consts.set(declaration, name);
    return name;
  }

  private stringSet(values: readonly string[]): string {
    return this.constant(`new Set(${js([...values])})`, "S");
  }

  private regex(pattern: string, what: string): string {
    const source = `^(?:${pattern})$`;
    try {
      new RegExp(source);
    } catch (error) {
      throw new Error(`${what}: regular expression not valid in JavaScript: ${String(error)}`);
    }
    return this.constant(`new RegExp(${js(source)})`, "R");
  }

  /** Property access `[name]` on a node of `owner`, recorded for the JSON-schema cross-check. */
  private member(owner: AssemblyDef | FieldDef, property: string): string {
    const key = `${owner.contextPath}|${property}|${this.reader}`;
    if (!this.navigationKeys.has(key)) {
      this.navigationKeys.add(key);
      this.navigations.push({ owner, property, by: this.reader });
    }
    return `[${js(property)}]`;
  }

  private indexVar(name: string): string {
    this.indexNames.add(name);
    return `IX[${js(name)}]`;
  }

  // ---------------------------------------------------------------- model navigation

  private canReach(def: AssemblyDef | FieldDef, names: readonly string[]): boolean {
    const memoKey = `${def.contextPath}|${names.join(",")}`;
    const memo = this.reachMemo.get(memoKey);
    if (memo !== undefined) return memo;
    this.reachMemo.set(memoKey, false); // cycle guard
    let result = false;
    if (def.kind === "assembly") {
      for (const child of def.children) {
        if (names.includes(child.name) || this.canReach(child.def, names)) { result = true; break; }
      }
    }
    this.reachMemo.set(memoKey, result);
    return result;
  }

  private itemGuard(def: AssemblyDef | FieldDef, v: string): string {
    return def.kind === "field" && def.valueKey === null ? `isAtom(${v})` : `isObj(${v})`;
  }

  /** Loop over the JSON values of one model instance of `parent`, honouring its JSON multiplicity. */
  private emitInstanceLoop(
    parent: string,
    owner: AssemblyDef,
    inst: ModelInstance,
    mode: Mode,
    body: (v: string, container: string, key: string) => string,
    { c, i, y }: LoopNames = { c: this.fresh("c"), i: this.fresh("i"), y: this.fresh("y") },
  ): string {
    const guard = this.itemGuard(inst.def, y);
    const push = (seg: string) => (mode.path ? pushPath(seg) : "");
    const pop = mode.path ? " PL--;" : "";
    const arrayLoop = `for (let ${i} = 0; ${i} < ${c}.length; ${i}++) { const ${y} = ${c}[${i}]; ${push(i)}if (${guard}) { ${body(y, c, i)} }${pop} }`;
    const single = `{ const ${y} = ${c}; if (${guard}) { ${body(y, parent, js(inst.jsonName))} } }`;
    let inner: string;
    if (inst.multiplicity === "array") inner = `if (Array.isArray(${c})) { ${arrayLoop} }`;
    else if (inst.multiplicity === "single") inner = `if (!Array.isArray(${c})) ${single}`;
    else inner = `if (Array.isArray(${c})) { ${arrayLoop} } else ${single}`;
    return `{ const ${c} = ${parent}${this.member(owner, inst.jsonName)}; if (${c} !== undefined) { ${push(js(inst.jsonName))}${inner}${pop} } }`;
  }

  private childRef(inst: ModelInstance, v: string, container: string, key: string): NodeRef {
    const type: NodeType = inst.def.kind === "assembly" ? { kind: "assembly", def: inst.def } : { kind: "field", def: inst.def };
    return { v, type, container, key, label: inst.name };
  }

  // ---------------------------------------------------------------- target paths

  /** Statements running `body` once per node selected by `expr` from `ref`. */
  emitTarget(expr: Expr, ref: NodeRef, mode: Mode, body: (node: NodeRef) => string): string {
    if (expr.type === "union") return expr.items.map((item) => this.emitTarget(item, ref, mode, body)).join("\n");
    if (expr.type !== "path") throw new Error(`a target must be a path, got ${expr.type}`);
    return this.emitSteps(expr.steps, 0, ref, mode, body, expr.rootDescendant);
  }

  private emitSteps(steps: readonly Step[], at: number, ref: NodeRef, mode: Mode, body: (node: NodeRef) => string, rootDescendant = false): string {
    if (at === steps.length) return body(ref);
    const step = steps[at]!;
    const filtered = (next: NodeRef) => this.afterStep(steps, at, next, mode, body);
    switch (step.axis) {
      case "call":
        if (step.call.name === "doc") throw new NotApplicable("needs another document: doc() loads an imported or leveraged OSCAL document");
        throw new Error(`unsupported function step ${step.call.name}()`);
      case "self":
        return filtered(ref);
      case "group": {
        // (a|b/c|.//d)/rest: each branch continues with the remaining steps; group predicates apply to branch results.
        return step.branches
          .map((branch) => {
            const last = branch.steps[branch.steps.length - 1]!;
            const withPredicates = { ...last, predicates: [...last.predicates, ...step.predicates] } as Step;
            return this.emitSteps([...branch.steps.slice(0, -1), withPredicates, ...steps.slice(at + 1)], 0, ref, mode, body);
          })
          .join("\n");
      }
      case "flag": {
        if (ref.type.kind === "flag") throw new NotApplicable(`a flag has no flag @${step.name}`);
        const inst = ref.type.def.flags.find((f) => f.name === step.name);
        if (!inst) throw new NotApplicable(`target names no existing node: ${ref.type.def.name} has no flag @${step.name}`);
        const f = this.fresh("f");
        const owner = ref.type.def;
        const next: NodeRef = { v: f, type: { kind: "flag", def: inst.def, owner }, container: ref.v, key: js(inst.jsonName), label: `${ref.label}/@${inst.name}` };
        const push = mode.path ? pushPath(js(inst.jsonName)) : "";
        const pop = mode.path ? " PL--;" : "";
        return `{ const ${f} = ${ref.v}${this.member(owner, inst.jsonName)}; if (isAtom(${f})) { ${push}${filtered(next)}${pop} } }`;
      }
      case "child": {
        const owner = this.childOwner(ref, step);
        return this.childInstances(owner, step)
          .map((inst) => this.emitInstanceLoop(ref.v, owner, inst, mode, (v, c, k) => filtered(this.childRef(inst, v, c, k))))
          .join("\n");
      }
      case "descendant": {
        if (ref.type.kind !== "assembly") throw new NotApplicable(`${nodeName(ref.type)} has no descendants`);
        if (rootDescendant && !ref.type.def.rootName) throw new Error(`a //path is only supported from a root assembly`);
        if (!this.canReach(ref.type.def, step.names)) throw new NotApplicable(`target names no existing node: no ${step.names.join("|")} below ${ref.type.def.name}`);
        return `${this.descendantFunction(ref.type.def, step, (next) => filtered(next), mode)}(${ref.v});`;
      }
    }
  }

  /** The predicates of `steps[at]` on `next`, then the remaining steps. */
  private afterStep(steps: readonly Step[], at: number, next: NodeRef, mode: Mode, body: (node: NodeRef) => string): string {
    const predicate = steps[at]!.predicates.map((p) => this.compileBoolean(p, next)).join(" && ");
    const rest = this.emitSteps(steps, at + 1, next, mode, body);
    return predicate ? `if (${predicate}) { ${rest} }` : rest;
  }

  private childOwner(ref: NodeRef, step: { names: readonly string[] }): AssemblyDef {
    if (ref.type.kind !== "assembly") throw new NotApplicable(`${nodeName(ref.type)} has no child ${step.names.join("|")}`);
    return ref.type.def;
  }

  private childInstances(owner: AssemblyDef, step: { names: readonly string[] }): ModelInstance[] {
    const instances = owner.children.filter((c) => step.names.includes(c.name));
    const missing = step.names.filter((n) => !instances.some((i) => i.name === n));
    if (missing.length > 0) throw new NotApplicable(`target names no existing node: ${owner.name} has no child ${missing.join(", ")}`);
    return instances;
  }

  /** Like emitTarget, but a path starting (after guards on the context) with a child step becomes loop segments. */
  private targetSegments(expr: Expr, ref: NodeRef, body: (node: NodeRef) => string): Segment[] {
    const mode: Mode = { path: true };
    const items = expr.type === "union" ? expr.items : [expr];
    return items.flatMap((item): Segment[] => {
      if (item.type !== "path" || item.rootDescendant) return [{ kind: "code", code: this.emitTarget(item, ref, mode, body) }];
      const selfSteps = item.steps.findIndex((s) => s.axis !== "self");
      const step = item.steps[selfSteps];
      if (step?.axis !== "child") return [{ kind: "code", code: this.emitTarget(item, ref, mode, body) }];
      const guard = item.steps.slice(0, selfSteps).flatMap((s) => s.predicates.map((p) => this.compileBoolean(p, ref))).join(" && ");
      const owner = this.childOwner(ref, step);
      return this.childInstances(owner, step).map((inst): Segment => {
        this.member(owner, inst.jsonName);
        const { c, i, y } = this.loopNamesOf(inst);
        const render = (container: string, key: string) => this.afterStep(item.steps, selfSteps, this.childRef(inst, y, container, key), mode, body);
        return {
          kind: "loop",
          owner,
          inst,
          guard: guard === "" ? undefined : guard,
          inArray: inst.multiplicity === "single" ? "" : render(c, i),
          single: inst.multiplicity === "array" ? "" : render(ref.v, js(inst.jsonName)),
        };
      });
    });
  }

  private loopNamesOf(inst: ModelInstance): LoopNames {
    let names = this.loopNames.get(inst);
    if (!names) this.loopNames.set(inst, (names = { c: this.fresh("c"), i: this.fresh("i"), y: this.fresh("y") }));
    return names;
  }

  /** A recursive function visiting every descendant named in `step` below nodes of `def`. */
  private descendantFunction(def: AssemblyDef, step: Step & { axis: "child" | "descendant" }, onMatch: (node: NodeRef) => string, mode: Mode): string {
    const site = this.fresh("D");
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
        const deeper = inst.def.kind === "assembly" && this.canReach(inst.def, step.names);
        if (!matches && !deeper) continue;
        parts.push(
          this.emitInstanceLoop("x", current, inst, mode, (v, c, k) => {
            const match = matches ? onMatch(this.childRef(inst, v, c, k)) : "";
            const recurse = deeper ? `${fnName(inst.def)}(${v});` : "";
            return `${match}\n${recurse}`;
          }),
        );
      }
      this.functions.push(`function ${fnName(current)}(x) {\n${parts.join("\n")}\n}`);
    }
    return fnName(def);
  }

  // ---------------------------------------------------------------- expressions

  /** JS expression: the single atomised value of `expr` (or undefined), when `expr` yields at most one value. */
  private singleValue(expr: Expr, ref: NodeRef): string | undefined {
    if (expr.type === "literal") return js(expr.value);
    if (expr.type !== "path" || expr.rootDescendant || expr.steps.length !== 1) return undefined;
    const step = expr.steps[0]!;
    if (step.predicates.length > 0) return undefined;
    if (step.axis === "self") return this.atomOf(ref);
    if (step.axis === "flag" && ref.type.kind !== "flag") {
      const inst = ref.type.def.flags.find((f) => f.name === step.name);
      if (!inst) throw new NotApplicable(`target names no existing node: ${ref.type.def.name} has no flag @${step.name}`);
      return `AT(${ref.v}${this.member(ref.type.def, inst.jsonName)})`;
    }
    return undefined;
  }

  private atomOf(ref: NodeRef): string {
    if (ref.type.kind === "flag") return `AT(${ref.v})`;
    if (ref.type.kind === "field") return ref.type.def.valueKey === null ? `AT(${ref.v})` : `AT(${ref.v}${this.member(ref.type.def, ref.type.def.valueKey)})`;
    throw new Error(`an assembly (${ref.type.def.name}) has no atomic value`);
  }

  /** JS expression: an array of all atomised values of `expr`. */
  private values(expr: Expr, ref: NodeRef): string {
    const single = this.singleValue(expr, ref);
    if (single !== undefined) return `SEQ(${single})`;
    if (expr.type === "sequence") {
      if (!expr.items.every((i) => i.type === "literal")) throw new Error("only literal sequences are supported");
      return this.constant(js(expr.items.map((i) => (i as { value: unknown }).value)), "L");
    }
    return `${this.helper(expr, ref, "values")}(${ref.v})`;
  }

  /** A generated function of the node evaluating a path for existence or for its values (no path stack). */
  private helper(expr: Expr, ref: NodeRef, kind: "exists" | "values"): string {
    const name = this.fresh(kind === "exists" ? "Q" : "V_");
    const arg: NodeRef = { ...ref, v: "n" };
    const containsDescendant = JSON.stringify(expr).includes('"descendant"');
    if (containsDescendant) throw new Error(`a // step inside a predicate or test is not supported: ${JSON.stringify(expr)}`);
    const body =
      kind === "exists"
        ? `${this.emitTarget(expr, arg, { path: false }, () => "return true;")}\nreturn false;`
        : `const out = [];\n${this.emitTarget(expr, arg, { path: false }, (node) => `{ const a = ${this.atomOf(node)}; if (a !== undefined) out.push(a); }`)}\nreturn out;`;
    this.functions.push(`function ${name}(n) {\n${body}\n}`);
    return name;
  }

  compileBoolean(expr: Expr, ref: NodeRef): string {
    switch (expr.type) {
      case "and":
      case "or":
        return `(${expr.items.map((i) => this.compileBoolean(i, ref)).join(expr.type === "and" ? " && " : " || ")})`;
      case "cmp": {
        const left = this.singleValue(expr.left, ref);
        const right = expr.right;
        if (left !== undefined && (expr.op === "=" || expr.op === "!=") && right.type === "literal") {
          return expr.op === "=" ? `(AS(${left}) === ${js(String(right.value))})` : `NE(AS(${left}), ${js(String(right.value))})`;
        }
        if (left !== undefined && expr.op === "=" && right.type === "sequence" && right.items.every((i) => i.type === "literal")) {
          return `${this.stringSet(right.items.map((i) => String((i as { value: unknown }).value)))}.has(AS(${left}))`;
        }
        return `CMPG(${js(expr.op)}, ${this.values(expr.left, ref)}, ${this.values(expr.right, ref)})`;
      }
      case "call":
        return this.compileCall(expr, ref);
      case "literal":
        return js(Boolean(expr.value));
      case "sequence":
        return js(expr.items.length > 0);
      case "path":
      case "union": {
        const single = this.singleValue(expr, ref);
        if (single !== undefined) return `(${single} !== undefined)`;
        if (expr.type === "path" && expr.steps.length === 1 && expr.steps[0]!.axis === "child" && expr.steps[0]!.predicates.length === 0 && ref.type.kind === "assembly") {
          const step = expr.steps[0] as Step & { axis: "child" };
          const def = ref.type.def;
          const instances = def.children.filter((c) => step.names.includes(c.name));
          if (instances.length !== step.names.length) throw new NotApplicable(`target names no existing node: ${def.name} has no child ${step.names.join("|")}`);
          return `(${instances.map((i) => `HAS(${ref.v}${this.member(def, i.jsonName)})`).join(" || ")})`;
        }
        return `${this.helper(expr, ref, "exists")}(${ref.v})`;
      }
    }
  }

  private compileCall(expr: Expr & { type: "call" }, ref: NodeRef): string {
    const args = expr.args;
    switch (expr.name) {
      case "not":
        return `!${this.compileBoolean(args[0]!, ref)}`;
      case "exists":
        return this.compileBoolean(args[0]!, ref);
      case "true":
        return "true";
      case "false":
        return "false";
      case "starts-with": {
        const subject = this.singleValue(args[0]!, ref);
        const prefix = args[1];
        if (subject === undefined || prefix?.type !== "literal") throw new Error("starts-with() is supported on a single value and a literal prefix");
        return `SW(${subject}, ${js(String(prefix.value))})`;
      }
      case "has-oscal-namespace": {
        const nsFlag = ref.type.kind === "flag" ? undefined : ref.type.def.flags.find((f) => f.name === "ns");
        if (ref.type.kind === "flag" || !nsFlag) {
          throw new NotApplicable(`not evaluable: has-oscal-namespace() applied to ${nodeName(ref.type)}, which has no @ns flag (metaschema-java rejects this too)`);
        }
        const namespaces = args.flatMap((a) => (a.type === "sequence" ? a.items : [a])).map((a) => {
          if (a.type !== "literal") throw new Error("has-oscal-namespace() takes literal namespaces");
          return String(a.value);
        });
        // A missing @ns means the OSCAL namespace.
        const set = this.stringSet(namespaces);
        const ns = `${ref.v}${this.member(ref.type.def, nsFlag.jsonName)}`;
        return namespaces.includes(OSCAL_NAMESPACE) ? `(${ns} === undefined || ${set}.has(AS(${ns})))` : `${set}.has(AS(${ns}))`;
      }
      case "doc":
        throw new NotApplicable("needs another document: doc() loads an imported or leveraged OSCAL document");
      default:
        throw new Error(`unsupported Metapath function ${expr.name}()`);
    }
  }

  // ---------------------------------------------------------------- keys

  /** JS expression: the index key of a node (string, or null when every key field is empty). */
  private keyExpression(c: RawConstraint, ref: NodeRef): string {
    const parts = c.keyFields.map((kf) => {
      const expr = parseMetapath(kf.target);
      let value = this.singleValue(expr, ref);
      if (value === undefined) value = `${this.values(expr, ref)}[0]`;
      const str = `AS(${value})`;
      if (kf.pattern === undefined) return str;
      // The key is the first capturing group of a full match; a non-matching or empty group gives no key.
      const re = this.regex(kf.pattern, c.key);
      return `KEYPAT(${re}, ${str})`;
    });
    if (parts.length === 1) return `KEY1(${parts[0]})`;
    return `KEYN([${parts.join(", ")}])`;
  }

  /** For index-has-key with one key field: every value is a reference (e.g. several party-uuid fields). */
  private keyExpressions(c: RawConstraint, ref: NodeRef): string {
    const onlyField = c.keyFields[0];
    if (c.keyFields.length !== 1 || !onlyField) return `[${this.keyExpression(c, ref)}]`;
    const expr = parseMetapath(onlyField.target);
    if (this.singleValue(expr, ref) !== undefined) return `[${this.keyExpression(c, ref)}]`;
    const values = this.values(expr, ref);
    const re = onlyField.pattern === undefined ? undefined : this.regex(onlyField.pattern, c.key);
    return `${values}.map((v) => KEY1(${re ? `KEYPAT(${re}, AS(v))` : "AS(v)"}))`;
  }

  // ---------------------------------------------------------------- constraints

  private siteOf(node: NodeRef): string {
    return node.type.kind === "flag" ? `${node.type.owner.contextPath}/@${node.type.def.name}` : node.type.def.contextPath;
  }

  compileConstraint(unit: CompileUnit, ref: NodeRef): CompiledConstraint {
    const { constraint: c, rule } = unit;
    const target = parseMetapath(c.target);
    const id = c.nistId ?? c.key;
    const perNode = (body: (node: NodeRef) => string, reset = "", writes?: string): CompiledConstraint => ({ reset, segments: this.targetSegments(target, ref, body), writes });
    switch (c.kind) {
      case "allowed-values": {
        const values = c.enums.map((e) => e.value);
        const set = this.stringSet(values);
        return perNode((node) => {
          const site = this.siteOf(node);
          let sites = this.avSites.get(site);
          if (!sites) this.avSites.set(site, (sites = new Set()));
          sites.add(c);
          const v = this.fresh("v");
          if (this.multiSites.has(site)) return `{ const ${v} = ${this.atomOf(node)}; if (${v} !== undefined) R.allowed(${rule}, ${set}.has(String(${v})), ${node.container}, ${node.key}, ${v}, PL); }`;
          if (c.allowOther) return ""; // alone, or with only allow-other="yes" company, it can never be violated
          return `{ const ${v} = ${this.atomOf(node)}; if (${v} !== undefined && !${set}.has(String(${v}))) R.report(${rule}, PL, "Value " + EX(${v}) + " is not allowed for ${node.label}; allowed: " + ${js(listText(values))} + " [${id}]"); }`;
        });
      }
      case "matches": {
        const checks: string[] = [];
        if (c.regex !== undefined) checks.push(`!${this.regex(c.regex, c.key)}.test(s)`);
        if (c.datatype !== undefined) checks.push(`!${this.regex(datatypePattern(c.datatype), c.key)}.test(s)`);
        const expected = [c.regex ? `the pattern ${c.regex}` : "", c.datatype ? `the ${c.datatype} datatype` : ""].filter(Boolean).join(" and ");
        return perNode((node) =>
          `{ const v = ${this.atomOf(node)}; if (v !== undefined) { const s = String(v); if (${checks.join(" || ")}) R.report(${rule}, PL, "Value " + EX(s) + " of ${node.label} does not match ${expected.replace(/"/g, '\\"')} [${id}]"); } }`,
        );
      }
      case "expect": {
        const test = parseMetapath(c.test!);
        const message = c.message ?? `Expected ${c.test} to hold`;
        return perNode((node) => `if (!(${this.compileBoolean(test, node)})) R.report(${rule}, PL, ${js(`${message} (${node.label}) [${id}]`)});`);
      }
      case "has-cardinality": {
        // Reports at the context after counting, so it stays one block rather than joining a shared loop.
        const counter = this.state(`C${rule}`, "0");
        const counting = this.emitTarget(target, ref, { path: false }, () => `${counter}++;`);
        const checks: string[] = [];
        if (c.minOccurs !== undefined) checks.push(`if (${counter} < ${c.minOccurs}) R.report(${rule}, PL, "Expected at least ${c.minOccurs} of ${c.target.replace(/"/g, "'")} in ${ref.label}, found " + ${counter} + " [${id}]");`);
        if (c.maxOccurs !== undefined) checks.push(`if (${counter} > ${c.maxOccurs}) R.report(${rule}, PL, "Expected at most ${c.maxOccurs} of ${c.target.replace(/"/g, "'")} in ${ref.label}, found " + ${counter} + " [${id}]");`);
        return { reset: "", segments: [{ kind: "code", code: `${counter} = 0;\n${counting}\n${checks.join("\n")}` }], writes: undefined };
      }
      case "is-unique": {
        const seen = this.state(`U${rule}`, "null");
        const fields = c.keyFields.map((k) => k.target).join(", ");
        return perNode(
          (node) =>
            `{ const k = ${this.keyExpression(c, node)}; if (k !== null) { if (${seen} === null) ${seen} = new Set(); if (${seen}.has(k)) R.report(${rule}, PL, "Duplicate ${node.label} (${fields}) " + EX(k) + " within ${ref.label} [${id}]"); else ${seen}.add(k); } }`,
          `${seen} = null;`,
          seen,
        );
      }
      case "index": {
        const index = this.indexVar(c.indexName!);
        const fields = c.keyFields.map((k) => k.target).join(", ");
        return perNode(
          (node) =>
            `{ const k = ${this.keyExpression(c, node)}; if (k !== null) { if (${index}.has(k)) R.report(${rule}, PL, "Duplicate key (${fields}) " + EX(k) + " in index ${c.indexName} [${id}]"); else ${index}.add(k); } }`,
          "",
          index,
        );
      }
      case "index-has-key": {
        const index = this.indexVar(c.indexName!);
        const fields = c.keyFields.map((k) => k.target).join(", ");
        return perNode((node) => {
          const label = `${node.label} (${fields}) refers to a key missing from index ${c.indexName}:`;
          return `{ const ks = ${this.keyExpressions(c, node)}; for (let j = 0; j < ks.length; j++) R.reference(${rule}, ${index}, ks[j], PL, ${js(label)}); }`;
        });
      }
    }
  }

  /** The compiled constraint, or undefined (recorded with its reason) when it is not applicable. */
  private compileApplicable(unit: CompileUnit, ref: NodeRef): CompiledConstraint | undefined {
    if (this.notApplicable.has(unit.constraint)) return undefined;
    this.reader = `constraint ${unit.constraint.nistId ?? unit.constraint.key} (${unit.constraint.key})`;
    try {
      return this.compileConstraint(unit, ref);
    } catch (error) {
      if (!(error instanceof NotApplicable)) throw new Error(`${unit.constraint.key}: ${error instanceof Error ? error.message : String(error)}`);
      this.notApplicable.set(unit.constraint, error.message);
      return undefined;
    } finally {
      this.reader = "the document walk";
    }
  }

  /**
   * The constraints of one context, in order, each behind its rule switch. Consecutive loops over the same child
   * instance share one pass: per value the bodies still run in constraint order, so every node sees the same
   * sequence of checks (and findings keep their order); a loop holds one writer of each is-unique set or index,
   * since which duplicate is reported depends on the order values are added.
   */
  private constraintBlocks(units: readonly CompileUnit[], ref: NodeRef): string[] {
    const blocks: string[] = [];
    let loop: { resets: string[]; members: { rule: number; segment: LoopSegment }[]; writes: Set<string> } | undefined;
    const flush = () => {
      if (loop) blocks.push(this.emitSharedLoop(loop.resets, loop.members));
      loop = undefined;
    };
    this.loopNames = new Map();
    for (const unit of units) {
      const compiled = this.compileApplicable(unit, ref);
      if (!compiled) continue;
      let reset = compiled.reset === "" ? "" : `if (A[${unit.rule}] === 1) ${compiled.reset}`;
      for (const segment of compiled.segments) {
        if (segment.kind === "code") {
          flush();
          blocks.push(`if (A[${unit.rule}] === 1) {\n${compiled.reset === "" ? "" : `${compiled.reset}\n`}${segment.code}\n}`);
        } else {
          if (!loop || loop.members[0]!.segment.inst !== segment.inst || (compiled.writes !== undefined && loop.writes.has(compiled.writes))) {
            flush();
            loop = { resets: [], members: [], writes: new Set() };
          }
          if (reset !== "") loop.resets.push(reset);
          if (compiled.writes !== undefined) loop.writes.add(compiled.writes);
          loop.members.push({ rule: unit.rule, segment });
        }
        reset = "";
      }
    }
    flush();
    return blocks;
  }

  private emitSharedLoop(resets: readonly string[], members: readonly { rule: number; segment: LoopSegment }[]): string {
    const { owner, inst } = members[0]!.segment;
    const names = this.loopNamesOf(inst);
    const switches = members.map(() => this.fresh("g"));
    const declarations = members.map(({ rule, segment }, m) => `const ${switches[m]} = A[${rule}] === 1${segment.guard === undefined ? "" : ` && ${segment.guard}`};`);
    const loop = this.emitInstanceLoop(
      "x",
      owner,
      inst,
      { path: true },
      (_v, container) => members.map(({ segment }, m) => `if (${switches[m]}) { ${container === names.c ? segment.inArray : segment.single} }`).join("\n"),
      names,
    );
    return `{ ${[...resets, ...declarations].join(" ")}\nif (${switches.join(" || ")}) ${loop} }`;
  }

  private state(name: string, initial: string): string {
    this.stateVars.add(`let ${name} = ${initial};`);
    return name;
  }

  // ---------------------------------------------------------------- the walk

  visitFunction(def: AssemblyDef | FieldDef): string {
    const existing = this.visitNames.get(def);
    if (existing) return existing;
    const name = `W${this.visitNames.size}`;
    this.visitNames.set(def, name);
    const ref: NodeRef = { v: "x", type: def.kind === "assembly" ? { kind: "assembly", def } : { kind: "field", def }, container: "pc", key: "pk", label: def.name };
    // Every caller has checked the node's shape (itemGuard, or check() for the root), so the function does not again.
    const lines: string[] = [`function ${name}(x, pc, pk) {`];
    lines.push(...this.constraintBlocks(this.byContext.get(def) ?? [], ref));
    for (const flag of def.flags) {
      const units = this.byContext.get(flag.def) ?? [];
      const ownChecks = this.ownFlagChecks(flag.name, flag.def, def);
      if (units.length === 0 && ownChecks === "") continue;
      const flagRef: NodeRef = { v: "f", type: { kind: "flag", def: flag.def, owner: def }, container: "x", key: js(flag.jsonName), label: `${def.name}/@${flag.name}` };
      const body = this.constraintBlocks(units, flagRef).join("\n");
      if (units.length > 0) this.reader = `the constraints on ${def.name}/@${flag.name} (${units.map((u) => u.constraint.nistId ?? u.constraint.key).join(", ")})`;
      const read = this.member(def, flag.jsonName);
      this.reader = "the document walk";
      lines.push(`{ const f = x${read}; if (isAtom(f)) { ${pushPath(js(flag.jsonName))}\n${body}\n${ownChecks}\nPL--; } }`);
    }
    if (def.kind === "field" && (def.asType === "markup-line" || def.asType === "markup-multiline") && this.own) {
      const text = def.valueKey === null ? "x" : `x${this.member(def, def.valueKey)}`;
      lines.push(`if (R.paramIds !== null) { ${def.valueKey === null ? "" : pushPath(js(def.valueKey))}R.insertions(${text}, ${this.own.insertParam}, PL);${def.valueKey === null ? "" : " PL--;"} }`);
    }
    if (def.kind === "assembly") {
      if (def.name === "parameter" && this.own) lines.push(`if (R.paramIds !== null) { const id = x${this.member(def, "id")}; if (typeof id === "string") R.paramIds.add(id); }`);
      for (const inst of def.children) {
        if (!this.subtreeHasWork(inst.def)) continue;
        const visit = this.visitFunction(inst.def);
        lines.push(this.emitInstanceLoop("x", def, inst, { path: true }, (v, c, k) => `${visit}(${v}, ${c}, ${k});`));
      }
    }
    lines.push("}");
    this.visitBodies.push(lines.join("\n"));
    return name;
  }

  /** Whether visiting nodes of `def` can do anything: some constraint or rule of ours applies in its subtree. */
  private subtreeHasWork(def: AssemblyDef | FieldDef): boolean {
    const memo = this.workMemo.get(def);
    if (memo !== undefined) return memo;
    const seen = new Set<AssemblyDef | FieldDef>();
    const pending = [def];
    let found = false;
    while (!found && pending.length > 0) {
      const current = pending.pop()!;
      if (seen.has(current)) continue;
      seen.add(current);
      found = this.hasLocalWork(current);
      if (current.kind === "assembly") for (const child of current.children) pending.push(child.def);
    }
    this.workMemo.set(def, found);
    return found;
  }

  /** Mirrors what visitFunction emits for the node itself (constraints, flag checks, rules of ours). */
  private hasLocalWork(def: AssemblyDef | FieldDef): boolean {
    const hasUnits = (d: AssemblyDef | FieldDef | FlagDef) => (this.byContext.get(d) ?? []).length > 0;
    if (hasUnits(def) || def.flags.some((flag) => hasUnits(flag.def) || this.ownFlagChecks(flag.name, flag.def, def) !== "")) return true;
    if (!this.own) return false;
    return def.kind === "field" ? def.asType === "markup-line" || def.asType === "markup-multiline" : def.name === "parameter";
  }

  /** Document-wide rules of ours that look at every flag of a given name. */
  private ownFlagChecks(flagName: string, def: FlagDef, owner: AssemblyDef | FieldDef): string {
    if (!this.own) return "";
    if (flagName === "uuid" && def.asType === "uuid") {
      return `if (A[${this.own.uuidUnique}] === 1) { if (R.uuids.has(f)) R.report(${this.own.uuidUnique}, PL, "UUID " + EX(f) + " is declared more than once in the document"); else R.uuids.add(f); }
R.ids.add(String(f));`;
    }
    if (flagName === "id") return "R.ids.add(String(f));";
    // A profile import's "#uuid" is checked by the more specific profile-import rule.
    if (flagName === "href" && !(owner.name === "import" && owner.contextPath.startsWith("oscal_profile:"))) {
      // A target declared earlier resolves at once; only the others wait, with their path, for the end of the walk.
      return `if (A[${this.own.fragmentHref}] === 1 && typeof f === "string" && f.charCodeAt(0) === 35) { const fragment = f.slice(1); if (!R.ids.has(fragment)) R.link(fragment, PL); }`;
    }
    return "";
  }

  code(): { declarations: string; functions: string } {
    const declarations = [...this.consts].map(([decl, name]) => `const ${name} = ${decl};`);
    return { declarations: [...declarations, ...[...this.stateVars].sort()].join("\n"), functions: [...this.functions, ...this.visitBodies].join("\n\n") };
  }
}

function listText(values: readonly string[]): string {
  const sorted = [...new Set(values)].sort();
  const shown = sorted.slice(0, 12).map((v) => JSON.stringify(v)).join(", ");
  return sorted.length > 12 ? `${shown}, ... (${sorted.length - 12} more)` : shown;
}

