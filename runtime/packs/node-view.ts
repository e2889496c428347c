// The node view of the pack engine: a parsed OSCAL JSON document seen in the metaschema's XML-model names (flags,
// fields, assemblies), built lazily, so that `prop[@name='x']/@value`, `..`, `//x` and `*` mean what they mean in
// constraint files. Nodes know their RFC 6901 pointer and document order.
import type { InstanceSpan, ViewDefinitions } from "#generated/packs/index.js";
import { isAtom, isObj } from "../constraints/values.js";
import { escapeToken } from "../core/json-pointer.js";

export type { ViewDefinitions };

/** `compute` worked out once per key object and kept while the key lives. */
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
export const FLAG = -2;
/**
 * A child's position: its instance number times INSTANCE, plus its array index (the compiler keeps instance numbers
 * under 32; a document with an array of 2^26 items would be too large to parse first).
 */
const INSTANCE: InstanceSpan = 0x4000000;
// Keys of an XNode's cache besides the generated steps and expressions.
const CHILDREN = Symbol("children");
const POINTER = Symbol("pointer");
const ALL_DESCENDANTS = Symbol("descendants");

const reachableNames = cachedPer((data: ViewDefinitions) => data.namesBelow.map((names) => new Set(names)));

/** Per definition, the child instances a `//names` search takes: [instance, holds a match, may lead to one]. */
type SearchSteps = [instance: number, matches: boolean, below: boolean][];
const searchPlansOf = cachedPer((_: ViewDefinitions) => new Map<readonly string[] | symbol, Map<number, SearchSteps>>());
function searchPlan(data: ViewDefinitions, names: readonly string[] | undefined): (def: number, rows: [string, string, number][]) => SearchSteps {
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
export class ChildNames {
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

export class XNode {
  /** The nodes of each child instance of the definition, built on first use. */
  private instances: (XNode[] | undefined)[] | undefined;
  /** The node alone of each flag of the definition, built on first use. */
  private flags: (XNode[] | undefined)[] | undefined;
  /**
   * Everything else computed on the node, created on first use (most nodes need none): its pointer,
   * descendant searches (keyed by the step's name list), and the results of variable-free expressions and steps
   * (keyed by their generated function, one for all written alike), which cannot change within a run.
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
    return this.def === DOCUMENT ? this.value : isObj(this.value) ? this.value[json] : undefined;
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

  /** The nodes of the definition's i-th child instance (the generated walk takes them in definition order). */
  instanceAt(i: number): XNode[] {
    return this.instance(i, this.childRows());
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

  /**
   * Descendants with one of the names (every descendant when `names` is undefined), in document order. Kept under the
   * names array: steps pass canonicalNames' array, so that the packs sharing a view share their searches too.
   */
  descendants(names?: readonly string[]): XNode[] {
    const key = names ?? ALL_DESCENDANTS;
    const known = this.get<XNode[]>(key);
    if (known !== undefined) return known;
    searches++;
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
    if (at < 0 || !isObj(this.value)) return undefined;
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
      const v = row[2] === null ? this.value : isObj(this.value) ? this.value[row[2]] : undefined;
      return isAtom(v) ? v : undefined;
    }
    return this.descendants().map((d) => d.atom() ?? "").join("");
  }
}

function depthOf(node: XNode): number {
  let depth = 0;
  for (let above = node.parent; above !== null; above = above.parent) depth++;
  return depth;
}

/** The child positions from the document node down to the node (flags before children). */
function positionsOf(node: XNode): number[] {
  const positions: number[] = [];
  for (let at: XNode = node; at.parent !== null; at = at.parent) positions.push(at.position);
  return positions.reverse();
}

/**
 * Document order: the positions of the two nodes' ancestors where their paths part, or the ancestor first. Worked out
 * by walking up, rather than from position paths kept on every node sorted: those cost an array and a cache per node.
 */
function compareOrder(a: XNode, b: XNode): number {
  let x = a;
  let y = b;
  const depthDifference = depthOf(a) - depthOf(b);
  for (let d = depthDifference; d > 0; d--) x = x.parent!;
  for (let d = depthDifference; d < 0; d++) y = y.parent!;
  if (x === y) return depthDifference;
  while (x.parent !== y.parent) {
    x = x.parent!;
    y = y.parent!;
  }
  // Nodes of two documents: their position paths compared from their document nodes.
  if (x.parent === null) return comparePositions(positionsOf(a), positionsOf(b));
  // Siblings at the same position are two flags, which have no descendants: a and b themselves.
  return x.position - y.position;
}

function comparePositions(x: readonly number[], y: readonly number[]): number {
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

export interface DocumentView {
  data: ViewDefinitions;
  model: string;
  /** The href `doc()` loaded it by, as written; undefined for the submitted document. */
  href: string | undefined;
  root: XNode;
  /** The document node's one child instance: its root. */
  rootRows: [string, string, number][];
}

/** A map (map:entry, map:merge): keys with their values, first entry of a key kept. */
export class MapItem {
  constructor(
    readonly keys: string[],
    readonly values: Item[][],
  ) {}
}
export type Item = XNode | string | number | boolean | Date | MapItem;

/** The first definitions seen with the same content, by their JSON. */
const definitionsByContent = new Map<string, ViewDefinitions>();

/**
 * One object for every equal set of definitions: packs compiled from one metaschema have equal ones (numbered alike,
 * as their generated code numbers them), and the views made with that object serve them all.
 */
export const canonicalDefinitions = cachedPer((data: ViewDefinitions): ViewDefinitions => {
  const content = JSON.stringify([data.definitions, data.roots]);
  let canonical = definitionsByContent.get(content);
  if (canonical === undefined) definitionsByContent.set(content, (canonical = data));
  return canonical;
});

/** The first names array seen with the same names, by the names: the key of their search's result on a node. */
const namesByContent = new Map<string, readonly string[]>();
export function canonicalNames(names: readonly string[]): readonly string[] {
  const content = names.join("\n");
  let canonical = namesByContent.get(content);
  if (canonical === undefined) namesByContent.set(content, (canonical = names));
  return canonical;
}

/** A program's searches by their canonical names arrays (canonicalNames), worked out once per program. */
export const canonicalSearches = cachedPer((searches: readonly (readonly string[])[]): readonly (readonly string[])[] => searches.map(canonicalNames));

let searches = 0;
/** How many descendant searches nodes have made (not answered from a node's memo): the tests count with it. */
export const searchesMade = (): number => searches;

let views = 0;
/** How many document views have been made: the tests count with it that one validation views each document once. */
export const viewsMade = (): number => views;

/** The view of the submitted document (`href` undefined) or of one `doc()` loaded by `href`. */
export function viewOf(data: ViewDefinitions, document: unknown, href?: string): DocumentView | undefined {
  if (!isObj(document)) return undefined;
  const model = Object.keys(document).find((key) => key in data.roots);
  if (model === undefined) return undefined;
  views++;
  const view = { data, model, href, rootRows: [[model, model, data.roots[model]!]] } as DocumentView;
  view.root = new XNode(document[model], DOCUMENT, null, -1, view);
  return view;
}
/** Dedupes nodes and puts them in document order (atomic items are kept as they come). */
export function normalize(items: Item[]): Item[] {
  if (items.length < 2 || !items.every((i) => i instanceof XNode)) return items;
  const nodes = items as XNode[];
  let ordered = true;
  for (let i = 1; i < nodes.length && ordered; i++) ordered = compareOrder(nodes[i - 1]!, nodes[i]!) < 0;
  return ordered ? nodes : [...new Set(nodes)].sort(compareOrder);
}
