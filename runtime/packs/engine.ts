// The rule-pack engine: evaluates a pack's constraints (Metapath syntax trees stored as data by compiler/packs) over a
// lazy view of a parsed OSCAL JSON document in the metaschema's XML-model names (flags, fields, assemblies), so that
// `prop[@name='x']/@value`, `..`, `//x` and `*` mean what they mean in FedRAMP's constraint files. Findings point at
// the JSON nodes with RFC 6901 pointers. Other documents come only from the caller (`documents`): nothing here reads
// files or touches the network.
import type { ComparisonOp, Expr, PathExpr, Step, ValueComparisonOp } from "./ast.js";
import { excerpt } from "../core/issue-bounds.js";
import { escapeToken } from "../core/json-pointer.js";

/** A definition of the node view: assemblies ("a": flags, children) and fields ("f": flags, JSON value key or null). */
export type DefinitionRow =
  | ["a", flags: [name: string, json: string][], children: [name: string, json: string, definition: number][]]
  | ["f", flags: [name: string, json: string][], valueKey: string | null];

export interface PackRule {
  id: string;
  constraintId: string;
  severity: "error" | "warning";
  keyword: string;
  description: string;
  models: string[];
}

export interface PackConstraint {
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

export interface PackContext {
  targets: Expr[];
  lets: { name: string; expr: Expr }[];
  constraints: PackConstraint[];
}

export interface PackData {
  name: string;
  definitions: DefinitionRow[];
  roots: Record<string, number>;
  rules: PackRule[];
  contexts: PackContext[];
}

/** Documents a constraint may load (`doc()`): href → parsed JSON, or a function answering undefined for "not available". */
export type DocumentSource = Readonly<Record<string, unknown>> | ((href: string) => unknown);

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

/** Thrown where an input cannot be resolved; a plain class, not an Error: no stack trace is captured. */
class NotEvaluated {
  constructor(readonly message: string) {}
}

/** `compute` worked out once per key object (a syntax tree node, a pack's data) and kept while the key lives. */
function cachedPer<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    const known = cache.get(key);
    if (known !== undefined || cache.has(key)) return known as V;
    const value = compute(key);
    cache.set(key, value);
    return value;
  };
}

const DOCUMENT = -1;
const FLAG = -2;
/** A child's position: its instance number times INSTANCE, plus its array index. */
const INSTANCE = 0x100000;
// Keys of an XNode's cache besides syntax tree nodes.
const CHILDREN = Symbol("children");
const POINTER = Symbol("pointer");
const ORDER = Symbol("order");
const ALL_DESCENDANTS = Symbol("descendants");

/** Element names that can occur below each definition (for `//name`: subtrees that cannot hold one are skipped). */
const reachableNames = cachedPer((data: PackData): Set<string>[] => {
  const table = data.definitions.map(() => new Set<string>());
  for (let changed = true; changed; ) {
    changed = false;
    data.definitions.forEach((row, def) => {
      if (row[0] !== "a") return;
      const names = table[def]!;
      const before = names.size;
      for (const [name, , child] of row[2]) {
        names.add(name);
        for (const below of table[child]!) names.add(below);
      }
      if (names.size !== before) changed = true;
    });
  }
  return table;
});

/** Per definition, the child instances a `//names` search takes: [instance, holds a match, may lead to one]. */
type SearchSteps = [instance: number, matches: boolean, below: boolean][];
const searchPlansOf = cachedPer((_: PackData) => new Map<readonly string[] | symbol, Map<number, SearchSteps>>());
function searchPlan(data: PackData, names: readonly string[] | undefined): (def: number, rows: [string, string, number][]) => SearchSteps {
  const byNames = searchPlansOf(data);
  const key = names ?? ALL_DESCENDANTS;
  let byDef = byNames.get(key);
  if (byDef === undefined) byNames.set(key, (byDef = new Map()));
  const reach = reachableNames(data);
  const plans = byDef;
  const none: SearchSteps = [];
  return (def, rows) => {
    if (rows.length === 0) return none;
    // The document node's one row is its root, which depends on the document's model.
    const planKey = def >= 0 ? def : -1 - rows[0]![2];
    let steps = plans.get(planKey);
    if (steps === undefined) {
      steps = [];
      for (let i = 0; i < rows.length; i++) {
        const [name, , child] = rows[i]!;
        const matches = names === undefined || names.includes(name);
        const below = names === undefined || names.some((n) => reach[child]!.has(n));
        if (matches || below) steps.push([i, matches, below]);
      }
      plans.set(planKey, steps);
    }
    return steps;
  };
}

/** The position of a flag among a definition's flags, or -1. */
function flagIndex(flags: readonly [name: string, json: string][], name: string): number {
  for (let i = 0; i < flags.length; i++) if (flags[i]![0] === name) return i;
  return -1;
}

/** The flags of flag nodes and of the document node. */
const NO_FLAGS: [name: string, json: string][] = [];

/** The child instances of fields, flags and atoms: none, shared (asked for on every child step from them). */
const NO_ROWS: [string, string, number][] = [];

/** The names of a child step, with the child instances they select in each definition, worked out on first use. */
class ChildNames {
  private readonly byDefinition: (readonly number[])[] = [];

  constructor(private readonly names: readonly string[]) {}

  /** The positions of the selected instances among the child instances (`rows`) of a node of the definition. */
  of(def: number, rows: readonly [string, string, number][]): readonly number[] {
    if (rows.length === 0) return NO_POSITIONS;
    // The document node's one row is its root, which depends on the document's model: not kept.
    return def < 0 ? this.select(rows) : (this.byDefinition[def] ??= this.select(rows));
  }

  private select(rows: readonly [string, string, number][]): number[] {
    const positions: number[] = [];
    for (let i = 0; i < rows.length; i++) if (this.names.includes(rows[i]![0])) positions.push(i);
    return positions;
  }
}
const NO_POSITIONS: readonly number[] = [];

/** The sequence of no nodes, shared (sequences are never modified). */
const NO_NODES: XNode[] = [];

class XNode {
  /** The nodes of each child instance of the definition, built on first use. */
  private instances: (XNode[] | undefined)[] | undefined;
  /** The node alone of each flag of the definition, built on first use. */
  private flags: (XNode[] | undefined)[] | undefined;
  /**
   * Everything else computed on the node, created on first use (most nodes need none): its pointer, document order,
   * descendant searches (keyed by the step's name list), and the results of variable-free expressions and steps
   * (keyed by their syntax tree node, one for all written alike), which cannot change within a run.
   */
  private cache: Map<unknown, unknown> | undefined;
  /** The sequence of this node alone, created on first use. */
  private single: XNode[] | undefined;

  get<T>(key: unknown): T | undefined {
    return this.cache?.get(key) as T | undefined;
  }

  put<T>(key: unknown, value: T): T {
    (this.cache ??= new Map()).set(key, value);
    return value;
  }

  /**
   * A node has few fields, as thousands are built per run: its name, JSON property and array index are worked out from
   * its parent and position when its pointer is asked for.
   */
  constructor(
    readonly value: unknown,
    readonly def: number,
    readonly parent: XNode | null,
    /** Position among its parent's children: instance number, then array index (-1 for flags and the document node). */
    readonly position: number,
    readonly view: DocumentView,
  ) {}

  /** The sequence of this node alone, shared (sequences are never modified). */
  alone(): XNode[] {
    return (this.single ??= [this]);
  }

  /** Child instances as [name, JSON property, definition]; the document node has its root as only child. */
  private childRows(): [string, string, number][] {
    if (this.def === DOCUMENT) return this.view.rootRows;
    const row = this.def >= 0 ? this.view.data.definitions[this.def]! : undefined;
    return row?.[0] === "a" ? row[2] : NO_ROWS;
  }

  /** The JSON value of a child instance (the document node's one child is its root). */
  private childValue(json: string): unknown {
    return this.def === DOCUMENT ? this.value : isObject(this.value) ? this.value[json] : undefined;
  }

  private instance(i: number, rows: [string, string, number][]): XNode[] {
    const known = this.instances?.[i];
    if (known !== undefined) return known;
    const [, json, def] = rows[i]!;
    const v = this.childValue(json);
    // An absent instance (the usual answer of a search through a node) is read again rather than kept: most nodes
    // asked only for absent children then need no array of their instances.
    if (v === undefined) return NO_NODES;
    const position = i * INSTANCE;
    let nodes: XNode[];
    if (Array.isArray(v)) {
      nodes = new Array<XNode>(v.length);
      for (let j = 0; j < v.length; j++) nodes[j] = new XNode(v[j], def, this, position + j, this.view);
    } else {
      const node = new XNode(v, def, this, position, this.view);
      // The instance's sequence is the node's sequence alone.
      nodes = node.single = [node];
    }
    // Arrays are sized exactly: most instances hold one node or none, and a pushed-to empty array reserves room for many.
    (this.instances ??= new Array<XNode[] | undefined>(rows.length))[i] = nodes;
    return nodes;
  }

  children(): XNode[] {
    return this.get<XNode[]>(CHILDREN) ?? this.put(CHILDREN, this.childRows().flatMap((_, i, rows) => this.instance(i, rows)));
  }

  childrenNamed(names: ChildNames): XNode[] {
    const rows = this.childRows();
    const selected = names.of(this.def, rows);
    let out: XNode[] | undefined;
    for (let s = 0; s < selected.length; s++) {
      const nodes = this.instance(selected[s]!, rows);
      // One matching instance (the usual case): its cached array, shared.
      out = out === undefined ? nodes : [...out, ...nodes];
    }
    return out ?? NO_NODES;
  }

  /** How many children have one of the names, counted in the JSON without building their nodes. */
  countChildrenNamed(names: ChildNames): number {
    const rows = this.childRows();
    const selected = names.of(this.def, rows);
    let count = 0;
    for (let s = 0; s < selected.length; s++) {
      const v = this.childValue(rows[selected[s]!]![1]);
      count += Array.isArray(v) ? v.length : v === undefined ? 0 : 1;
    }
    return count;
  }

  /** Descendants with one of the names (every descendant when `names` is undefined), in document order. */
  descendants(names?: readonly string[]): XNode[] {
    const key = names ?? ALL_DESCENDANTS;
    const known = this.get<XNode[]>(key);
    if (known !== undefined) return known;
    const out: XNode[] = [];
    const plan = searchPlan(this.view.data, names);
    const visit = (node: XNode) => {
      const rows = node.childRows();
      const steps = plan(node.def, rows);
      for (let s = 0; s < steps.length; s++) {
        const [i, matches, below] = steps[s]!;
        for (const child of node.instance(i, rows)) {
          if (matches) out.push(child);
          if (below) visit(child);
        }
      }
    };
    visit(this);
    return this.put(key, out);
  }

  /** The flag's node alone, or no node when the flag is absent (read from the JSON again rather than kept). */
  flag(name: string): XNode[] {
    const flags = this.flagRows();
    const at = flagIndex(flags, name);
    const known = this.flags?.[at];
    if (known !== undefined) return known;
    const value = this.flagValueAt(flags, at);
    if (value === undefined) return NO_NODES;
    const node = new XNode(value, FLAG, this, -1, this.view);
    (this.flags ??= new Array<XNode[] | undefined>(flags.length))[at] = node.single = [node];
    return node.single;
  }

  /** The flags of this node's definition as [name, JSON property]; none for flags and the document node. */
  private flagRows(): [name: string, json: string][] {
    return this.def < 0 ? NO_FLAGS : this.view.data.definitions[this.def]![1];
  }

  /** A flag's value read from the JSON, without building its node (comparisons in predicates need no more). */
  flagValue(name: string): string | number | boolean | undefined {
    const flags = this.flagRows();
    return this.flagValueAt(flags, flagIndex(flags, name));
  }

  private flagValueAt(flags: [name: string, json: string][], at: number): string | number | boolean | undefined {
    if (at < 0 || !isObject(this.value)) return undefined;
    const v = this.value[flags[at]![1]];
    return isAtom(v) ? v : undefined;
  }

  /** The node's RFC 6901 pointer in its document. */
  pointer(): string {
    const parent = this.parent;
    if (parent === null) return "";
    const known = this.get<string>(POINTER);
    if (known !== undefined) return known;
    let text: string;
    if (this.def === FLAG) text = `${parent.pointer()}/${escapeToken(parent.flagRows()[parent.flags!.indexOf(this.single!)]![1])}`;
    else {
      // The document node's one child is its root, whose JSON property is its model's name.
      const json = parent.childRows()[Math.floor(this.position / INSTANCE)]![1];
      text = `${parent.pointer()}/${escapeToken(json)}`;
      if (Array.isArray(parent.childValue(json))) text += `/${this.position % INSTANCE}`;
    }
    return this.put(POINTER, text);
  }

  /** The atomic value: a flag's, a field's (its value key's when it has flags), or the text of an assembly. */
  atom(): string | number | boolean | undefined {
    if (this.def === FLAG) return this.value as string | number | boolean;
    const row = this.def >= 0 ? this.view.data.definitions[this.def]! : undefined;
    if (row?.[0] === "f") {
      const v = row[2] === null ? this.value : isObject(this.value) ? this.value[row[2]] : undefined;
      return isAtom(v) ? v : undefined;
    }
    return this.descendants().map((d) => d.atom() ?? "").join("");
  }
}

/** Document order: the child positions from the document node (flags before children). */
function orderOf(node: XNode): number[] {
  if (node.parent === null) return [];
  return node.get<number[]>(ORDER) ?? node.put(ORDER, [...orderOf(node.parent), node.position]);
}

function compareOrder(a: XNode, b: XNode): number {
  const x = orderOf(a);
  const y = orderOf(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

interface DocumentView {
  data: PackData;
  model: string;
  root: XNode;
  /** The document node's one child instance: its root. */
  rootRows: [string, string, number][];
}

/** A map (map:entry, map:merge): keys with their values, first entry of a key kept. */
class MapItem {
  constructor(
    readonly keys: string[],
    readonly values: Item[][],
  ) {}
}
type Item = XNode | string | number | boolean | Date | MapItem;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
function isAtom(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

function viewOf(data: PackData, document: unknown): DocumentView | undefined {
  if (!isObject(document)) return undefined;
  const model = Object.keys(document).find((key) => key in data.roots);
  if (model === undefined) return undefined;
  const view = { data, model, rootRows: [[model, model, data.roots[model]!]] } as DocumentView;
  view.root = new XNode(document[model], DOCUMENT, null, -1, view);
  return view;
}

type Atom = string | number | boolean | Date;

function atomOf(item: Item): Atom | undefined {
  if (item instanceof XNode) return item.atom();
  if (item instanceof MapItem) throw new Error("a map has no atomic value");
  return item;
}

function atomize(items: readonly Item[]): Atom[] {
  const out: Atom[] = [];
  for (const item of items) {
    const atom = atomOf(item);
    if (atom !== undefined) out.push(atom);
  }
  return out;
}

/** A date or date-time (with or without timezone) as epoch milliseconds, for comparisons with current-dateTime(). */
function instantOf(text: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+)?(Z|[+-]\d{2}:\d{2})?$/.exec(text.trim());
  if (m === null) throw new NotEvaluated(`"${excerpt(text)}" is not a date or date-time`);
  return Date.parse(`${m[1]}${m[2] ?? "T00:00:00"}${m[3] ?? "Z"}`);
}

function compareAtoms(op: string, a: Atom, b: Atom): boolean {
  let x: string | number | boolean = a instanceof Date ? a.getTime() : a;
  let y: string | number | boolean = b instanceof Date ? b.getTime() : b;
  if (a instanceof Date !== b instanceof Date) {
    x = typeof x === "number" ? x : instantOf(String(x));
    y = typeof y === "number" ? y : instantOf(String(y));
  } else if (typeof x === "number" || typeof y === "number") {
    const nx = Number(x);
    const ny = Number(y);
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) {
      x = nx;
      y = ny;
    } else {
      x = String(x);
      y = String(y);
    }
  } else if (typeof x !== typeof y) {
    x = String(x);
    y = String(y);
  }
  switch (op) {
    case "=": case "eq": return x === y;
    case "!=": case "ne": return x !== y;
    case "<": case "lt": return x < y;
    case "<=": case "le": return x <= y;
    case ">": case "gt": return x > y;
    default: return x >= y;
  }
}

function effectiveBoolean(items: readonly Item[]): boolean {
  if (items.length === 0) return false;
  const first = items[0]!;
  if (first instanceof XNode || first instanceof MapItem || first instanceof Date) return true;
  if (items.length > 1) return true;
  if (typeof first === "boolean") return first;
  if (typeof first === "number") return first !== 0 && !Number.isNaN(first);
  return first !== "";
}

function single(items: readonly Item[], what: string): Atom | undefined {
  if (items.length === 1) return atomOf(items[0]!);
  const atoms = atomize(items);
  if (atoms.length > 1) throw new NotEvaluated(`${what} received ${atoms.length} values where one is expected`);
  return atoms[0];
}

/** Dedupes nodes and puts them in document order (atomic items are kept as they come). */
function normalize(items: Item[]): Item[] {
  if (items.length < 2 || !items.every((i) => i instanceof XNode)) return items;
  const nodes = items as XNode[];
  let ordered = true;
  for (let i = 1; i < nodes.length && ordered; i++) ordered = compareOrder(nodes[i - 1]!, nodes[i]!) < 0;
  return ordered ? nodes : [...new Set(nodes)].sort(compareOrder);
}

/** Variables: a context's lets (evaluated on first use, in the context node's focus) and quantifier bindings. */
type Let = PackContext["lets"][number];
const NO_LETS: readonly Let[] = [];
/** The expression of a bound variable: never evaluated, as its value is known from the start. */
const BOUND: Expr = { type: "sequence", items: [] };

class Scope {
  /** The lets' values by position, computed on first use (a small array rather than a map: a scope per node). */
  private values: (Item[] | NotEvaluated | undefined)[] | undefined;
  constructor(
    readonly run: Run,
    private readonly parent: Scope | null,
    private readonly lets: readonly Let[] = NO_LETS,
    private readonly focus: Item | undefined = undefined,
  ) {}

  bind(name: string, value: Item[]): Scope {
    const scope = new Scope(this.run, this, [{ name, expr: BOUND }]);
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
          known = evaluate(lets[i]!.expr, this.focus, this);
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

class Run {
  /** The context nodes of every context with work to do, in context order. */
  sites: Sites[] = [];
  readonly rootScope: Scope = new Scope(this, null);
  /** Indexes by name, built on first use (most runs consult few or none): keys to nodes, or why one is unusable. */
  private readonly indexes = new Map<string, Map<string, XNode> | NotEvaluated>();

  constructor(
    readonly data: PackData,
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
      const targets = evaluate(c.target, node, scope);
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
      const document = typeof documents === "function" ? documents(href) : Object.prototype.hasOwnProperty.call(documents, href) ? documents[href] : undefined;
      view = document === undefined ? null : (viewOf(this.data, document) ?? null);
      this.documentViews.set(href, view);
    }
    return view;
  }
}

/** Whether a syntax tree (an expression, a step's expressions) reads no variable. */
const variableFree = cachedPer((tree: object): boolean => !JSON.stringify(tree).includes('"type":"var"'));

/** A variable-free expression depends on its focus node only: its value is memoised per node, unless it is cheap. */
const isMemoised = cachedPer((expr: Expr): boolean => variableFree(expr) && !isCheap(expr));

/**
 * `@name = 'literal'` or `@name = ('a', 'b')` (general comparison), the commonest predicate: the flag's value is read
 * from the JSON and compared with the literals, without a flag node or sequences.
 */
interface FlagComparison {
  op: ComparisonOp | ValueComparisonOp;
  flag: string;
  literals: (string | number)[];
}
const flagComparisonOf = cachedPer((expr: Expr & { type: "cmp" | "vcmp" }): FlagComparison | null => {
  const flag = bareFlagOf(expr.left);
  // A value comparison takes one literal; a general comparison a literal or a sequence of them.
  const items = expr.right.type === "sequence" && expr.type === "cmp" ? expr.right.items : [expr.right];
  return flag !== undefined && items.every((item) => item.type === "literal")
    ? { op: expr.op, flag, literals: items.map((item) => (item as Expr & { type: "literal" }).value) }
    : null;
});

/** The flag name of the path `@name`, or undefined for any other expression. */
const bareFlagOf = cachedPer((expr: Expr): string | undefined => {
  const step = expr.type === "path" && !expr.rootDescendant && expr.steps.length === 1 ? expr.steps[0]! : undefined;
  return step?.axis === "flag" && step.predicates.length === 0 ? step.name : undefined;
});

/** The value of a flag of the focus (flags and atomic items have none). */
const flagValueOf = (flag: string, focus: Item | undefined) => (focus instanceof XNode ? focus.flagValue(flag) : undefined);

/** Whether the flag's value (none: false) compares true with one of the literals. */
function compareFlag({ op, literals }: FlagComparison, value: Atom | undefined): boolean {
  if (value === undefined) return false;
  for (let i = 0; i < literals.length; i++) if (compareAtoms(op, value, literals[i]!)) return true;
  return false;
}

/** Expressions cheaper to evaluate again than to memoise: flag comparisons, and and/or of them. */
function isCheap(expr: Expr): boolean {
  if (expr.type === "cmp" || expr.type === "vcmp") return flagComparisonOf(expr) !== null;
  return (expr.type === "and" || expr.type === "or") && expr.items.every(isCheap);
}

/** An expression compiled to a closure. Results are shared (literals, memoised values, booleans): never modified. */
type Evaluator = (focus: Item | undefined, scope: Scope) => Item[];

/** Each syntax tree node's closure, compiled once: evaluations call closures rather than dispatch on the tree. */
const compiled = cachedPer(compile);

/** The closure with per-node memoisation of a variable-free expression (predicates re-applied to the same nodes). */
const compiledOn = cachedPer((expr: Expr): Evaluator => {
  const plain = compiled(expr);
  if (!isMemoised(expr)) return plain;
  const key = sameAs(expr);
  return (focus, scope) => (focus instanceof XNode ? (focus.get<Item[]>(key) ?? focus.put(key, plain(focus, scope))) : plain(focus, scope));
});

/**
 * One syntax tree for all that are written alike, as the key of what is memoised per node: constraints repeat the
 * same steps and predicates (FedRAMP's classes of components, `//component` searches), which are then evaluated once
 * per node rather than once per constraint.
 */
const representatives = new Map<string, object>();
const sameAs = cachedPer(<T extends object>(tree: T): T => {
  const text = JSON.stringify(tree);
  const known = representatives.get(text);
  if (known !== undefined) return known as T;
  representatives.set(text, tree);
  return tree;
});

function evaluate(expr: Expr, focus: Item | undefined, scope: Scope): Item[] {
  return compiled(expr)(focus, scope);
}

const TRUE: Item[] = [true];
const FALSE: Item[] = [false];
const EMPTY: Item[] = [];
const bool = (value: boolean): Item[] => (value ? TRUE : FALSE);
/** Counts are mostly small: their sequences are shared too. */
const SMALL_COUNTS: Item[][] = Array.from({ length: 256 }, (_, n) => [n]);
const countOf = (n: number): Item[] => SMALL_COUNTS[n] ?? [n];

function compile(expr: Expr): Evaluator {
  switch (expr.type) {
    case "literal": {
      const value: Item[] = [expr.value];
      return () => value;
    }
    case "sequence": {
      const items = expr.items.map(compiled);
      return (focus, scope) => items.flatMap((item) => item(focus, scope));
    }
    case "var": {
      const { name } = expr;
      return (_, scope) => scope.lookup(name);
    }
    case "path":
      return compilePath(expr);
    case "union": {
      const items = expr.items.map(compiled);
      return (focus, scope) => normalize(items.flatMap((item) => item(focus, scope)));
    }
    case "and":
    case "or": {
      const and = expr.type === "and";
      const items = expr.items.map(compiledOn);
      return (focus, scope) => bool(logical(and, items, focus, scope));
    }
    case "cmp": {
      const flagComparison = flagComparisonOf(expr);
      if (flagComparison !== null) return (focus) => bool(compareFlag(flagComparison, flagValueOf(flagComparison.flag, focus)));
      const { op } = expr;
      const leftFlag = bareFlagOf(expr.left);
      const rightOf = compiled(expr.right);
      // `@name = expression`: the flag's value is read from the JSON, without its node.
      if (leftFlag !== undefined) {
        return (focus, scope) => {
          const a = flagValueOf(leftFlag, focus);
          const rightItems = rightOf(focus, scope);
          if (a === undefined) return FALSE;
          if (rightItems.length === 1) {
            const b = atomOf(rightItems[0]!);
            return bool(b !== undefined && compareAtoms(op, a, b));
          }
          const right = atomize(rightItems);
          for (let j = 0; j < right.length; j++) if (compareAtoms(op, a, right[j]!)) return TRUE;
          return FALSE;
        };
      }
      const leftOf = compiled(expr.left);
      return (focus, scope) => {
        const leftItems = leftOf(focus, scope);
        const rightItems = rightOf(focus, scope);
        if (leftItems.length === 1 && rightItems.length === 1) {
          const a = atomOf(leftItems[0]!);
          const b = atomOf(rightItems[0]!);
          return bool(a !== undefined && b !== undefined && compareAtoms(op, a, b));
        }
        const left = atomize(leftItems);
        const right = atomize(rightItems);
        for (let i = 0; i < left.length; i++) for (let j = 0; j < right.length; j++) if (compareAtoms(op, left[i]!, right[j]!)) return TRUE;
        return FALSE;
      };
    }
    case "vcmp": {
      const flagComparison = flagComparisonOf(expr);
      if (flagComparison !== null) {
        return (focus) => {
          const value = flagValueOf(flagComparison.flag, focus);
          // A value comparison with an absent operand is the empty sequence.
          return value === undefined ? EMPTY : bool(compareFlag(flagComparison, value));
        };
      }
      const { op } = expr;
      const what = `"${op}"`;
      const leftOf = compiled(expr.left);
      const rightOf = compiled(expr.right);
      return (focus, scope) => {
        const left = single(leftOf(focus, scope), what);
        const right = single(rightOf(focus, scope), what);
        return left === undefined || right === undefined ? EMPTY : bool(compareAtoms(op, left, right));
      };
    }
    case "if": {
      const condition = compiled(expr.condition);
      const then = compiled(expr.then);
      const otherwise = compiled(expr.else);
      return (focus, scope) => (effectiveBoolean(condition(focus, scope)) ? then(focus, scope) : otherwise(focus, scope));
    }
    case "quantified": {
      const some = expr.quantifier === "some";
      const bindings = expr.bindings.map((binding) => ({ name: binding.name, in: compiled(binding.in) }));
      const satisfies = compiled(expr.satisfies);
      return (focus, scope) => bool(quantified(some, bindings, 0, satisfies, focus, scope));
    }
    case "map": {
      const left = compiled(expr.left);
      const right = compiled(expr.right);
      return (focus, scope) => left(focus, scope).flatMap((item) => right(item, scope));
    }
    case "lookup": {
      const base = compiled(expr.base);
      return (focus, scope) => {
        const out: Item[] = [];
        for (const item of base(focus, scope)) {
          if (!(item instanceof MapItem)) throw new Error("?* applies to maps only");
          for (const value of item.values) appendAll(out, value);
        }
        return out;
      };
    }
    case "call":
      return compileCall(expr);
  }
}

function compilePath(expr: PathExpr): Evaluator {
  const { steps, rootDescendant } = expr;
  const plans = steps.map(planOf);
  const path: Evaluator = (focus, scope) => evaluatePath(steps, plans, rootDescendant, focus, scope);
  // "." (the commonest target): the focus itself.
  if (isFocus(expr)) return (focus, scope) => (focus instanceof XNode ? focus.alone() : path(focus, scope));
  return path;
}

/** Whether an expression is the path ".", whose value is its focus. */
const isFocus = cachedPer((expr: Expr): boolean => {
  const step = expr.type === "path" && !expr.rootDescendant && expr.steps.length === 1 ? expr.steps[0]! : undefined;
  return step?.axis === "self" && step.predicates.length === 0;
});

/** The hot functions (tests of existence and counts) compiled; the others dispatch on their name when called. */
function compileCall(expr: Expr & { type: "call" }): Evaluator {
  const { name, args } = expr;
  if (args.length === 1) {
    switch (name) {
      case "exists": {
        const size = compileSize(args[0]!);
        return (focus, scope) => bool(size(focus, scope) > 0);
      }
      case "empty": {
        const size = compileSize(args[0]!);
        return (focus, scope) => bool(size(focus, scope) === 0);
      }
      case "count": {
        const size = compileSize(args[0]!);
        return (focus, scope) => countOf(size(focus, scope));
      }
      case "not": {
        const arg = compiled(args[0]!);
        return (focus, scope) => bool(!effectiveBoolean(arg(focus, scope)));
      }
      case "data":
        return compileData(args[0]!);
    }
  }
  if (args.length === 0 && name === "true") return () => TRUE;
  if (args.length === 0 && name === "false") return () => FALSE;
  return (focus, scope) => call(name, args, focus, scope);
}

/** fn:data(): the atomic values of a sequence; a path's flag values are read from the JSON, without flag nodes. */
function compileData(expr: Expr): Evaluator {
  const flagPath = flagPathOf(expr);
  if (flagPath === undefined) {
    const items = compiled(expr);
    return (focus, scope) => atomize(items(focus, scope));
  }
  const { parents, flag } = flagPath;
  return (focus, scope) => {
    const nodes = parents(focus, scope);
    // One parent, the usual case: a sequence sized exactly (a pushed-to empty array reserves room for many).
    if (nodes.length === 1) {
      const value = flagValueOf(flag, nodes[0]);
      return value === undefined ? EMPTY : [value];
    }
    const out: Item[] = [];
    for (const node of nodes) {
      const value = flagValueOf(flag, node);
      if (value !== undefined) out.push(value);
    }
    return out;
  };
}

/** A path ending in a flag step without predicates (`a/b/@name`): the path to the flag's parents, and the flag. */
const flagPathOf = cachedPer((expr: Expr): { parents: Evaluator; flag: string } | undefined => {
  if (expr.type !== "path" || (expr.rootDescendant && expr.steps.length === 1)) return undefined;
  const last = expr.steps[expr.steps.length - 1];
  if (last?.axis !== "flag" || last.predicates.length > 0) return undefined;
  const steps = expr.steps.length > 1 ? expr.steps.slice(0, -1) : [{ axis: "self" as const, predicates: [] }];
  return { parents: compiled({ type: "path", rootDescendant: expr.rootDescendant, steps }), flag: last.name };
});

/**
 * A context's lets, where a let selecting flags (`by-component/@component-uuid`) that is only ever compared
 * (`@uuid = $component-uuid`) is taken as its flags' values, `data(...)`: the same comparisons, without flag nodes.
 */
const letsOf = cachedPer((context: PackContext): readonly Let[] =>
  context.lets.map((binding) =>
    flagPathOf(binding.expr) !== undefined && onlyCompared(context, binding.name) ? { name: binding.name, expr: { type: "call", name: "data", args: [binding.expr] } } : binding,
  ),
);

/** Whether every use of a variable in a context is an operand of a comparison (which atomizes it), and none rebinds it. */
function onlyCompared(tree: unknown, name: string): boolean {
  let uses = 0;
  let compared = 0;
  let rebound = false;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== "object") return;
    const node = value as Partial<Record<string, unknown>>;
    if (node.type === "var" && node.name === name) uses++;
    if ((node.type === "cmp" || node.type === "vcmp") && isVariable(node.left, name)) compared++;
    if ((node.type === "cmp" || node.type === "vcmp") && isVariable(node.right, name)) compared++;
    if (node.type === "quantified" && (node.bindings as { name: string }[]).some((binding) => binding.name === name)) rebound = true;
    Object.values(node).forEach(visit);
  };
  visit(tree);
  return !rebound && uses === compared;
}

const isVariable = (expr: unknown, name: string) => (expr as Expr | undefined)?.type === "var" && (expr as Expr & { type: "var" }).name === name;

/**
 * The length of a sequence; for `name` and `./name` (count(x), exists(x) of children, the commonest tests) counted in
 * the JSON without building the children's nodes.
 */
function compileSize(expr: Expr): (focus: Item | undefined, scope: Scope) => number {
  const childNames = childNamesOf(expr);
  if (childNames !== undefined) {
    const names = new ChildNames(childNames);
    return (focus) => (focus instanceof XNode ? focus.countChildrenNamed(names) : 0);
  }
  const items = compiled(expr);
  return (focus, scope) => items(focus, scope).length;
}

/** and/or; a side that cannot be evaluated does not matter when the other decides (false for and, true for or). */
function logical(and: boolean, items: readonly Evaluator[], focus: Item | undefined, scope: Scope): boolean {
  let pending: NotEvaluated | undefined;
  for (let i = 0; i < items.length; i++) {
    try {
      const value = effectiveBoolean(items[i]!(focus, scope));
      if (and ? !value : value) return value;
    } catch (error) {
      if (!(error instanceof NotEvaluated)) throw error;
      pending ??= error;
    }
  }
  if (pending !== undefined) throw pending;
  return and;
}

function quantified(some: boolean, bindings: { name: string; in: Evaluator }[], at: number, satisfies: Evaluator, focus: Item | undefined, scope: Scope): boolean {
  if (at === bindings.length) return effectiveBoolean(satisfies(focus, scope));
  const binding = bindings[at]!;
  for (const item of binding.in(focus, scope)) {
    const result = quantified(some, bindings, at + 1, satisfies, focus, scope.bind(binding.name, [item]));
    if (result === some) return some;
  }
  return !some;
}

/**
 * How a step is evaluated: its variable-free predicates (and the variable-free operands of an `and`) are applied once
 * per input node and memoised with the step's own result; the rest is applied on every evaluation. A step that keeps
 * a positional predicate applies all its predicates in order, unmemoised.
 */
interface StepPlan {
  memoised: boolean;
  pure: Evaluator[];
  impure: ImpurePredicate[];
  /** The names a child step selects. */
  children: ChildNames | undefined;
  /** What the step's memoised result is kept under on a node: the step, or one written alike. */
  key: Step;
}
function planOf(step: Step): StepPlan {
  const own = step.axis === "expr" ? step.expr : step.axis === "call" ? step.call : step.axis === "group" ? step.branches : undefined;
  const positional = step.predicates.some((p) => p.type === "literal" && typeof p.value === "number");
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
  const children = step.axis === "child" ? new ChildNames(step.names) : undefined;
  return { memoised, pure: pure.map(compiledOn), impure: impure.map((expr) => ({ evaluate: compiledOn(expr), join: flagJoinOf(expr) })), children, key: sameAs(step) };
}

function stepWithPurePredicates(step: Step, plan: StepPlan, item: Item, scope: Scope): Item[] {
  if (!plan.memoised || !(item instanceof XNode)) return stepFrom(step, plan, item, scope);
  const known = item.get<Item[]>(plan.key);
  if (known !== undefined) return known;
  let value = stepFrom(step, plan, item, scope);
  for (const predicate of plan.pure) value = filter(value, predicate, scope);
  return item.put(plan.key, value);
}

function evaluatePath(steps: readonly Step[], plans: readonly StepPlan[], rootDescendant: boolean, focus: Item | undefined, scope: Scope): Item[] {
  let start = focus;
  if (rootDescendant) {
    if (!(focus instanceof XNode)) throw new Error("// needs a node as context");
    start = focus.view.root;
  }
  if (start === undefined) return EMPTY;
  // The first step is taken from the start item itself: no sequence of it is made (most nodes never need one).
  let current: Item[] | undefined;
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s]!;
    const plan = plans[s]!;
    if (current === undefined || current.length === 1) current = stepWithPurePredicates(step, plan, current?.[0] ?? start, scope);
    else {
      const next: Item[] = [];
      for (const item of current) appendAll(next, stepWithPurePredicates(step, plan, item, scope));
      // Children and flags of distinct nodes in document order are distinct and in document order already.
      current = step.axis === "child" || step.axis === "flag" ? next : normalize(next);
    }
    for (const predicate of plan.impure) {
      const items: Item[] = current;
      const joined = predicate.join !== null && items.length >= JOIN_AT_LEAST ? join(items, predicate.join, scope) : undefined;
      current = joined ?? filter(items, predicate.evaluate, scope);
    }
  }
  return current ?? (start instanceof XNode ? start.alone() : [start]);
}

/** A predicate a step applies on every evaluation (it reads a variable), and the join that may stand for it. */
interface ImpurePredicate {
  evaluate: Evaluator;
  join: FlagJoin | null;
}

/**
 * `@flag = $variable`: a general equality of a flag with a variable's values. Applied to many nodes for each of many
 * context nodes (`component[@uuid = $component-uuid]` for every statement), filtering costs the product of the two;
 * looking the values up in the nodes' flag values, indexed once per sequence of nodes, costs their sum.
 */
interface FlagJoin {
  flag: string;
  values: Evaluator;
}

/** Sequences shorter than this are filtered: indexing them would cost more than it saves. */
const JOIN_AT_LEAST = 8;

const flagJoinOf = cachedPer((expr: Expr): FlagJoin | null => {
  if (expr.type !== "cmp" || expr.op !== "=" || expr.right.type !== "var") return null;
  const flag = bareFlagOf(expr.left);
  return flag === undefined ? null : { flag, values: compiled(expr.right) };
});

/** Per sequence of nodes and flag name: the positions of the nodes by the flag's value; null when a value is not a string. */
const flagIndexes = new WeakMap<readonly Item[], Map<string, Map<string, number[]> | null>>();
function nodesByFlagValue(items: readonly Item[], flag: string): Map<string, number[]> | null {
  let byFlag = flagIndexes.get(items);
  if (byFlag === undefined) flagIndexes.set(items, (byFlag = new Map()));
  let index = byFlag.get(flag);
  if (index !== undefined) return index;
  index = new Map();
  for (let i = 0; i < items.length; i++) {
    const value = flagValueOf(flag, items[i]);
    if (value === undefined) continue;
    // Numbers and booleans compare with strings by conversion rules, not by identity: such sequences are filtered.
    if (typeof value !== "string") {
      index = null;
      break;
    }
    const positions = index.get(value);
    if (positions === undefined) index.set(value, [i]);
    else positions.push(i);
  }
  byFlag.set(flag, index);
  return index;
}

/** The items whose flag equals one of the variable's values, in order; undefined where only filtering decides. */
function join(items: readonly Item[], { flag, values }: FlagJoin, scope: Scope): Item[] | undefined {
  const atoms = atomize(values(undefined, scope));
  if (!atoms.every((atom) => typeof atom === "string")) return undefined;
  const index = nodesByFlagValue(items, flag);
  if (index === null) return undefined;
  const positions = new Set<number>();
  for (const atom of atoms) for (const position of index.get(atom as string) ?? []) positions.add(position);
  if (positions.size === items.length) return items as Item[];
  return [...positions].sort((a, b) => a - b).map((position) => items[position]!);
}

/**
 * Appends `items` to `out` one by one: `out.push(...items)` passes every item as an argument, and an array of some
 * hundred thousand (the props of one component) overflows the stack, which would read as a nesting error.
 */
function appendAll(out: Item[], items: readonly Item[]): void {
  for (let i = 0; i < items.length; i++) out.push(items[i]!);
}

/** The items the predicate keeps; the (shared) input itself when it keeps them all, the common case. */
function filter(items: readonly Item[], predicate: Evaluator, scope: Scope): Item[] {
  let kept: Item[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const value = predicate(items[i]!, scope);
    const keep = value.length === 1 && typeof value[0] === "number" ? value[0] === i + 1 : effectiveBoolean(value);
    if (keep) kept?.push(items[i]!);
    else kept ??= items.slice(0, i);
  }
  return kept ?? (items as Item[]);
}

function stepFrom(step: Step, plan: StepPlan, item: Item, scope: Scope): Item[] {
  switch (step.axis) {
    case "self":
      return item instanceof XNode ? item.alone() : [item];
    case "call":
      return evaluate(step.call, item, scope);
    case "expr":
      return evaluate(step.expr, item, scope);
    case "group":
      return group(step.branches, item, scope);
  }
  if (!(item instanceof XNode)) return EMPTY;
  switch (step.axis) {
    case "flag":
      return item.def === FLAG ? EMPTY : item.flag(step.name);
    case "child":
      return item.childrenNamed(plan.children!);
    case "descendant":
      return item.descendants(sameAs(step.names));
    case "any":
      return step.descendant ? item.descendants() : item.children();
    case "parent":
      return item.parent === null ? EMPTY : item.parent.alone();
    case "root":
      return item.view.root.alone();
  }
}

/**
 * The union of a group's branches: a function of its own, as a closure in stepFrom, which runs for every step, would
 * allocate its captured variables on every call.
 */
function group(branches: readonly PathExpr[], item: Item, scope: Scope): Item[] {
  return normalize(branches.flatMap((branch) => evaluate(branch, item, scope)));
}

/** The names of a path that only selects children by name (after self steps), or undefined for any other expression. */
const childNamesOf = cachedPer((expr: Expr): readonly string[] | undefined => {
  if (expr.type !== "path" || expr.rootDescendant || expr.steps.some((step) => step.predicates.length > 0)) return undefined;
  const last = expr.steps[expr.steps.length - 1];
  return last?.axis === "child" && expr.steps.slice(0, -1).every((step) => step.axis === "self") ? last.names : undefined;
});

/** A map entry's key: one atom or none; a flag (`@id`, the usual key) is read from the JSON without its node. */
function entryKey(expr: Expr, focus: Item | undefined, scope: Scope): Atom | undefined {
  const flag = bareFlagOf(expr);
  if (flag === undefined) return single(evaluate(expr, focus, scope), "map:entry");
  return flagValueOf(flag, focus);
}

/** Adds an entry whose key the map does not hold yet. */
function addEntry(map: MapItem, seen: Set<string>, key: string, value: Item[]): void {
  seen.add(key);
  map.keys.push(key);
  map.values.push(value);
}

function stringArgument(args: readonly Expr[], at: number, focus: Item | undefined, scope: Scope, name: string): string | undefined {
  const arg = args[at];
  if (arg === undefined) return undefined;
  const value = single(evaluate(arg, focus, scope), `${name}()`);
  return value === undefined ? undefined : String(value);
}

function call(name: string, args: readonly Expr[], focus: Item | undefined, scope: Scope): Item[] {
  switch (name) {
    case "map:entry": {
      const key = entryKey(args[0]!, focus, scope);
      return key === undefined ? EMPTY : [new MapItem([String(key)], [evaluate(args[1]!, focus, scope)])];
    }
    case "map:merge": {
      // Duplicate keys keep the first entry (map:merge's default "use-first").
      const seen = new Set<string>();
      const merged = new MapItem([], []);
      const source = args[0]!;
      if (source.type === "map" && source.right.type === "call" && source.right.name === "map:entry") {
        // `nodes ! map:entry(key, value)`, the usual argument: entries merged as they are made, without a map each.
        const [keyExpr, valueExpr] = source.right.args;
        for (const item of evaluate(source.left, focus, scope)) {
          const key = entryKey(keyExpr!, item, scope);
          if (key === undefined) continue;
          const text = String(key);
          if (!seen.has(text)) addEntry(merged, seen, text, evaluate(valueExpr!, item, scope));
        }
        return [merged];
      }
      for (const item of evaluate(source, focus, scope)) {
        if (!(item instanceof MapItem)) throw new Error("map:merge() takes maps");
        for (let i = 0; i < item.keys.length; i++) if (!seen.has(item.keys[i]!)) addEntry(merged, seen, item.keys[i]!, item.values[i]!);
      }
      return [merged];
    }
  }
  const run = scope.run;
  const arg = (i: number) => evaluate(args[i]!, focus, scope);
  const text = (i: number) => stringArgument(args, i, focus, scope, name);
  switch (name) {
    case "starts-with":
      return bool((text(0) ?? "").startsWith(text(1) ?? ""));
    case "substring": {
      // XPath positions are 1-based and count characters; rounding as fn:substring does.
      const chars = [...(text(0) ?? "")];
      const start = Math.round(Number(text(1)));
      const length = args.length > 2 ? Math.round(Number(text(2))) : Infinity;
      return [chars.filter((_, i) => i + 1 >= start && i + 1 < start + length).join("")];
    }
    case "substring-after": {
      const subject = text(0) ?? "";
      const marker = text(1) ?? "";
      const at = subject.indexOf(marker);
      return [at < 0 ? "" : subject.slice(at + marker.length)];
    }
    case "current-dateTime":
      return [run.options.now];
    case "path": {
      const nodes = args.length > 0 ? arg(0) : focus === undefined ? [] : [focus];
      return nodes.map((node) => (node instanceof XNode ? node.pointer() : ""));
    }
    case "resolve-uri":
      // Documents are looked up by the href as written: there is no base URI to resolve against.
      return args.length === 0 ? [] : arg(0).length === 0 ? [] : [text(0)!];
    case "doc-available": {
      const href = text(0);
      return bool(href !== undefined && run.documentAvailable(href));
    }
    case "doc": {
      const href = text(0);
      return href === undefined ? [] : [run.document(href)];
    }
    case "resolve-profile": {
      const out: Item[] = [];
      for (const node of arg(0)) {
        if (!(node instanceof XNode)) throw new Error("resolve-profile() takes a document");
        if (node.view.model === "catalog") out.push(node.view.root);
        else throw new NotEvaluated(`resolving a ${node.view.model} is not supported: supply its resolved catalog under the same href`);
      }
      return out;
    }

    default:
      throw new Error(`unsupported Metapath function ${name}()`);
  }
}

/** The index key of a node: its key fields' values joined, or undefined when none has a value. */
function keyOf(node: Item, c: PackConstraint, scope: Scope): string | undefined {
  const keys = c.keys!;
  if (keys.length === 1) return keyPart(node, keys[0]!, scope);
  const parts = keys.map((key) => keyPart(node, key, scope));
  return parts.every((p) => p === undefined) ? undefined : parts.map((p) => p ?? "").join("\u001f");
}

function keyPart(node: Item, key: NonNullable<PackConstraint["keys"]>[number], scope: Scope): string | undefined {
  // Keys are mostly a flag (`@id`): read from the JSON, without a flag node.
  const flag = bareFlagOf(key.target);
  const atom = flag === undefined ? atomize(evaluate(key.target, node, scope))[0] : flagValueOf(flag, node);
  if (atom === undefined) return undefined;
  const value = String(atom);
  if (key.pattern === undefined) return value;
  // key-field/@pattern: the key is the first capturing group of a full match.
  return fullMatch(key.pattern).exec(value)?.[1] || undefined;
}

function renderMessage(template: PackConstraint["message"], node: Item, scope: Scope, fallback: () => string): string {
  if (template === undefined) return fallback();
  return template
    .map((part) => {
      if (typeof part === "string") return part;
      try {
        return atomize(evaluate(part, node, scope)).map((a) => excerpt(a instanceof Date ? a.toISOString() : String(a))).join(", ");
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
  const value = atomOf(target);
  const allowed = [...new Set(c.values)].sort();
  const shown = allowed.slice(0, 12).map((v) => JSON.stringify(v)).join(", ");
  const list = allowed.length > 12 ? `${shown}, ... (${allowed.length - 12} more)` : shown;
  return `Value ${JSON.stringify(excerpt(String(value)))} is not allowed; allowed: ${list}. ${rule.description}`;
}

const regexCache = new Map<string, RegExp>();
function fullMatch(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (re === undefined) regexCache.set(pattern, (re = new RegExp(`^(?:${pattern})$`, "u")));
  return re;
}

/** Evaluates every active constraint of the pack on a document of a model the pack's view knows. */
export function runPack(data: PackData, document: unknown, options: PackRunOptions): { findings: PackFinding[]; results: RuleResults[] } {
  const results: RuleResults[] = data.rules.map(() => ({ pass: 0, fail: 0, notEvaluated: 0 }));
  const findings: PackFinding[] = [];
  const view = viewOf(data, document);
  if (view === undefined) return { findings, results };
  const run = new Run(data, options);
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

  // Every context node with its scope, once, for contexts with work to do.
  const isActive = data.rules.map((_, rule) => options.active(rule));
  const usedIndexes = new Set(data.contexts.flatMap((context) => context.constraints.filter((c) => c.kind === "index-has-key" && isActive[c.rule]).map((c) => c.index!)));
  const runs = (c: PackConstraint) => (c.kind === "index" ? usedIndexes.has(c.index!) : isActive[c.rule]!);
  const { sites, rootScope } = run;
  for (const context of data.contexts) {
    if (!context.constraints.some(runs)) continue;
    const items = context.targets.length === 1 ? evaluate(context.targets[0]!, view.root, rootScope) : normalize(context.targets.flatMap((target) => evaluate(target, view.root, rootScope)));
    const nodes = items.every((item) => item instanceof XNode) ? (items as XNode[]) : items.filter((item) => item instanceof XNode);
    // Lets are evaluated in the focus of their context node: only a context with lets needs a scope per node.
    sites.push({ context, nodes, scopes: context.lets.length === 0 ? undefined : nodes.map((node) => new Scope(run, rootScope, letsOf(context), node)) });
  }

  // is-unique keys seen at the current context node, per rule (one map for the run: most sites have none).
  const seen = new Map<number, Set<string>>();
  /** Checks one target of a constraint, counting and reporting the outcome. */
  const check = (c: PackConstraint, compiledConstraint: CompiledConstraint, target: Item, node: XNode, scope: Scope, failure: NotEvaluated | undefined) => {
    if (failure !== undefined) {
      notEvaluated(c.rule, target instanceof XNode ? target : node, failure);
      return;
    }
    try {
      if (checkTarget(c, compiledConstraint, target, scope, run, seen)) results[c.rule]!.pass++;
      else {
        results[c.rule]!.fail++;
        const message = () => renderMessage(c.message, target, scope, () => defaultMessage(c, target, data.rules[c.rule]!));
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
    const compiledConstraints = compiledConstraintsOf(context);
    for (let n = 0; n < nodes.length; n++) {
      const node = nodes[n]!;
      const scope = scopes?.[n] ?? rootScope;
      if (seen.size > 0) seen.clear();
      for (let k = 0; k < constraints.length; k++) {
        const c = constraints[k]!;
        if (c.rule < 0 || !isActive[c.rule]) continue;
        const compiledConstraint = (compiledConstraints[k] ??= compileConstraint(c));
        try {
          // Most constraints target their context node itself (`.`): checked without a sequence of it.
          const targets = compiledConstraint.targets?.(node, scope);
          // The whole index, before any target, once the targets are known: a constraint whose targets cannot be
          // evaluated (they need another document) does not cost building it.
          if (c.kind === "index-has-key") run.index(c.index!);
          // A test reading a variable before anything else (`every $p in $params satisfies …`) cannot be evaluated on
          // any target when the variable cannot: found out once per context node rather than thrown for each target.
          const { leading } = compiledConstraint;
          const failure = leading === undefined || targets?.length === 0 ? undefined : scope.failureOf(leading);
          if (targets === undefined) check(c, compiledConstraint, node, node, scope, failure);
          else for (let t = 0; t < targets.length; t++) check(c, compiledConstraint, targets[t]!, node, scope, failure);
        } catch (error) {
          if (!(error instanceof NotEvaluated)) throw error;
          notEvaluated(c.rule, node, error);
        }
      }
    }
  }
  return { findings, results };
}

/** A constraint's expressions compiled, with what checking it needs to know of them: worked out on its first check. */
interface CompiledConstraint {
  /** Its targets; none for `.`, its context node itself. */
  targets: Evaluator | undefined;
  /** An expect constraint's test. */
  test: Evaluator | undefined;
  /** The variable its test reads before anything else. */
  leading: string | undefined;
}

function compileConstraint(c: PackConstraint): CompiledConstraint {
  const expect = c.kind === "expect";
  return { targets: isFocus(c.target) ? undefined : compiled(c.target), test: expect ? compiled(c.test!) : undefined, leading: expect ? leadingVariable(c.test!) : undefined };
}

/** Per context, its constraints compiled, each on its first check (constraints of inactive rules never are). */
const compiledConstraintsOf = cachedPer((context: PackContext): (CompiledConstraint | undefined)[] => new Array<CompiledConstraint | undefined>(context.constraints.length));

/** The variable an expression reads before anything else, if it starts with one (its value depends on no target). */
const leadingVariable = cachedPer((expr: Expr): string | undefined => {
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
});

function checkTarget(c: PackConstraint, { test }: CompiledConstraint, target: Item, scope: Scope, run: Run, seen: Map<number, Set<string>>): boolean {
  switch (c.kind) {
    case "expect":
      return effectiveBoolean(test!(target, scope));
    case "allowed-values": {
      if (c.allowOther) return true;
      const value = single([target], "allowed-values");
      return value !== undefined && c.values!.includes(String(value));
    }
    case "matches": {
      const value = single([target], "matches");
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
