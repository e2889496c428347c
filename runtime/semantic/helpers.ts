// What the generated semantic module (generated/semantic.cjs) runs besides its own walk: value helpers for compiled
// Metapath over the JSON the walk is on, and the state of one check (path, findings, allowed-values unions, references
// resolved after the walk). The module requires them by name from the constraint run time (../constraints/runtime.ts).

import { allowedList, EX, isObj, notOneOf } from "../constraints/values.js";
import { escapeToken } from "../core/json-pointer.js";
import { compareAtoms, type Atom, type Comparator } from "../packs/primitives.js";

/** A JSON Pointer segment: an array index or a property name. */
export type Segment = string | number;

// AT and AS test the type themselves rather than call isAtom: the generated walk calls them at every value it reads,
// in V8's interpreter and baseline code too, where a call costs more than the tests.
/** The atomic value of a node, or undefined. */
export function AT(v: unknown): string | number | boolean | undefined {
  const type = typeof v;
  return type === "string" || type === "number" || type === "boolean" ? (v as string | number | boolean) : undefined;
}
/** The atomic value as a string, or undefined. */
export function AS(v: unknown): string | undefined {
  const type = typeof v;
  if (type === "string") return v as string;
  return type === "number" || type === "boolean" ? String(v) : undefined;
}
/** Whether a child value is present (an empty array is not). */
export function HAS(v: unknown): boolean {
  return v !== undefined && v !== null && (!Array.isArray(v) || v.length > 0);
}
export function SEQ<T>(v: T | undefined): T[] {
  return v === undefined ? [] : [v];
}
export function NE(a: string | undefined, b: string): boolean {
  return a !== undefined && a !== b;
}
export function SW(v: unknown, prefix: string): boolean {
  return v === undefined ? prefix === "" : String(v).startsWith(prefix);
}

/** Metapath general comparison: true when some pair of atomised values compares true (compareAtoms, as the packs'). */
export function CMPG(compare: Comparator, left: readonly Atom[], right: readonly Atom[]): boolean {
  for (let i = 0; i < left.length; i++) for (let j = 0; j < right.length; j++) if (compareAtoms(compare, left[i]!, right[j]!)) return true;
  return false;
}

/**
 * A node of the document named by a path, interned in a trie so that a path is built once however many findings,
 * references or links share it: recording a node costs O(1) at any depth. Its JSON Pointer is made only for a node
 * that ends up in a finding, as the parent's plus one segment (V8 keeps the concatenation as a rope).
 */
export class PathNode {
  private text: string | null = null;
  /** The first child made, and every child once there is a second: most nodes on recorded paths have one. */
  private firstChild: PathNode | null = null;
  private children: Map<Segment, PathNode> | null = null;
  /** The findings made at this node, in the order they were made. */
  findings: Finding[] | null = null;
  /** Set once some finding is at this node or below it: ordering visits only those nodes. */
  holdsFindings = false;
  constructor(
    readonly up: PathNode | null,
    readonly segment: Segment,
  ) {}

  child(segment: Segment): PathNode {
    const first = this.firstChild;
    if (first === null) return (this.firstChild = new PathNode(this, segment));
    if (first.segment === segment) return first;
    if (this.children === null) this.children = new Map([[first.segment, first]]);
    let node = this.children.get(segment);
    if (node === undefined) this.children.set(segment, (node = new PathNode(this, segment)));
    return node;
  }

  /** The children on the way to some finding, in the order they were made. */
  childrenHoldingFindings(): PathNode[] {
    const holding: PathNode[] = [];
    if (this.children !== null) {
      for (const child of this.children.values()) if (child.holdsFindings) holding.push(child);
    } else if (this.firstChild?.holdsFindings) holding.push(this.firstChild);
    return holding;
  }

  get pointer(): string {
    if (this.text !== null) return this.text;
    // Iteratively, from the nearest ancestor that has its pointer: a deep path must not exhaust the stack.
    const pending: PathNode[] = [];
    for (let node: PathNode | null = this; node !== null && node.text === null; node = node.up) pending.push(node);
    for (let i = pending.length - 1; i >= 0; i--) {
      const node = pending[i]!;
      const { segment } = node;
      node.text = (node.up === null ? "" : node.up.text) + "/" + (typeof segment === "number" ? String(segment) : escapeToken(segment));
    }
    return this.text!;
  }
}

/** A path as the segments below the root, or as its node. */
type Place = Segment[] | PathNode;
/** Paths up to this deep are copied for what waits for the end of the walk; deeper ones are interned at once. */
const COPIED_DEPTH = 32;
/**
 * Up to this many fragment links left to look up, the declared identifiers are searched as listed; past it they go into
 * a set, which costs about as much to make as eight searches of the list (a link is searched for once, or twice when
 * percent-decoded).
 */
const LISTED_LOOKUPS = 4;
/** Entries (two a match) of the first chunk of allowed-values matches; each next one has twice as many, up to 64 KB. */
const FIRST_MATCH_CHUNK = 512;
const MATCH_CHUNK = 8192;
/**
 * How many of the latest allowed-values matches a strict miss looks among before it is kept for `finish` (a search's
 * may still be answered by a later match: see `wait`): a control's `.//part` search meets the items of its statement up
 * to 23 matches after the statement's own constraint matched them (SP 800-53 rev5).
 */
const RECENT_MATCHES = 32;
/**
 * Strict misses of a search that wait for a later match of their node (see `wait`): at most WAITING_MISSES at once, for
 * at most WAITING_MATCHES matches since the first of them began to wait.
 */
const WAITING_MISSES = 32;
const WAITING_MATCHES = 256;

export interface Finding {
  readonly rule: number;
  readonly at: PathNode;
  readonly message: string;
}

/** Writes the message of a finding decided after the walk from what the finding keeps. */
type Describe = (subject: unknown, detail: unknown) => string;

/**
 * A finding decided after the walk (an allowed-values miss, a dangling reference or link). Its message is written only
 * when read: a report lists at most a few hundred findings, and a document with thousands would otherwise allocate a
 * message for each, which with their excerpts is most of what the semantic layer allocates on such documents.
 */
class DeferredFinding implements Finding {
  constructor(
    readonly rule: number,
    readonly at: PathNode,
    private readonly describe: Describe,
    private readonly subject: unknown,
    private readonly detail: unknown,
  ) {}

  get message(): string {
    return this.describe(this.subject, this.detail);
  }
}

const allowedValuesMessage: Describe = (value, verdict) => {
  const { subject, where, allowed } = verdict as AllowedVerdict;
  return notOneOf(subject, EX(value), where, allowed);
};
/** A reference's message from what names the key (`The link's hypertext reference`) and what it failed to name. */
const referenceMessage: Describe = (key, label) => {
  const [subject, missing, keyPrefix = ""] = label as ReferenceLabel;
  return key === null ? `${subject} is missing or empty, so it ${missing}.` : `${subject} ${EX(keyPrefix + (key as string))} ${missing}.`;
};
const linkMessage: Describe = (fragment) => `The link target ${EX(`#${fragment as string}`)} names no id or uuid declared in this document.`;

/**
 * A node some strict allowed-values constraint missed: whether another constraint matched it, the constraints that
 * missed it (when none did), and the next such node of its container. Where a search ordered misses as of an earlier
 * clock, `rules` holds per rule the rule, the earliest order of its misses and where that miss is in the list of
 * misses: in the array the node has anyway, as thousands of findings each making more arrays cost a tenth of a
 * catalog's validation.
 */
interface MissedNode {
  key: unknown;
  value: unknown;
  place: Place;
  matched: boolean;
  rules: number[];
  next: MissedNode | null;
}

function missedNode(key: unknown, value: unknown, place: Place): MissedNode {
  return { key, value, place, matched: false, rules: [], next: null };
}

/** Entries a rule takes in a node's rules with their orders (see MissedNode): the rule, its earliest order, its position. */
const RULE_ENTRY = 3;

/** Whether the entry at `a` of a node's rules with their orders comes before the one at `b`. */
function missedBefore(entries: readonly number[], a: number, b: number): boolean {
  return entries[a + 1]! < entries[b + 1]! || (entries[a + 1] === entries[b + 1] && entries[a + 2]! < entries[b + 2]!);
}

/** The rules of a node's rules with their orders, by the order of their earliest miss (misses ordered alike: as made). */
function rulesInOrder(entries: readonly number[]): number[] {
  const at: number[] = [];
  for (let e = 0; e < entries.length; e += RULE_ENTRY) at.push(e);
  at.sort((a, b) => (missedBefore(entries, a, b) ? -1 : 1));
  return at.map((e) => entries[e]!);
}

/** The combination key of a node's rules with their orders, made without a list of them for one rule or two. */
function combinationInOrder(entries: readonly number[]): number | string {
  if (entries.length === RULE_ENTRY) return entries[0]!;
  if (entries.length === 2 * RULE_ENTRY) return missedBefore(entries, 0, RULE_ENTRY) ? pairKey(entries[0]!, entries[3]!) : pairKey(entries[3]!, entries[0]!);
  return combinationKey(rulesInOrder(entries));
}

function missedNodeOf(missed: Map<unknown, MissedNode>, container: unknown, key: unknown): MissedNode | null {
  let node = missed.get(container) ?? null;
  while (node !== null && node.key !== key) node = node.next;
  return node;
}

/**
 * A key for the constraints that missed a node: most misses are by one constraint or two (one applying to every
 * property, one to the properties of its context), keyed by numbers without joining a list into a string.
 */
function combinationKey(rules: readonly number[]): number | string {
  if (rules.length === 1) return rules[0]!;
  if (rules.length === 2) return pairKey(rules[0]!, rules[1]!);
  return rules.join(",");
}
function pairKey(first: number, second: number): number {
  return -1 - (first * RULE_KEY_BASE + second);
}
const RULE_KEY_BASE = 65_536;

/**
 * One strict rule reporting a miss by a combination of allowed-values constraints, and the rest of its message: the
 * values of every constraint of the combination, in one string the combination's verdicts share.
 */
interface AllowedVerdict {
  strict: number;
  subject: string;
  where: string;
  allowed: string;
}

/**
 * What a missing reference's finding says: the subject, what is missing, and the text a key pattern cut from the front
 * of the value (`#` of `#(.*)`), so that the value is quoted as the document has it.
 */
export type ReferenceLabel = readonly [subject: string, missing: string, keyPrefix?: string];

/** Verdicts by combination (see finishAllowedValues), per generated module: the same for every check it makes. */
const VERDICTS = new WeakMap<RuleTables, Map<number | string, readonly AllowedVerdict[]>>();

/** Per-rule facts the generated module passes to each run, indexed by rule number. */
export interface RuleTables {
  allowOther: readonly boolean[];
  allowedValues: readonly (readonly string[])[];
  /** Per allowed-values rule, how its findings name the value (`The property name`) and where the values apply (`here`). */
  allowedSubject: readonly string[];
  allowedWhere: readonly string[];
}

/**
 * One check of one document. The generated walk keeps the path as a stack of segments and passes its depth to each
 * call; `nodeAt` names the node of a depth from the walk's cache of path nodes (O(1) amortised, see the generated
 * module). What waits for the end of the walk (references, links, strict allowed-values misses), and nearly always
 * resolves then, keeps a copy of a shallow path instead: its nodes are made only for a finding.
 */
export class SemanticRun {
  readonly findings: Finding[] = [];
  /**
   * The ids (id flags) the document declares, for fragment links. Most fragment links are settled by an index-has-key
   * constraint (see index-has-key.ts): a catalog declares thousands of ids for a handful of links left, which wait
   * for the end of the walk and are looked up in the list. Past a few links the ids go into a set, and the later links
   * are looked up as they come (those to identifiers declared before them, most, resolve).
   */
  private declared: string[] | Set<string> = [];
  /** The uuids (uuid flags) the document declares: for our rule that each is declared once, and for fragment links. */
  readonly uuids = new Set<unknown>();
  readonly indexes: Record<string, Set<string>> = {};
  /** Parameter ids of a catalog, when prose insertions are checked. */
  readonly paramIds: Set<string> | null;
  // allowed-values that share a target node: a value passes when any applicable constraint enumerates it, or when
  // every applicable constraint allows other values (Metaschema union semantics). Nodes are identified by (container,
  // key); matches are listed in the order made, misses kept for the final verdict (with their place only when the
  // constraint is strict: only strict misses are ever reported).
  // container, key: in chunks made at their full size, so that none is copied as it grows (pushing made three times
  // the memory the matches need), and none is larger than 64 KB, since an array past 128 KB leaves V8's young
  // generation. Each is twice the one before: a small document makes small ones.
  private readonly allowedMatches: unknown[][] = [new Array(FIRST_MATCH_CHUNK)];
  private latestMatches: unknown[] = this.allowedMatches[0]!;
  /** Entries filled in the latest chunk; the others are full. */
  private latestFilled = 0;
  private readonly allowedMisses: unknown[] = []; // rule, container, key, value, place (null when allow-other), order
  /**
   * The miss clock as of which a search's misses are ordered (see missesAsOf), or -1: a miss is then ordered as it
   * is made.
   */
  private missesAsOfClock = -1;
  /** Whether some miss was ordered as of an earlier clock: only then may the misses' order differ from the list's. */
  private reordered = false;
  /** Strict misses no match of their node has answered yet: while there are none, `finish` has nothing to decide. */
  private unanswered = 0;
  /** Container, key of the strict misses of searches waiting for a match of their node (see `answer`). */
  private readonly waiting: unknown[] = [];
  /** How many more matches may look among the waiting misses; below 0 once waiting is given up for the run. */
  private patience = 0;
  private lastMatchedContainer: unknown = null; // constraints sharing a loop check the same node in a row
  private lastMatchedKey: unknown = null;
  private readonly references: unknown[] = []; // rule, index, key, place, label
  private readonly links: unknown[] = []; // fragment, place
  /** A link whose href fragment an index-has-key constraint has just looked up among identifiers (see index-has-key.ts). */
  fragmentLookedUp: unknown = null;

  constructor(
    private readonly tables: RuleTables,
    indexNames: readonly string[],
    /** The node of the model's root property, the first segment of every path. */
    private readonly root: PathNode,
    /** The node the first `depth` segments of the walk's current path name. */
    private readonly nodeAt: (depth: number) => PathNode,
    /** The walk's path stack: the current path's segments, the root's first. */
    private readonly path: readonly Segment[],
    checkParameters: boolean,
  ) {
    for (const name of indexNames) this.indexes[name] = new Set();
    this.paramIds = checkParameters ? new Set() : null;
  }

  report(rule: number, depth: number, message: string): void {
    this.file({ rule, at: this.nodeAt(depth), message });
  }

  private reportDeferred(rule: number, at: PathNode, describe: Describe, subject: unknown, detail: unknown): void {
    this.file(new DeferredFinding(rule, at, describe, subject, detail));
  }

  private file(finding: Finding): void {
    this.findings.push(finding);
    // Most nodes hold one finding, and a value several allowed-values rules fail two: an array made with them has room
    // for just those, where pushing onto a full one grows it to seventeen.
    const { at } = finding;
    const held = at.findings;
    if (held === null) at.findings = [finding];
    else if (held.length === 1) at.findings = [held[0]!, finding];
    else held.push(finding);
  }

  /** One allowed-values verdict on a node several constraints reach; decided in `finish`. */
  allowed(rule: number, ok: boolean, container: unknown, key: unknown, value: unknown, depth: number): void {
    // A node some constraint has matched passes whatever the others say: the walk checks a node's values in a row, so
    // the last match answers most verdicts on it without a lookup.
    if (container === this.lastMatchedContainer && key === this.lastMatchedKey) return;
    if (ok) {
      this.lastMatchedContainer = container;
      this.lastMatchedKey = key;
      // Listed, not put in a set: most matches are never asked about, and a set of tens of thousands of nodes cost
      // more than the rest of the verdicts.
      const latest = this.latestMatches;
      let filled = this.latestFilled;
      latest[filled++] = container;
      latest[filled++] = key;
      if (filled === latest.length) {
        this.allowedMatches.push((this.latestMatches = new Array(Math.min(2 * filled, MATCH_CHUNK))));
        filled = 0;
      }
      this.latestFilled = filled;
      if (this.waiting.length !== 0) this.answer(container, key);
      return;
    }
    // A miss allowing other values only adds its rule to the message of a strict miss on the same node, which
    // finish looks up among unmatched nodes anyway: it is kept without asking whether the node has matched.
    if (this.tables.allowOther[rule]) {
      this.allowedMisses.push(rule, container, key, value, null, this.missOrder());
      return;
    }
    // The other constraints reaching a node check it close by (its parent's or grandparent's loops): a match among
    // the latest few answers a strict miss at once; any other is found in `finish`.
    if (this.matchedLately(container, key)) return;
    this.unanswered++;
    if (this.missesAsOfClock >= 0 && this.patience >= 0) this.wait(container, key);
    this.allowedMisses.push(rule, container, key, value, this.placeAt(depth), this.missOrder());
  }

  /** A clock of allowed-values misses: it advances with each one. */
  missClock(): number {
    return this.allowedMisses.length;
  }

  /**
   * Orders the misses made from now on as of an earlier `missClock()` (-1: as they are made). A control's search of
   * its parts leaves its enhancements' parts to theirs; the one of an enhancement (the walk comes to it later) orders
   * its misses as of the outermost search's start, as if that search had made them (see walk.ts, nestedSearches).
   * Returns the clock it replaces, for the caller to put back.
   */
  missesAsOf(clock: number): number {
    const before = this.missesAsOfClock;
    this.missesAsOfClock = clock;
    return before;
  }

  /** The order of a miss made now: before every miss made after the clock it is ordered as of, after every one before. */
  private missOrder(): number {
    if (this.missesAsOfClock < 0) return 2 * this.allowedMisses.length + 1;
    this.reordered = true;
    return 2 * this.missesAsOfClock;
  }

  /**
   * Keeps a strict miss of a search waiting for a match of its node. A control's search of its parts runs before the
   * constraints of its parts' parts (that order is kept for messages): their matches answer its misses. Too many at once,
   * or for too long, are most likely findings: `finish` will look through the matches anyway, so waiting is given up
   * for the rest of the run.
   */
  private wait(container: unknown, key: unknown): void {
    const waiting = this.waiting;
    if (waiting.length === 0) this.patience = WAITING_MATCHES;
    if (waiting.length < 2 * WAITING_MISSES) waiting.push(container, key);
    else this.giveUpWaiting();
  }

  private giveUpWaiting(): void {
    this.waiting.length = 0;
    this.patience = -1;
  }

  /** A match answers the waiting misses of its node: when every strict miss is answered, `finish` has nothing to do. */
  private answer(container: unknown, key: unknown): void {
    if (--this.patience < 0) return this.giveUpWaiting();
    const waiting = this.waiting;
    // From the end, so that the last pair, moved into a removed one's place, has been compared already.
    for (let i = waiting.length - 2; i >= 0; i -= 2) {
      if (waiting[i] !== container || waiting[i + 1] !== key) continue;
      this.unanswered--;
      const last = waiting.length - 2;
      waiting[i] = waiting[last];
      waiting[i + 1] = waiting[last + 1];
      waiting.length = last;
    }
  }

  /** Entries filled in chunk `c` of the matches: all but the latest are full. */
  private filledOf(c: number): number {
    const chunks = this.allowedMatches;
    return c === chunks.length - 1 ? this.latestFilled : chunks[c]!.length;
  }

  /** Whether one of the latest RECENT_MATCHES matches is of this node. */
  private matchedLately(container: unknown, key: unknown): boolean {
    const chunks = this.allowedMatches;
    let left = RECENT_MATCHES;
    for (let c = chunks.length - 1; c >= 0 && left > 0; c--) {
      const chunk = chunks[c]!;
      const filled = this.filledOf(c);
      for (let i = filled - 2; i >= 0 && left > 0; i -= 2, left--) if (chunk[i] === container && chunk[i + 1] === key) return true;
    }
    return false;
  }

  /** An index-has-key reference, resolved in `finish` when every index is complete. */
  reference(rule: number, index: Set<string>, key: string | null, depth: number, label: ReferenceLabel): void {
    if (key !== null && index.has(key)) return;
    this.references.push(rule, index, key, this.placeAt(depth), label);
  }

  /** An id the document declares (its uuids go into `uuids`). */
  declare(id: string): void {
    const declared = this.declared;
    if (Array.isArray(declared)) declared.push(id);
    else declared.add(id);
  }

  /** A fragment link (#id): it must name an id or uuid declared in the document. */
  link(fragment: string, depth: number): void {
    if (Array.isArray(this.declared) && this.links.length >= 2 * LISTED_LOOKUPS) this.declared = new Set(this.declared);
    const declared = this.declared;
    if (Array.isArray(declared) || !(declared.has(fragment) || this.uuids.has(fragment))) this.links.push(fragment, this.placeAt(depth));
  }

  /**
   * Where something decided after the walk is: the segments below the root of a path at most COPIED_DEPTH deep, else
   * (a copy would cost the depth at every level of a deep document) its node.
   */
  private placeAt(depth: number): Place {
    return depth <= COPIED_DEPTH ? this.path.slice(1, depth) : this.nodeAt(depth);
  }

  /** The node of a place: the same node the walk would have named, since a path's node is made once. */
  private nodeOf(place: Place): PathNode {
    if (place instanceof PathNode) return place;
    let node = this.root;
    for (let i = 0; i < place.length; i++) node = node.child(place[i]!);
    return node;
  }

  /** Prose parameter insertions ({{ insert: param, some-id }}) must name a parameter of the catalog. */
  insertions(text: unknown, rule: number, depth: number): void {
    if (typeof text !== "string") return;
    // Each "{{" is tried as the start of a prefix, and the regular expressions only test: no match array per insertion.
    let start = text.indexOf("{{");
    while (start >= 0) {
      INSERT_PREFIX.lastIndex = start;
      if (!INSERT_PREFIX.test(text)) {
        start = text.indexOf("{{", start + 1);
        continue;
      }
      const idStart = INSERT_PREFIX.lastIndex;
      INSERT_ID.lastIndex = idStart;
      if (!INSERT_ID.test(text)) {
        start = text.indexOf("{{", idStart);
        continue;
      }
      const idEnd = INSERT_ID.lastIndex;
      INSERT_CLOSE.lastIndex = idEnd;
      if (INSERT_CLOSE.test(text)) {
        this.reference(rule, this.paramIds!, text.slice(idStart, idEnd), depth, PARAMETER_INSERTION);
        start = text.indexOf("{{", INSERT_CLOSE.lastIndex);
      } else {
        start = text.indexOf("{{", Math.max(start + 1, idEnd - INSERT_SHORTEST_PREFIX + 1));
      }
    }
  }

  /**
   * Decides what waited for the end of the walk; returns the first `limit` findings in document order (`findings`
   * holds them all). `top` is the value the walk started from, the document's model member: the caller reads it, as
   * reading a member whose name changes with the model deoptimized this code at every change of model.
   */
  finish(top: unknown, fragmentRule: number, limit = Number.POSITIVE_INFINITY): Finding[] {
    this.finishAllowedValues();
    this.finishReferences();
    this.finishLinks(fragmentRule);
    return this.findings.length === 0 ? this.findings : this.inDocumentOrder(top, limit);
  }

  private finishAllowedValues(): void {
    if (this.unanswered === 0) return;
    const misses = this.allowedMisses;
    // Nodes with a strict miss, by container (nodes of one container chained in the order first missed).
    const missed = new Map<unknown, MissedNode>();
    for (let i = 0; i < misses.length; i += 6) {
      const place = misses[i + 4] as Place | null;
      if (place === null) continue;
      const container = misses[i + 1];
      const key = misses[i + 2];
      const first = missed.get(container);
      if (first === undefined) {
        missed.set(container, missedNode(key, misses[i + 3], place));
        continue;
      }
      let last = first;
      while (last.key !== key && last.next !== null) last = last.next;
      if (last.key !== key) last.next = missedNode(key, misses[i + 3], place);
    }
    // A match anywhere passes its node; looking up an object that was never put in a map costs next to nothing.
    const chunks = this.allowedMatches;
    for (let c = 0; c < chunks.length; c++) {
      const matches = chunks[c]!;
      const filled = this.filledOf(c);
      for (let i = 0; i < filled; i += 2) {
        const node = missedNodeOf(missed, matches[i], matches[i + 1]);
        if (node !== null) node.matched = true;
      }
    }
    // Every constraint that missed an unmatched node, in the order they ran (with the order of each one's earliest miss
    // when a search ordered some as of an earlier clock).
    const reordered = this.reordered;
    for (let i = 0; i < misses.length; i += 6) {
      const node = missedNodeOf(missed, misses[i + 1], misses[i + 2]);
      if (node === null || node.matched) continue;
      const rule = misses[i] as number;
      const { rules } = node;
      if (!reordered) {
        if (rules.indexOf(rule) < 0) rules.push(rule);
        continue;
      }
      const order = misses[i + 5] as number;
      let known = 0;
      while (known < rules.length && rules[known] !== rule) known += RULE_ENTRY;
      if (known === rules.length) rules.push(rule, order, i);
      else if (order < rules[known + 1]!) {
        rules[known + 1] = order;
        rules[known + 2] = i;
      }
    }
    // Misses by the same constraints share the rules reported and the end of their messages.
    let verdicts = VERDICTS.get(this.tables);
    if (verdicts === undefined) VERDICTS.set(this.tables, (verdicts = new Map()));
    for (const first of missed.values()) {
      for (let node: MissedNode | null = first; node !== null; node = node.next) {
        if (node.matched) continue;
        const combination = reordered ? combinationInOrder(node.rules) : combinationKey(node.rules);
        let nodeVerdicts = verdicts.get(combination);
        if (nodeVerdicts === undefined) verdicts.set(combination, (nodeVerdicts = this.allowedVerdicts(reordered ? rulesInOrder(node.rules) : node.rules)));
        const at = this.nodeOf(node.place);
        for (const verdict of nodeVerdicts) this.reportDeferred(verdict.strict, at, allowedValuesMessage, node.value, verdict);
      }
    }
  }

  /**
   * A verdict for each strict rule of `rules`, in their order: every constraint that missed a node fails it, so a
   * report filtered on any one of them shows the node. Allow-other rules only add their values to the messages.
   */
  private allowedVerdicts(rules: readonly number[]): AllowedVerdict[] {
    const { allowOther, allowedValues, allowedSubject, allowedWhere } = this.tables;
    const values = new Set<string>();
    for (const r of rules) for (const value of allowedValues[r]!) values.add(value);
    const allowed = allowedList(values);
    return rules.filter((r) => !allowOther[r]).map((strict) => ({ strict, subject: allowedSubject[strict]!, where: allowedWhere[strict]!, allowed }));
  }

  private finishReferences(): void {
    const refs = this.references;
    for (let i = 0; i < refs.length; i += 5) {
      const index = refs[i + 1] as Set<string>;
      const key = refs[i + 2] as string | null;
      if (key !== null && index.has(key)) continue;
      const rule = refs[i] as number;
      this.reportDeferred(rule, this.nodeOf(refs[i + 3] as Place), referenceMessage, key, refs[i + 4]);
    }
  }

  private finishLinks(rule: number): void {
    // A link already reported by a NIST index-has-key (at the link, the href's parent) is not reported twice. Links
    // are reported at href nodes, never a link's node: what this loop reports does not change that answer for others.
    const links = this.links;
    const declared = this.declared;
    const uuids = this.uuids;
    const isDeclared = (id: string) => (Array.isArray(declared) ? declared.includes(id) : declared.has(id)) || uuids.has(id);
    for (let i = 0; i < links.length; i += 2) {
      const raw = links[i] as string;
      if (isDeclared(raw)) continue;
      // Without a percent sign, decoding gives the same fragment back.
      if (raw.indexOf("%") >= 0) {
        let fragment = raw;
        try {
          fragment = decodeURIComponent(fragment);
        } catch {
          // keep the raw fragment
        }
        if (isDeclared(fragment)) continue;
      }
      const at = this.nodeOf(links[i + 1] as Place);
      if (at.up!.findings === null) this.reportDeferred(rule, at, linkMessage, raw, undefined);
    }
  }

  /**
   * Findings in document order: a depth-first pass over the path trie, children by array index or by the order of
   * the object's keys, findings at a node (in the order they were made) before those below it. Visits only the nodes
   * on finding paths, iteratively (so deep documents do not exhaust the stack), and stops at `limit` findings.
   */
  private inDocumentOrder(top: unknown, limit: number): Finding[] {
    for (const finding of this.findings) {
      for (let node: PathNode | null = finding.at; node !== null && !node.holdsFindings; node = node.up) node.holdsFindings = true;
    }
    const out: Finding[] = [];
    const pending: { node: PathNode; value: unknown }[] = [{ node: this.root, value: top }];
    while (pending.length > 0 && out.length < limit) {
      const { node, value } = pending.pop()!;
      if (node.findings !== null) for (const finding of node.findings) if (out.length < limit) out.push(finding);
      const children = node.childrenHoldingFindings();
      if (children.length > 1) inPositionOrder(children, value);
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i]!;
        pending.push({ node: child, value: value !== null && typeof value === "object" ? (value as Record<string, unknown>)[child.segment] : undefined });
      }
    }
    return out;
  }
}

/** Sorts path nodes by their position in `value`; the walk mostly made them in that order already. */
function inPositionOrder(children: PathNode[], value: unknown): void {
  const position = positionsIn(value);
  for (let i = 1; i < children.length; i++) {
    if (position(children[i - 1]!.segment) > position(children[i]!.segment)) {
      children.sort((a, b) => position(a.segment) - position(b.segment));
      return;
    }
  }
}

/** The position of a segment in a JSON value: array index or key order; -1 when it names nothing there. */
function positionsIn(value: unknown): (segment: Segment) => number {
  if (Array.isArray(value)) return (segment) => Number(segment);
  if (!isObj(value)) return () => -1;
  const order = new Map(Object.keys(value).map((k, j) => [k, j]));
  return (segment) => order.get(String(segment)) ?? -1;
}

// Prose parameter insertions: {{ insert: param, some-id }}. One regular expression for the whole took quadratic time
// on prose such as "{{insert:param,{{insert:param,..." (each start rescans the id to its end), so the id and the
// closing braces are matched after the prefix; when they do not close, every later prefix that lies wholly inside the
// same id would fail the same way and is skipped. Linear in the length of the text.
const PARAMETER_INSERTION: ReferenceLabel = ["The parameter insertion", "names no parameter of this catalog"];
const INSERT_PREFIX = /\{\{\s*insert:\s*param,\s*/y;
const INSERT_ID = /[^\s}]+/y;
const INSERT_CLOSE = /\s*\}\}/y;
const INSERT_SHORTEST_PREFIX = "{{insert:param,".length;
