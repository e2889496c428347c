// The rule-pack engine: runs a pack's generated code (compiler/packs/emit: one walk that finds every context node,
// and each constraint's Metapath compiled to functions over ./primitives.ts) on a parsed OSCAL JSON document, counting
// what passes and fails per rule. Findings point at the JSON nodes with RFC 6901 pointers. Other documents come only
// from the caller (`documents`): nothing here reads files or touches the network.
import type { PackRule, PrimitiveName } from "#generated/packs/index.js";
import { excerpt } from "../core/issue-bounds.js";
import { allowedList, notAllowed } from "../semantic/helpers.cjs";
import { viewOf, XNode, type DocumentView, type Item, type ViewDefinitions } from "./node-view.js";
import * as primitives from "./primitives.js";
import { atomize, atomOf, effectiveBoolean, flagValueOf, NotEvaluated, type Evaluator } from "./primitives.js";

export type { PackRule } from "#generated/packs/index.js";

/** Every primitive a pack's generated code calls: the build fails to type-check when one is missing here. */
const PRIMITIVES: Record<PrimitiveName, unknown> & typeof primitives = primitives;

/** A constraint's key field: a flag of the target (read from the JSON) or an expression's first atom. */
export interface KeyField {
  key: primitives.KeyOf;
  /** key-field/@pattern: the key is the first capturing group of a full match. */
  pattern?: string;
}

export interface PackConstraint {
  rule: number; // index into rules; -1 for an index (they have no id and feed index-has-key)
  kind: "expect" | "allowed-values" | "matches" | "index" | "index-has-key" | "is-unique";
  /** Its targets; absent for `.`, its context node itself. */
  targets?: Evaluator;
  /** An expect constraint's test. */
  test?: Evaluator;
  /** The variable the test reads before anything else: its value depends on no target. */
  leading?: string;
  values?: string[];
  allowOther?: boolean;
  /** Full-match regular expression sources a value must all match (the regex, the datatype's pattern). */
  patterns?: string[];
  index?: string;
  keys?: KeyField[];
  /** The message template: text, and expressions rendered as short excerpts. */
  message?: (string | Evaluator)[];
  /** The searches of the document's descendants it may make (indexes into the program's searches). */
  searches?: number[];
}

export interface PackContext {
  /** The context nodes, for a context the walk does not find (its targets are not plain child and descendant paths). */
  targets?: Evaluator;
  /** Lets, in order, each evaluated on first use in the focus of its context node. */
  lets: { name: string; value: Evaluator }[];
  constraints: PackConstraint[];
}

/** What a pack's generated module makes of the primitives: its node view, rules, contexts and walk. */
export interface PackProgram extends ViewDefinitions {
  name: string;
  rules: PackRule[];
  contexts: PackContext[];
  /** The names of each search of the document's descendants (`//component`): also the key of its result on the node. */
  searches: readonly (readonly string[])[];
  /**
   * From the document node, in document order, into `sites[slot]` when `wanted[slot]`: the nodes of each walked
   * context (slot: its index), then those of each search (slot: the number of contexts plus its index). Only the walk
   * functions that are `live` are entered.
   */
  walk(document: XNode, sites: XNode[][], wanted: readonly boolean[], live: readonly boolean[]): void;
  /** Per walk function, the slots it can reach: it is live when one of them is wanted. */
  walkSlots: readonly (readonly number[])[];
}

/** A pack's generated module (generated/packs/<name>.cjs): its program, given the primitives it calls. */
export type PackModule = (runtime: typeof primitives) => PackProgram;

const programs = new WeakMap<PackModule, PackProgram>();
/** The program of a pack's module, made once. */
export function packProgram(module: PackModule): PackProgram {
  let program = programs.get(module);
  if (program === undefined) programs.set(module, (program = module(PRIMITIVES)));
  return program;
}

/** Documents a constraint may load (`doc()`): href → parsed JSON, or a function answering undefined for "not available". */
export type DocumentSource = Readonly<Record<string, unknown>> | ((href: string) => unknown);

/** The document `documents` holds for `href`, or undefined. */
export function documentFor(documents: DocumentSource, href: string): unknown {
  return typeof documents === "function" ? documents(href) : Object.hasOwn(documents, href) ? documents[href] : undefined;
}

export interface PackRunOptions {
  /** Rule indexes to report on. */
  active: (rule: number) => boolean;
  /** Absent: every constraint that needs another document is reported as not evaluated. */
  documents?: DocumentSource;
  now: Date;
}

export interface PackFinding {
  rule: number;
  keyword: string;
  /** Not evaluated: inputs that cannot be resolved from the document and the documents supplied. */
  notEvaluated?: true;
  /** The JSON Pointer and the message, worked out when asked for: a report lists few of what may be many findings. */
  describe(): { path: string; message: string };
}

/** Per rule: targets that passed, failed, and how many evaluations could not be made. */
export interface RuleResults {
  pass: number;
  fail: number;
  notEvaluated: number;
}

type Let = PackContext["lets"][number];
const NO_LETS: readonly Let[] = [];
/** The value of a bound variable: never evaluated, as its value is known from the start. */
const BOUND: Evaluator = () => [];

/** Variables: a context's lets (evaluated on first use, in the context node's focus) and quantifier bindings. */
export class Scope {
  /** The lets' values by position, computed on first use (a small array rather than a map: a scope per node). */
  private values: (Item[] | NotEvaluated | undefined)[] | undefined;
  constructor(
    readonly run: Run,
    private readonly parent: Scope | null,
    private readonly lets: readonly Let[] = NO_LETS,
    private readonly focus: Item | undefined = undefined,
  ) {}

  bind(name: string, value: Item[]): Scope {
    const scope = new Scope(this.run, this, [{ name, value: BOUND }]);
    scope.values = [value];
    return scope;
  }

  /** Why the variable cannot be evaluated, or undefined when it can. */
  failureOf(name: string): NotEvaluated | undefined {
    try {
      this.lookup(name);
      return undefined;
    } catch (error) {
      if (!(error instanceof NotEvaluated)) throw error;
      return error;
    }
  }

  lookup(name: string): Item[] {
    const lets = this.lets;
    for (let i = 0; i < lets.length; i++) {
      if (lets[i]!.name !== name) continue;
      this.values ??= new Array<Item[] | NotEvaluated | undefined>(lets.length);
      let known = this.values[i];
      if (known === undefined) {
        try {
          known = lets[i]!.value(this.focus, this);
        } catch (error) {
          if (!(error instanceof NotEvaluated)) throw error;
          known = error;
        }
        this.values[i] = known;
      }
      if (known instanceof NotEvaluated) throw known;
      return known;
    }
    if (this.parent === null) throw new Error(`undefined variable $${name}`);
    return this.parent.lookup(name);
  }
}

/** The nodes of a context, with the scopes of its lets (the root scope when it has none): no object per node. */
interface Sites {
  context: PackContext;
  nodes: readonly XNode[];
  /** Per node, for a context with lets. */
  scopes: Scope[] | undefined;
}

export class Run {
  /** The context nodes of every context with work to do, in context order. */
  sites: Sites[] = [];
  readonly rootScope: Scope = new Scope(this, null);
  /** Indexes by name, built on first use (most runs consult few or none): keys to nodes, or why one is unusable. */
  private readonly indexes = new Map<string, Map<string, XNode> | NotEvaluated>();

  constructor(
    readonly program: PackProgram,
    readonly options: PackRunOptions,
  ) {}

  /** The named index, from its index constraints at every site; throws when one of them could not be evaluated. */
  index(name: string): Map<string, XNode> {
    let index = this.indexes.get(name);
    if (index === undefined) this.indexes.set(name, (index = this.buildIndex(name)));
    if (index instanceof NotEvaluated) throw index;
    return index;
  }

  private buildIndex(name: string): Map<string, XNode> | NotEvaluated {
    const index = new Map<string, XNode>();
    let failure: string | undefined;
    // Indexed loops, as in runPack.
    for (let s = 0; s < this.sites.length; s++) {
      const { context, nodes, scopes } = this.sites[s]!;
      const constraints = context.constraints;
      for (let k = 0; k < constraints.length; k++) {
        const c = constraints[k]!;
        if (c.kind !== "index" || c.index !== name) continue;
        for (let n = 0; n < nodes.length; n++) failure = this.addToIndex(index, c, nodes[n]!, scopes?.[n] ?? this.rootScope) ?? failure;
      }
    }
    return failure === undefined ? index : new NotEvaluated(`its index ${name} could not be built: ${failure}`);
  }

  /** Adds the targets of an index constraint at a context node; why they could not be evaluated, if they could not. */
  private addToIndex(index: Map<string, XNode>, c: PackConstraint, node: XNode, scope: Scope): string | undefined {
    try {
      const targets = c.targets === undefined ? node.alone() : c.targets(node, scope);
      for (let t = 0; t < targets.length; t++) {
        const target = targets[t]!;
        const key = keyOf(target, c, scope);
        if (key !== undefined && target instanceof XNode && !index.has(key)) index.set(key, target);
      }
    } catch (error) {
      if (!(error instanceof NotEvaluated)) throw error;
      return error.message;
    }
    return undefined;
  }

  private readonly documentViews = new Map<string, DocumentView | null>();

  documentAvailable(href: string): boolean {
    return this.loadDocument(href) !== null;
  }

  document(href: string): XNode {
    const view = this.loadDocument(href);
    if (view === null) throw new NotEvaluated(`the document "${excerpt(href)}" is not available`);
    return view.root;
  }

  private loadDocument(href: string): DocumentView | null {
    const { documents } = this.options;
    if (documents === undefined) throw new NotEvaluated(`it needs the document "${excerpt(href)}" and no documents were supplied`);
    let view = this.documentViews.get(href);
    if (view === undefined) {
      const document = documentFor(documents, href);
      view = document === undefined ? null : (viewOf(this.program, document) ?? null);
      this.documentViews.set(href, view);
    }
    return view;
  }
}

/** The index key of a node: its key fields' values joined, or undefined when none has a value. */
function keyOf(node: Item, c: PackConstraint, scope: Scope): string | undefined {
  const keys = c.keys!;
  if (keys.length === 1) return keyPart(node, keys[0]!, scope);
  const parts = keys.map((key) => keyPart(node, key, scope));
  return parts.every((p) => p === undefined) ? undefined : parts.map((p) => p ?? "").join("\u001f");
}

function keyPart(node: Item, { key, pattern }: KeyField, scope: Scope): string | undefined {
  const atom = "flag" in key ? flagValueOf(key.flag, node) : atomize(key.value(node, scope))[0];
  if (atom === undefined) return undefined;
  const value = String(atom);
  if (pattern === undefined) return value;
  return fullMatch(pattern).exec(value)?.[1] || undefined;
}

function renderMessage(template: PackConstraint["message"], node: Item, scope: Scope, fallback: () => string): string {
  if (template === undefined) return fallback();
  return template
    .map((part) => {
      if (typeof part === "string") return part;
      try {
        return atomize(part(node, scope))
          .map((a) => excerpt(a instanceof Date ? a.toISOString() : String(a)))
          .join(", ");
      } catch {
        // A placeholder that cannot be evaluated (it needs another document, or names a map) must not cost the finding.
        return "?";
      }
    })
    .join("");
}

/**
 * The message of a constraint that has none of its own: its description, and for allowed values also the value found
 * (a short excerpt) and those allowed, as the NIST layer's messages say.
 */
function defaultMessage(c: PackConstraint, target: Item, rule: PackRule): string {
  if (c.kind !== "allowed-values") return rule.description;
  return notAllowed(JSON.stringify(excerpt(String(atomOf(target)))), undefined, allowedList(c.values!), `. ${rule.description}`);
}

const regexCache = new Map<string, RegExp>();
function fullMatch(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (re === undefined) regexCache.set(pattern, (re = new RegExp(`^(?:${pattern})$`, "u")));
  return re;
}

/** An array of objects' kind, copied empty by `slice`, which keeps the kind. */
const NODE_ARRAY: XNode[] = [null as unknown as XNode];

export function runPack(program: PackProgram, document: unknown, options: PackRunOptions): { findings: PackFinding[]; results: RuleResults[] } {
  const results: RuleResults[] = program.rules.map(() => ({ pass: 0, fail: 0, notEvaluated: 0 }));
  const findings: PackFinding[] = [];
  const view = viewOf(program, document);
  if (view === undefined) return { findings, results };
  const run = new Run(program, options);
  const reportedNotEvaluated = new Set<number>();
  // What each rule has reported: nodes, and for a failing atomic value its context node's pointer and message.
  const reported = new Map<number, Set<unknown>>();
  const firstReport = (rule: number, key: unknown): boolean => {
    let keys = reported.get(rule);
    if (keys === undefined) reported.set(rule, (keys = new Set()));
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  };
  const notEvaluated = (rule: number, at: XNode, error: NotEvaluated) => {
    results[rule]!.notEvaluated++;
    if (reportedNotEvaluated.has(rule)) return;
    reportedNotEvaluated.add(rule);
    findings.push({ rule, keyword: "not-evaluated", notEvaluated: true, describe: () => ({ path: at.pointer(), message: `Not evaluated: ${error.message}.` }) });
  };

  // Every context node with its scope, once, for contexts with work to do: one walk finds the nodes of them all.
  const isActive = program.rules.map((_, rule) => options.active(rule));
  const usedIndexes = new Set(program.contexts.flatMap((context) => context.constraints.filter((c) => c.kind === "index-has-key" && isActive[c.rule]).map((c) => c.index!)));
  const runs = (c: PackConstraint) => (c.kind === "index" ? usedIndexes.has(c.index!) : isActive[c.rule]!);
  const wanted = program.contexts.map((context) => context.constraints.some(runs));
  const searched = new Set(program.contexts.flatMap((context) => context.constraints.filter(runs).flatMap((c) => c.searches ?? [])));
  for (let j = 0; j < program.searches.length; j++) wanted.push(searched.has(j));
  // Arrays made to hold objects from the start: empty `[]` literals hold small integers until the first push, and the
  // walk's optimised code, having seen arrays of nodes, would be thrown away on every run's fresh ones.
  const walked: XNode[][] = wanted.map(() => NODE_ARRAY.slice(0, 0));
  // Subtrees that hold no wanted slot are not walked (a run of one rule walks only towards its contexts).
  const live = program.walkSlots.map((slots) => slots.some((slot) => wanted[slot]));
  program.walk(view.root, walked, wanted, live);
  // A search's nodes are what `//names` from the document node returns: kept there as that step's result.
  const contexts = program.contexts.length;
  program.searches.forEach((names, j) => {
    if (wanted[contexts + j]) view.root.put(names, walked[contexts + j]);
  });
  const { sites, rootScope } = run;
  program.contexts.forEach((context, c) => {
    if (!wanted[c]) return;
    const items = context.targets === undefined ? walked[c]! : context.targets(view.root, rootScope);
    const nodes = items.every((item) => item instanceof XNode) ? (items as XNode[]) : (items.filter((item) => item instanceof XNode) as XNode[]);
    // Lets are evaluated in the focus of their context node: only a context with lets needs a scope per node.
    sites.push({ context, nodes, scopes: context.lets.length === 0 ? undefined : nodes.map((node) => new Scope(run, rootScope, context.lets, node)) });
  });

  // is-unique keys seen at the current context node, per rule (one map for the run: most sites have none).
  const seen = new Map<number, Set<string>>();
  /** Checks one target of a constraint, counting and reporting the outcome. */
  const check = (c: PackConstraint, target: Item, node: XNode, scope: Scope, failure: NotEvaluated | undefined) => {
    if (failure !== undefined) {
      notEvaluated(c.rule, target instanceof XNode ? target : node, failure);
      return;
    }
    try {
      if (checkTarget(c, target, scope, run, seen)) results[c.rule]!.pass++;
      else {
        results[c.rule]!.fail++;
        const message = () => renderMessage(c.message, target, scope, () => defaultMessage(c, target, program.rules[c.rule]!));
        // A target reached from nested context nodes (`.//part` of nested controls) fails once per context: counted
        // each time, reported once.
        if (target instanceof XNode) {
          if (firstReport(c.rule, target)) findings.push({ rule: c.rule, keyword: c.kind, describe: () => ({ path: target.pointer(), message: message() }) });
        } else {
          const path = node.pointer();
          const text = message();
          if (firstReport(c.rule, `${path}\u0000${text}`)) findings.push({ rule: c.rule, keyword: c.kind, describe: () => ({ path, message: text }) });
        }
      }
    } catch (error) {
      if (!(error instanceof NotEvaluated)) throw error;
      notEvaluated(c.rule, target instanceof XNode ? target : node, error);
    }
  };
  // Indexed loops: this function runs once per document, mostly unoptimised, where for-of allocates an iterator result
  // per item.
  for (let s = 0; s < sites.length; s++) {
    const { context, nodes, scopes } = sites[s]!;
    const constraints = context.constraints;
    for (let n = 0; n < nodes.length; n++) {
      const node = nodes[n]!;
      const scope = scopes?.[n] ?? rootScope;
      if (seen.size > 0) seen.clear();
      for (let k = 0; k < constraints.length; k++) {
        const c = constraints[k]!;
        if (c.rule < 0 || !isActive[c.rule]) continue;
        try {
          // Most constraints target their context node itself (`.`): checked without a sequence of it.
          const targets = c.targets?.(node, scope);
          // The whole index, before any target, once the targets are known: a constraint whose targets cannot be
          // evaluated (they need another document) does not cost building it.
          if (c.kind === "index-has-key") run.index(c.index!);
          // A test reading a variable before anything else (`every $p in $params satisfies …`) cannot be evaluated on
          // any target when the variable cannot: found out once per context node rather than thrown for each target.
          const { leading } = c;
          const failure = leading === undefined || targets?.length === 0 ? undefined : scope.failureOf(leading);
          if (targets === undefined) check(c, node, node, scope, failure);
          else for (let t = 0; t < targets.length; t++) check(c, targets[t]!, node, scope, failure);
        } catch (error) {
          if (!(error instanceof NotEvaluated)) throw error;
          notEvaluated(c.rule, node, error);
        }
      }
    }
  }
  return { findings, results };
}

function checkTarget(c: PackConstraint, target: Item, scope: Scope, run: Run, seen: Map<number, Set<string>>): boolean {
  switch (c.kind) {
    case "expect":
      return effectiveBoolean(c.test!(target, scope));
    case "allowed-values": {
      if (c.allowOther) return true;
      const value = atomOf(target);
      return value !== undefined && c.values!.includes(String(value));
    }
    case "matches": {
      const value = atomOf(target);
      return value !== undefined && c.patterns!.every((pattern) => fullMatch(pattern).test(String(value)));
    }
    case "index-has-key": {
      const key = keyOf(target, c, scope);
      return key !== undefined && run.index(c.index!).has(key);
    }
    case "is-unique": {
      const key = keyOf(target, c, scope);
      if (key === undefined) return true;
      let keys = seen.get(c.rule);
      if (keys === undefined) seen.set(c.rule, (keys = new Set()));
      if (keys.has(key)) return false;
      keys.add(key);
      return true;
    }
    case "index":
      return true;
  }
}
