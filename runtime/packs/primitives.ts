// What a pack's generated code calls (compiler/packs/emit): Metapath's sequences, atomization, comparisons, functions
// and predicates, over the node view (./node-view.ts). The generated module requires these by name, through the
// constraint run time (../constraints/runtime.ts); it never sees the compiler, and nothing here reads files or touches
// the network: other documents come from the caller.
import { excerpt } from "../core/issue-bounds.js";
import { allowedList, EX, KEYPAT, notAllowed } from "../constraints/values.js";
import { canonicalNames, FLAG, MapItem, XNode, normalize, type ChildNames, type Item } from "./node-view.js";
import type { Scope } from "./engine.js";

export { ChildNames, XNode, normalize } from "./node-view.js";

/** An expression compiled to a function. Results are shared (literals, memoised values, booleans): never modified. */
export type Evaluator = (focus: Item | undefined, scope: Scope) => Item[];

/** Thrown where an input cannot be resolved; a plain class, not an Error: no stack trace is captured. */
export class NotEvaluated {
  constructor(readonly message: string) {}
}

export type Atom = string | number | boolean | Date;

export const TRUE: Item[] = [true];
export const FALSE: Item[] = [false];
export const EMPTY: Item[] = [];
export const bool = (value: boolean): Item[] => (value ? TRUE : FALSE);
/** The sequence of one item: a node's is made once and shared. */
export const sequenceOf = (item: Item): Item[] => (item instanceof XNode ? item.alone() : [item]);
/** Counts are mostly small: their sequences are shared too. */
const SMALL_COUNTS: Item[][] = Array.from({ length: 256 }, (_, n) => [n]);
export const countOf = (n: number): Item[] => SMALL_COUNTS[n] ?? [n];

export function atomOf(item: Item): Atom | undefined {
  if (item instanceof XNode) return item.atom();
  if (item instanceof MapItem) throw new Error("a map has no atomic value");
  return item;
}

export function atomize(items: readonly Item[]): Atom[] {
  // One item, the usual operand: an array of its atom alone (an empty array pushed to reserves room for many).
  if (items.length === 1) {
    const atom = atomOf(items[0]!);
    return atom === undefined ? [] : [atom];
  }
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

/**
 * The comparisons evaluation has made in this process: pairs of atoms compared, and atoms hashed into or looked up in
 * the sets that stand for comparisons with many values (and in the join's flag indexes). Read by the tests, which show
 * with it that a pack's cost grows linearly with the document; one increment per comparison costs nothing measurable.
 */
let comparisons = 0;
export const comparisonsMade = (): number => comparisons;

/** A comparison operator on two atoms once they are of one type (compareAtoms converts them). */
export type Comparator = (x: string | number | boolean, y: string | number | boolean) => boolean;

// The comparison operators, by their general and value names: the generated code (NIST's and the packs') passes the one
// it compares with.
export const equal: Comparator = (x, y) => x === y;
export const notEqual: Comparator = (x, y) => x !== y;
export const less: Comparator = (x, y) => x < y;
export const lessOrEqual: Comparator = (x, y) => x <= y;
export const greater: Comparator = (x, y) => x > y;
export const greaterOrEqual: Comparator = (x, y) => x >= y;

/**
 * Two atoms compared, by NIST's checks (CMPG) as by the packs: as instants when one is a date; as numbers when one is a
 * number and both read as numbers; as they are when of one type; otherwise as strings.
 */
export function compareAtoms(compare: Comparator, a: Atom, b: Atom): boolean {
  comparisons++;
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
  return compare(x, y);
}

/**
 * Sequences shorter than this are compared (or filtered) item by item: hashing them would cost more than it saves.
 * From this length on, an equality with a sequence hashes its atoms, and a filter by `@flag = $values` joins.
 */
const HASH_AT_LEAST = 8;

/**
 * The atoms of a sequence hashed for general equality (`=`), giving exactly compareAtoms' answers: a string equals a
 * string alike, a number whose value it reads as (Number()), or the boolean it spells; a number equals a number, a
 * string read as it, or a boolean as 0 or 1; a boolean equals itself, its name or its number.
 */
class EqualityIndex {
  private readonly strings = new Set<string>();
  // The other kinds are rare in a sequence of ids: their sets are made for the first atom that needs one.
  private numbers: Set<number> | undefined;
  /** The strings' values as numbers, where they read as one. */
  private stringNumbers: Set<number> | undefined;
  private booleans: Set<boolean> | undefined;

  constructor(
    atoms: readonly (string | number | boolean)[],
    /** How many items of the sequence have no atom. */
    readonly missing: number,
  ) {
    for (const atom of atoms) {
      comparisons++;
      if (typeof atom === "string") {
        this.strings.add(atom);
        const number = Number(atom);
        if (!Number.isNaN(number)) (this.stringNumbers ??= new Set()).add(number);
      } else if (typeof atom === "number") (this.numbers ??= new Set()).add(atom);
      else (this.booleans ??= new Set()).add(atom);
    }
  }

  /** Whether an atom of the sequence equals `atom` (neither a date nor NaN). */
  has(atom: string | number | boolean): boolean {
    comparisons++;
    const { numbers, stringNumbers, booleans } = this;
    if (typeof atom === "string") {
      return this.strings.has(atom) || (numbers !== undefined && numbers.has(Number(atom))) || (booleans !== undefined && (atom === "true" || atom === "false") && booleans.has(atom === "true"));
    }
    if (typeof atom === "number") {
      return (numbers !== undefined && numbers.has(atom)) || (stringNumbers !== undefined && stringNumbers.has(atom)) || (booleans !== undefined && (atom === 1 || atom === 0) && booleans.has(atom === 1));
    }
    return (booleans !== undefined && booleans.has(atom)) || this.strings.has(String(atom)) || (numbers !== undefined && numbers.has(Number(atom)));
  }
}

/** Dates compare as instants and NaN equals nothing: the sequences holding them are compared pair by pair. */
const hashable = (atom: Atom): atom is string | number | boolean => !(atom instanceof Date) && !(typeof atom === "number" && Number.isNaN(atom));

/** Per sequence (sequences are shared and never modified: a memoised value, a let's), its equality index; null: none. */
const equalityIndexes = new WeakMap<readonly Item[], EqualityIndex | null | typeof PROBED_ONCE>();
/** A sequence one atom was looked for in, not indexed: most sequences made in an evaluation are probed only once. */
const PROBED_ONCE = Symbol("probed once");
function equalityIndexOf(items: readonly Item[]): EqualityIndex | null {
  let index = equalityIndexes.get(items);
  if (index === undefined || index === PROBED_ONCE) {
    const atoms = atomize(items);
    index = atoms.every(hashable) ? new EqualityIndex(atoms, items.length - atoms.length) : null;
    equalityIndexes.set(items, index);
  }
  return index;
}

/** Whether an atom of `probes` equals one of `items`, through the index of `items`; undefined where only pairs decide. */
function someEqual(items: readonly Item[], probes: readonly Atom[]): boolean | undefined {
  if (probes.length === 1) return equalsSome(items, probes[0]!);
  const index = equalityIndexOf(items);
  if (index === null || !probes.every(hashable)) return undefined;
  return probes.some((probe) => index.has(probe as string | number | boolean));
}

/**
 * someEqual of one atom, without a sequence of it. One atom looked for in a sequence not seen before is compared pair
 * by pair, which costs what hashing it would and allocates nothing (a sequence made for one evaluation); the index is
 * made when the sequence is probed again.
 */
function equalsSome(items: readonly Item[], probe: Atom): boolean | undefined {
  if (!equalityIndexes.has(items)) {
    equalityIndexes.set(items, PROBED_ONCE);
    return undefined;
  }
  const index = equalityIndexOf(items);
  return index === null || !hashable(probe) ? undefined : index.has(probe);
}

/** General comparison: true when some pair of the two sides' atoms compares true. */
export function compareGeneral(compare: Comparator, leftItems: readonly Item[], rightItems: readonly Item[]): Item[] {
  if (leftItems.length === 1 && rightItems.length === 1) {
    const a = atomOf(leftItems[0]!);
    const b = atomOf(rightItems[0]!);
    return bool(a !== undefined && b !== undefined && compareAtoms(compare, a, b));
  }
  // `=` with a long side: its atoms hashed (once per sequence) and the other side's looked up, not every pair compared.
  if (compare === equal && Math.max(leftItems.length, rightItems.length) >= HASH_AT_LEAST) {
    const leftHashed = leftItems.length >= rightItems.length;
    const hashed = leftHashed ? leftItems : rightItems;
    const probed = leftHashed ? rightItems : leftItems;
    // One item probed (a variable bound to one node, the usual case) needs no sequence of its atoms.
    const probe = probed.length === 1 ? atomOf(probed[0]!) : undefined;
    const found = probed.length !== 1 ? someEqual(hashed, atomize(probed)) : probe === undefined ? false : equalsSome(hashed, probe);
    if (found !== undefined) return bool(found);
  }
  const left = atomize(leftItems);
  const right = atomize(rightItems);
  for (let i = 0; i < left.length; i++) for (let j = 0; j < right.length; j++) if (compareAtoms(compare, left[i]!, right[j]!)) return TRUE;
  return FALSE;
}

/** `@flag = expression`: the flag's value (read from the JSON, without its node) against the other side's atoms. */
export function compareFlagWith(compare: Comparator, value: Atom | undefined, rightItems: readonly Item[]): Item[] {
  if (value === undefined) return FALSE;
  if (compare === equal && rightItems.length >= HASH_AT_LEAST) {
    const found = equalsSome(rightItems, value);
    if (found !== undefined) return bool(found);
  }
  // Each atom is compared once: no sequence of them is made.
  for (let j = 0; j < rightItems.length; j++) {
    const b = atomOf(rightItems[j]!);
    if (b !== undefined && compareAtoms(compare, value, b)) return TRUE;
  }
  return FALSE;
}

/** Value comparison of the operands' atoms (oneAtom): an absent operand gives the empty sequence. */
export function compareValues(compare: Comparator, a: Atom | undefined, b: Atom | undefined): Item[] {
  return a === undefined || b === undefined ? EMPTY : bool(compareAtoms(compare, a, b));
}

export function effectiveBoolean(items: readonly Item[]): boolean {
  if (items.length === 0) return false;
  const first = items[0]!;
  if (first instanceof XNode || first instanceof MapItem || first instanceof Date) return true;
  if (items.length > 1) return true;
  if (typeof first === "boolean") return first;
  if (typeof first === "number") return first !== 0 && !Number.isNaN(first);
  return first !== "";
}

/**
 * The one atom of an operand (none: undefined). `what` says in words what the constraint does with it ("the constraint
 * compares one value"), for the message when it has several: a reader of the finding knows no Metapath.
 */
export function oneAtom(items: readonly Item[], what: string): Atom | undefined {
  if (items.length === 1) return atomOf(items[0]!);
  const atoms = atomize(items);
  if (atoms.length > 1) throw new NotEvaluated(`${what} where the document gives ${atoms.length}`);
  return atoms[0];
}

/** The value of a flag of the focus (flags and atomic items have none). */
export const flagValueOf = (flag: string, focus: Item | undefined) => (focus instanceof XNode ? focus.flagValue(flag) : undefined);

/** `@name = 'literal'` or `@name = ('a', 'b')`: whether the flag's value (none: false) compares true with a literal. */
function compareFlag(compare: Comparator, literals: readonly (string | number)[], value: Atom | undefined): boolean {
  if (value === undefined) return false;
  for (let i = 0; i < literals.length; i++) if (compareAtoms(compare, value, literals[i]!)) return true;
  return false;
}

/** An operand of and/or that could not be evaluated: the first such is kept (other errors go on). */
export function firstNotEvaluated(error: unknown, pending: NotEvaluated | undefined): NotEvaluated {
  if (!(error instanceof NotEvaluated)) throw error;
  return pending ?? error;
}

/**
 * `some $x in S satisfies $x = E` and `every $x in S satisfies $x != E` (either way round), where E does not read $x:
 * E is the same for every $x, so it is evaluated once (when S is not empty, as the quantifier would), and the first is
 * the general comparison `S = E`, hashed when S is long; the second holds when E has one atom that no item of S equals
 * (and every item of S has an atom), looked up in the same hashed set. Each `S` is its own sequence: a memoised value
 * or a let's is hashed once for all the evaluations that share it.
 */
export function quantifiedEquality(some: boolean, within: Evaluator, other: Evaluator, focus: Item | undefined, scope: Scope): Item[] {
  const items = within(focus, scope);
  if (items.length === 0) return bool(!some);
  const others = other(focus, scope);
  if (some) return compareGeneral(equal, items, others);
  const atoms = atomize(others);
  if (atoms.length === 0) return FALSE;
  const [atom] = atoms as [Atom];
  const index = atoms.length === 1 && items.length >= HASH_AT_LEAST && hashable(atom) ? equalityIndexOf(items) : null;
  if (index !== null) return bool(index.missing === 0 && !index.has(atom as string | number | boolean));
  for (let i = 0; i < items.length; i++) if (compareGeneral(notEqual, [items[i]!], others) === FALSE) return FALSE;
  return TRUE;
}

/**
 * Appends `items` to `out` one by one: `out.push(...items)` passes every item as an argument, and an array of some
 * hundred thousand (the props of one component) overflows the stack, which would read as a nesting error.
 */
function appendAll(out: Item[], items: readonly Item[]): void {
  for (let i = 0; i < items.length; i++) out.push(items[i]!);
}

/** The sequences one after the other. */
export function concat(...sequences: (readonly Item[])[]): Item[] {
  const out: Item[] = [];
  for (const sequence of sequences) appendAll(out, sequence);
  return out;
}

/** A step taken from each of several items: their results in order (document order, deduped, unless `ordered`). */
export function stepEach(items: readonly Item[], step: Evaluator, scope: Scope, ordered: boolean): Item[] {
  // What one item alone gives (often the case: a step from many nodes that few answer) is its (shared) sequence.
  let only: Item[] = EMPTY;
  let next: Item[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const found = step(items[i]!, scope);
    if (found.length === 0) continue;
    if (next !== undefined) appendAll(next, found);
    else if (only.length === 0) only = found;
    else {
      next = only.slice();
      appendAll(next, found);
    }
  }
  // Children and flags of distinct nodes in document order are distinct and in document order already.
  const out = next ?? only;
  return ordered ? out : normalize(out);
}

/** `left ! right`: the right side evaluated with each item of the left as its focus. */
export function mapEach(items: readonly Item[], right: Evaluator, scope: Scope): Item[] {
  return items.flatMap((item) => right(item, scope));
}

/** `?*`: every value of the maps. */
export function lookupAll(items: readonly Item[]): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    if (!(item instanceof MapItem)) throw new Error("?* applies to maps only");
    for (const value of item.values) appendAll(out, value);
  }
  return out;
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

/**
 * `@flag = E`, E not depending on the focus (`$component-uuid`, `substring-after($href, '#')`): a general equality of a
 * flag with values that are the same for every node filtered. Applied to many nodes for each of many context nodes
 * (`component[@uuid = $component-uuid]` for every statement), filtering costs the product of the two; looking the
 * values up in the nodes' flag values, indexed once per sequence of nodes, costs their sum.
 */
export interface FlagJoin {
  flag: string;
  values: Evaluator;
}

/** A predicate that reads a variable, applied on every evaluation; through its join when it has one and it pays. */
export function filterOrJoin(items: readonly Item[], predicate: Evaluator, flagJoin: FlagJoin | null, scope: Scope): Item[] {
  const joined = flagJoin !== null && items.length >= HASH_AT_LEAST ? join(items, flagJoin, scope) : undefined;
  return joined ?? filter(items, predicate, scope);
}

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
    comparisons++;
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

/** The items whose flag equals one of the values, in order; undefined where only filtering decides. */
function join(items: readonly Item[], { flag, values }: FlagJoin, scope: Scope): Item[] | undefined {
  // The values are the same at every item: evaluated at the first, as filtering would evaluate them first.
  const atoms = atomize(values(items[0], scope));
  if (!atoms.every((atom) => typeof atom === "string")) return undefined;
  const index = nodesByFlagValue(items, flag);
  if (index === null) return undefined;
  comparisons += atoms.length;
  // One value (the usual case): its positions, ascending and distinct as the index holds them.
  if (atoms.length === 1) {
    const found = index.get(atoms[0] as string);
    if (found === undefined) return EMPTY;
    if (found.length === items.length) return items as Item[];
    return found.length === 1 ? sequenceOf(items[found[0]!]!) : found.map((position) => items[position]!);
  }
  const positions = new Set<number>();
  for (const atom of atoms) for (const position of index.get(atom as string) ?? []) positions.add(position);
  if (positions.size === items.length) return items as Item[];
  return [...positions].sort((a, b) => a - b).map((position) => items[position]!);
}

/** fn:data() of `parents/@flag`: the flag's values, read from the JSON without flag nodes. */
export function flagValues(nodes: readonly Item[], flag: string): Item[] {
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
}

/** A map entry's or an index's key: a flag's value (read from the JSON) or an expression's one atom. */
export type KeyOf = { flag: string } | { value: Evaluator };

function entryKey(key: KeyOf, focus: Item | undefined, scope: Scope): Atom | undefined {
  return "flag" in key ? flagValueOf(key.flag, focus) : oneAtom(key.value(focus, scope), "the constraint keys its values by one value");
}

export function mapEntry(key: KeyOf, value: Evaluator, focus: Item | undefined, scope: Scope): Item[] {
  const atom = entryKey(key, focus, scope);
  return atom === undefined ? EMPTY : [new MapItem([String(atom)], [value(focus, scope)])];
}

/** Adds an entry whose key the map does not hold yet. */
function addEntry(map: MapItem, seen: Set<string>, key: string, value: Item[]): void {
  seen.add(key);
  map.keys.push(key);
  map.values.push(value);
}

/**
 * `map:merge(nodes ! map:entry(key, value))`, the usual argument: entries merged as they are made, without a map each.
 * Duplicate keys keep the first entry (map:merge's default "use-first").
 */
export function mergeEntries(items: readonly Item[], key: KeyOf, value: Evaluator, scope: Scope): Item[] {
  const seen = new Set<string>();
  const merged = new MapItem([], []);
  for (const item of items) {
    const atom = entryKey(key, item, scope);
    if (atom === undefined) continue;
    const text = String(atom);
    if (!seen.has(text)) addEntry(merged, seen, text, value(item, scope));
  }
  return [merged];
}

/**
 * `map:merge(items ! map:entry(key, .))?*`, a way to keep one item per key: the items with a key no item before them
 * has (and not those without a key), in order, without the map; the (shared) input itself when that is all of them.
 */
export function firstOfEachKey(items: readonly Item[], key: KeyOf, scope: Scope): Item[] {
  const seen = new Set<string>();
  let kept: Item[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const atom = entryKey(key, items[i], scope);
    const text = atom === undefined ? undefined : String(atom);
    if (text !== undefined && !seen.has(text)) {
      seen.add(text);
      kept?.push(items[i]!);
    } else kept ??= items.slice(0, i);
  }
  return kept ?? (items as Item[]);
}

export function mergeMaps(items: readonly Item[]): Item[] {
  const seen = new Set<string>();
  const merged = new MapItem([], []);
  for (const item of items) {
    if (!(item instanceof MapItem)) throw new Error("map:merge() takes maps");
    for (let i = 0; i < item.keys.length; i++) if (!seen.has(item.keys[i]!)) addEntry(merged, seen, item.keys[i]!, item.values[i]!);
  }
  return [merged];
}

/** A string argument of a function: its one atom as a string, or undefined for the empty sequence. */
export function textOf(items: readonly Item[], what: string): string | undefined {
  const value = oneAtom(items, what);
  return value === undefined ? undefined : String(value);
}

// The Metapath functions the generated code calls that it does not inline, one helper each; the generated code
// evaluates the arguments (textOf for strings) in order.

export function startsWith(subject: string | undefined, prefix: string | undefined): Item[] {
  return bool((subject ?? "").startsWith(prefix ?? ""));
}

/** fn:substring with two arguments: the rest of the subject from a position. */
export function substring(subject: string | undefined, start: string | undefined): Item[] {
  return charactersFrom(subject, start, Infinity);
}

/** fn:substring with three arguments. */
export function substringOfLength(subject: string | undefined, start: string | undefined, length: string | undefined): Item[] {
  return charactersFrom(subject, start, Math.round(Number(length)));
}

/** XPath positions are 1-based and count characters; rounding as fn:substring does. */
function charactersFrom(subject: string | undefined, start: string | undefined, count: number): Item[] {
  const chars = [...(subject ?? "")];
  const from = Math.round(Number(start));
  return [chars.filter((_, i) => i + 1 >= from && i + 1 < from + count).join("")];
}

export function substringAfter(subject: string | undefined, marker: string | undefined): Item[] {
  const text = subject ?? "";
  const at = text.indexOf(marker ?? "");
  return [at < 0 ? "" : text.slice(at + (marker ?? "").length)];
}

export function currentDateTime(scope: Scope): Item[] {
  return [scope.run.options.now];
}

/** fn:path: the JSON Pointer of each node (an atom has none: ""). */
export function pathOf(nodes: readonly Item[]): Item[] {
  return nodes.map((node) => (node instanceof XNode ? node.pointer() : ""));
}

/** fn:path() without an argument: the focus's. */
export function pathOfFocus(focus: Item | undefined): Item[] {
  return focus === undefined ? [] : pathOf([focus]);
}

/** What doc(), doc-available() and resolve-uri() take, in the words of their message when given several. */
export const DOCUMENT_ADDRESS = "the constraint reads one document address";

/** fn:resolve-uri: documents are looked up by the href as written, as there is no base URI to resolve against. */
export function resolveUri(href: readonly Item[]): Item[] {
  return href.length === 0 ? [] : [textOf(href, DOCUMENT_ADDRESS)!];
}

export function docAvailable(href: string | undefined, scope: Scope): Item[] {
  return bool(href !== undefined && scope.run.documentAvailable(href));
}

export function doc(href: string | undefined, scope: Scope): Item[] {
  return href === undefined ? [] : [scope.run.document(href)];
}

export function resolveProfile(documents: readonly Item[], scope: Scope): Item[] {
  const out: Item[] = [];
  for (const node of documents) {
    if (!(node instanceof XNode)) throw new Error("resolve-profile() takes a document");
    const { href, model, root } = node.view;
    if (model === "catalog") {
      // A finding in it then says its pointer is one in the resolved catalog, not in the profile the href names.
      if (href !== undefined) scope.run.readResolved.add(href);
      out.push(root);
    } else throw new NotEvaluated(`resolving a ${model} is not supported: supply its resolved catalog under the same href`);
  }
  return out;
}

// Factories of the commonest leaves of generated code. Every closure one of them makes shares its code (and V8's
// optimised code for it) with the others, where a function generated per expression would be compiled on its own:
// FedRAMP's pack has some hundred memoised predicates, steps and flag comparisons.

/** The expression's value memoised per node; the closure is also the key of the values. */
export function memo(evaluate: Evaluator): Evaluator {
  const memoised: Evaluator = (focus, scope) => {
    if (!(focus instanceof XNode)) return evaluate(focus, scope);
    const known = focus.get<Item[]>(memoised);
    return known !== undefined ? known : focus.put(memoised, evaluate(focus, scope));
  };
  return memoised;
}

/** A step taken from a node and memoised on it with its variable-free predicates applied; from an atom, the step alone. */
export function memoStep(step: Evaluator, predicates: readonly Evaluator[]): Evaluator {
  const memoised: Evaluator = (item, scope) => {
    if (!(item instanceof XNode)) return step(item, scope);
    const known = item.get<Item[]>(memoised);
    if (known !== undefined) return known;
    let value = step(item, scope);
    for (let i = 0; i < predicates.length; i++) value = filter(value, predicates[i]!, scope);
    return item.put(memoised, value);
  };
  return memoised;
}

export const selfStep: Evaluator = (item) => (item instanceof XNode ? item.alone() : [item as Item]);
export const parentStep: Evaluator = (item) => (item instanceof XNode && item.parent !== null ? item.parent.alone() : EMPTY);
export const rootStep: Evaluator = (item) => (item instanceof XNode ? item.view.root.alone() : EMPTY);
export const childrenStep: Evaluator = (item) => (item instanceof XNode ? item.children() : EMPTY);
export const descendantsStep: Evaluator = (item) => (item instanceof XNode ? item.descendants() : EMPTY);

export function childStep(names: ChildNames): Evaluator {
  return (item) => (item instanceof XNode ? item.childrenNamed(names) : EMPTY);
}

export function flagStep(name: string): Evaluator {
  return (item) => (item instanceof XNode && item.def !== FLAG ? item.flag(name) : EMPTY);
}

/**
 * `//names` from a node: kept on the node under the canonical array of `names`, one for every step and pack that
 * searches for the same names (the walk stores the document node's under the same array).
 */
export function descendantStep(names: readonly string[]): Evaluator {
  const key = canonicalNames(names);
  return (item) => (item instanceof XNode ? item.descendants(key) : EMPTY);
}

/** `@flag = literal(s)`, general comparison: false when the flag is absent. */
export function flagIs(compare: Comparator, literals: readonly (string | number)[], flag: string): Evaluator {
  return (focus) => bool(compareFlag(compare, literals, flagValueOf(flag, focus)));
}

/** `@flag eq literal`, value comparison: the empty sequence when the flag is absent. */
export function flagValueIs(compare: Comparator, literals: readonly (string | number)[], flag: string): Evaluator {
  return (focus) => {
    const value = flagValueOf(flag, focus);
    return value === undefined ? EMPTY : bool(compareFlag(compare, literals, value));
  };
}

export function variable(name: string): Evaluator {
  return (_, scope) => scope.lookup(name);
}

export function literalValue(value: string | number): Evaluator {
  const sequence: Item[] = [value];
  return () => sequence;
}

// What a constraint's check function calls on its targets (each kind's `overView` in compiler/constraint-kinds).

/** allowed-values: whether the target's value is one of the values. */
export function valueIn(target: Item, values: ReadonlySet<string>): boolean {
  const value = atomOf(target);
  return value !== undefined && values.has(String(value));
}

/** matches: whether the target's value matches every full-match pattern. */
export function valueMatches(target: Item, patterns: readonly RegExp[]): boolean {
  const value = atomOf(target);
  if (value === undefined) return false;
  const text = String(value);
  for (let i = 0; i < patterns.length; i++) if (!patterns[i]!.test(text)) return false;
  return true;
}

/** The message of an allowed-values miss without one of its own: the value found (an excerpt) and those allowed. */
export function valueNotAllowed(target: Item, values: ReadonlySet<string>, ending: string): string {
  return notAllowed(EX(atomOf(target)), undefined, allowedList(values), ending);
}

/** has-cardinality: whether a count lies within the bounds (undefined: no bound on that side). */
export function countWithin(count: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || count >= min) && (max === undefined || count <= max);
}

/**
 * A key field's part of a key, or null when it has none: the atom as a string, or with key-field/@pattern its key
 * (KEYPAT). Several parts make one key as NIST's do (KEYN).
 */
export function keyPart(atom: Atom | undefined, pattern: RegExp | undefined): string | null {
  if (atom === undefined) return null;
  const value = String(atom);
  return pattern === undefined ? value : KEYPAT(pattern, value);
}

/** Adds an index constraint's target under its key: the first node with a key keeps it. */
export function addKey(index: Map<string, XNode>, key: string | null, target: Item): void {
  if (key !== null && target instanceof XNode && !index.has(key)) index.set(key, target);
}

/** An expression of a message template rendered: its atoms as short excerpts; "?" when it cannot be evaluated. */
export function messagePart(part: Evaluator, target: Item, scope: Scope): string {
  try {
    return atomize(part(target, scope))
      .map((atom) => excerpt(atom instanceof Date ? atom.toISOString() : String(atom)))
      .join(", ");
  } catch {
    // A placeholder that cannot be evaluated (it needs another document, or names a map) must not cost the finding.
    return "?";
  }
}
