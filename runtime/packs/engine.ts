// The rule-pack engine: runs a pack's generated code (compiler/packs/emit: one walk that finds every context node,
// and a function per constraint that checks it there, over ./primitives.ts) on a parsed OSCAL JSON document, keeping
// the state of the run: what passes and fails per rule, the findings, the indexes, the documents loaded. Findings point
// at the JSON nodes with RFC 6901 pointers into the submitted document, and name the other document a node of one is
// in. Other documents come only from the caller (`documents`): nothing here reads files or touches the network.
import type { PackRule } from "#generated/packs/index.js";
import { excerpt } from "../core/issue-bounds.js";
import { EX } from "../constraints/values.js";
import { canonicalDefinitions, canonicalSearches, viewOf, XNode, type DocumentView, type Item, type ViewDefinitions } from "./node-view.js";
import { NotEvaluated, sequenceOf, type Evaluator } from "./primitives.js";
import type * as runtime from "../constraints/runtime.js";

export type { PackRule } from "#generated/packs/index.js";

export interface PackConstraint {
  rule: number; // index into rules; -1 for an index (they have no id and feed index-has-key)
  /** The index an index constraint builds, or the one an index-has-key constraint consults. */
  index: string | undefined;
  /** The searches of the document's descendants it may make (indexes into the program's searches). */
  searches: number[] | undefined;
  /** Checks the constraint at a context node, recording each target's outcome in the run; absent for an index. */
  check: ((run: Run, node: XNode, scope: Scope) => void) | undefined;
  /** An index's: adds its targets at a context node to the index by key. */
  addKeys: ((index: Map<string, XNode>, node: XNode, scope: Scope) => void) | undefined;
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

/** A pack's generated module (generated/packs/<name>.cjs). */
export interface PackModule {
  /** The run time it requires by name (../constraints/runtime.ts): the pack runs with its engine, of its code's classes. */
  runtime: typeof runtime;
  /** Makes its program over the runtime's primitives. */
  program(): PackProgram;
}

const programs = new WeakMap<PackModule, PackProgram>();
/** The program of a pack's module, made once. */
export function packProgram(module: PackModule): PackProgram {
  let program = programs.get(module);
  if (program === undefined) programs.set(module, (program = module.program()));
  return program;
}

/**
 * Documents a constraint may load (`doc()`): href → parsed JSON, or a function answering undefined for "not available"
 * or NOT_SUPPLIED for an href it does not speak for.
 */
export type DocumentSource = Readonly<Record<string, unknown>> | ((href: string) => unknown);

/**
 * A document source's answer for an href beyond what it was given to answer (the command line's package of files for
 * a URL or a path outside it): constraints needing the document are not evaluated, as when no documents are supplied,
 * rather than told it does not exist. A registered symbol, the same for every copy of this module.
 */
export const NOT_SUPPLIED: unique symbol = Symbol.for("oscal-validator.document-not-supplied");

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
  /**
   * The runs of one validation's packs, which see the same documents and clock, pass the same map, made empty for that
   * validation: they keep in it the views of the documents they read, so each document is viewed once. A view keeps
   * the memos of every run on its nodes, and a memoised expression may read current-dateTime() or another document:
   * the map must not outlive its validation (nor be held where its views would outlive it: a module's WeakMap keeps
   * them through every young-generation collection).
   */
  sharedViews?: Map<unknown, unknown>;
}

export interface PackFinding {
  rule: number;
  keyword: string;
  /** Not evaluated: inputs that cannot be resolved from the document and the documents supplied. */
  notEvaluated?: true;
  /** Where it is and the message, worked out when asked for: a report lists few of what may be many findings. */
  describe(): FindingPlace;
}

/** A finding's pointer into the submitted document and its message; for a node of another document, where it really is. */
export interface FindingPlace {
  path: string;
  message: string;
  /** The href, as the constraint passed it to doc(), of the document the finding's node is in (absent: the submitted one). */
  document?: string;
  /** The node's pointer in that document: in the catalog it resolves to when the constraint read it through resolve-profile(). */
  documentPath?: string;
}

/**
 * Where a finding at `node` is reported: a node of the submitted document at its own pointer. A node of another document
 * (one doc() loaded) has no pointer in the submitted document, where `path` must resolve (and where the line and column
 * are counted): the finding is placed at `context`, the context node whose constraint reached into that document (for
 * FedRAMP's baseline rules, the SSP itself), and says where it really is. The node that wrote the href (an
 * import-profile, a back-matter rlink) would be closer, but doc() receives the href as a string, its node already gone,
 * and the context node is the one every such constraint has. A context node outside the submitted document (a context
 * whose targets lead there) leaves only its root.
 */
function placeFinding(run: Run, node: XNode, context: XNode, message: string): FindingPlace {
  const { href } = node.view;
  if (href === undefined) return { path: node.pointer(), message };
  const documentPath = node.pointer();
  const path = context.view.href === undefined ? context.pointer() : "";
  // Quoted as a message template quotes a value, so that a message naming the document already (the pack's own words)
  // is recognised and left as it is; the fields still say where.
  const shown = excerpt(href);
  const document = run.readResolved.has(href) ? `the catalog the imported document "${shown}" resolves to` : `the imported document "${shown}"`;
  const said = message.includes(shown) ? message : `${message} (In ${document}, at ${documentPath || "/"}.)`;
  return { path, message: said, document: href, documentPath };
}

/**
 * The message of a failing flag or field value, quoting the value (as a template quotes one) where the pack's own words
 * do not: it is what the reader has to change, and FedRAMP's messages mostly say only what is required.
 */
function quotingValue(message: string, target: XNode): string {
  const { value } = target;
  if (typeof value !== "string" && typeof value !== "number") return message;
  const quoted = EX(value);
  return message.includes(quoted) ? message : `${message} (The value is ${quoted}.)`;
}

/** Per rule: targets that passed, failed, and how many evaluations could not be made. */
export interface RuleResults {
  pass: number;
  fail: number;
  notEvaluated: number;
}

type Let = PackContext["lets"][number];
const NO_LETS: readonly Let[] = [];

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

  /** The scope of a quantifier's variable, bound to one item of its sequence. */
  bind(name: string, item: Item): Scope {
    return new Binding(this, name, sequenceOf(item));
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

/** A quantifier's variable, its value known from the start: a scope per item bound, so it holds no lets. */
class Binding extends Scope {
  constructor(
    parent: Scope,
    private readonly name: string,
    private readonly value: Item[],
  ) {
    super(parent.run, parent);
  }

  override lookup(name: string): Item[] {
    return name === this.name ? this.value : super.lookup(name);
  }
}

/** The nodes of a context, with the scopes of its lets (the root scope when it has none): no object per node. */
interface Sites {
  context: PackContext;
  nodes: readonly XNode[];
  /** Per node, for a context with lets. */
  scopes: Scope[] | undefined;
}

/** The state of one run of a pack on a document: what each constraint's check function records, and what it consults. */
export class Run {
  /** The context nodes of every context with work to do, in context order. */
  sites: Sites[] = [];
  readonly rootScope: Scope = new Scope(this, null);
  readonly results: RuleResults[];
  readonly findings: PackFinding[] = [];
  /** Indexes by name, built on first use (most runs consult few or none): keys to nodes, or why one is unusable. */
  private readonly indexes = new Map<string, Map<string, XNode> | NotEvaluated>();
  /** What each rule has reported: nodes, and for a failing atomic value its context node's pointer and message. */
  private readonly reported = new Map<number, Set<unknown>>();
  private readonly reportedNotEvaluated = new Set<number>();
  /** is-unique keys seen at the current context node, per rule (one map for the run: most sites have none). */
  private readonly seen = new Map<number, Set<string>>();
  /**
   * The hrefs of the documents a constraint read through resolve-profile(): each is then the catalog an imported
   * profile resolves to. Kept per run, as other runs may share the view and read the document with doc() alone.
   */
  readonly readResolved = new Set<string>();

  constructor(
    readonly program: PackProgram,
    readonly options: PackRunOptions,
    private readonly views: DocumentViews = documentViews(program, options.sharedViews),
  ) {
    this.results = program.rules.map(() => ({ pass: 0, fail: 0, notEvaluated: 0 }));
  }

  pass(rule: number): void {
    this.results[rule]!.pass++;
  }

  /**
   * A target failed. A target reached from nested context nodes (`.//part` of nested controls) fails once per context:
   * counted each time, reported once. `message` renders the finding's message (absent: the rule's description).
   */
  fail(rule: number, keyword: string, target: Item, node: XNode, scope: Scope, message: ((target: Item, scope: Scope) => string) | undefined): void {
    this.results[rule]!.fail++;
    const text = () => (message === undefined ? this.program.rules[rule]!.description : message(target, scope));
    if (target instanceof XNode) {
      if (this.firstReport(rule, target)) this.findings.push({ rule, keyword, describe: () => placeFinding(this, target, node, quotingValue(text(), target)) });
    } else {
      const place = placeFinding(this, node, node, text());
      if (this.firstReport(rule, `${place.path}\u0000${place.message}`)) this.findings.push({ rule, keyword, describe: () => place });
    }
  }

  /** A target (or the context node) could not be evaluated: counted, and reported once per rule. Other errors go on. */
  notEvaluated(rule: number, target: Item, node: XNode, error: unknown): void {
    if (!(error instanceof NotEvaluated)) throw error;
    this.results[rule]!.notEvaluated++;
    if (this.reportedNotEvaluated.has(rule)) return;
    this.reportedNotEvaluated.add(rule);
    const at = target instanceof XNode ? target : node;
    this.findings.push({ rule, keyword: "not-evaluated", notEvaluated: true, describe: () => placeFinding(this, at, node, `Not evaluated: ${error.message}.`) });
  }

  private firstReport(rule: number, key: unknown): boolean {
    let keys = this.reported.get(rule);
    if (keys === undefined) this.reported.set(rule, (keys = new Set()));
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  }

  /** is-unique: whether no target of the rule at the current context node had the key before (no key: unique). */
  firstKey(rule: number, key: string | null): boolean {
    if (key === null) return true;
    let keys = this.seen.get(rule);
    if (keys === undefined) this.seen.set(rule, (keys = new Set()));
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  }

  /** The constraints of the next context node are checked from here on. */
  enterNode(): void {
    if (this.seen.size > 0) this.seen.clear();
  }

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
        const { addKeys, index: indexName } = constraints[k]!;
        if (addKeys === undefined || indexName !== name) continue;
        for (let n = 0; n < nodes.length; n++) {
          try {
            addKeys(index, nodes[n]!, scopes?.[n] ?? this.rootScope);
          } catch (error) {
            if (!(error instanceof NotEvaluated)) throw error;
            failure = error.message;
          }
        }
      }
    }
    // The failure alone ("it needs the document ..."): the index's name is Metapath, which a reader of the finding may not know.
    return failure === undefined ? index : new NotEvaluated(failure);
  }

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
    const loaded = this.views.loaded;
    let view = loaded.get(href);
    if (view === undefined) {
      const document = documentFor(documents, href);
      if (document === NOT_SUPPLIED) throw new NotEvaluated(`it needs the document "${excerpt(href)}", which was not supplied`);
      view = document === undefined ? null : (viewOf(this.views.data, document, href) ?? null);
      loaded.set(href, view);
    }
    return view;
  }
}

/** The views of a validation's documents, made on first use: the submitted document's, and those doc() loads by href. */
class DocumentViews {
  private readonly submitted = new Map<unknown, DocumentView | undefined>();
  /** By href: null when the documents answer that there is no such document. */
  readonly loaded = new Map<string, DocumentView | null>();

  constructor(readonly data: ViewDefinitions) {}

  of(document: unknown): DocumentView | undefined {
    if (!this.submitted.has(document)) this.submitted.set(document, viewOf(this.data, document));
    return this.submitted.get(document);
  }
}

/** The views a run makes its own or, given the map its validation's runs share, those kept there. */
function documentViews(program: PackProgram, shared: Map<unknown, unknown> | undefined): DocumentViews {
  const data = canonicalDefinitions(program);
  if (shared === undefined) return new DocumentViews(data);
  let views = shared.get(data) as DocumentViews | undefined;
  if (views === undefined) shared.set(data, (views = new DocumentViews(data)));
  return views;
}

/** An array of objects' kind, copied empty by `slice`, which keeps the kind. */
const NODE_ARRAY: XNode[] = [null as unknown as XNode];

export function runPack(program: PackProgram, document: unknown, options: PackRunOptions): { findings: PackFinding[]; results: RuleResults[] } {
  const views = documentViews(program, options.sharedViews);
  const view = views.of(document);
  if (view === undefined) return { findings: [], results: program.rules.map(() => ({ pass: 0, fail: 0, notEvaluated: 0 })) };
  const run = new Run(program, options, views);

  // Every context node with its scope, once, for contexts with work to do: one walk finds the nodes of them all.
  const isActive = program.rules.map((_, rule) => options.active(rule));
  const usedIndexes = new Set(program.contexts.flatMap((context) => context.constraints.filter((c) => c.check !== undefined && c.index !== undefined && isActive[c.rule]).map((c) => c.index!)));
  const runs = (c: PackConstraint) => (c.addKeys !== undefined ? usedIndexes.has(c.index!) : isActive[c.rule]!);
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
  canonicalSearches(program.searches).forEach((names, j) => {
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

  // Indexed loops: this function runs once per document, mostly unoptimised, where for-of allocates an iterator result
  // per item.
  for (let s = 0; s < sites.length; s++) {
    const { context, nodes, scopes } = sites[s]!;
    const constraints = context.constraints;
    for (let n = 0; n < nodes.length; n++) {
      const node = nodes[n]!;
      const scope = scopes?.[n] ?? rootScope;
      run.enterNode();
      for (let k = 0; k < constraints.length; k++) {
        const { rule, check } = constraints[k]!;
        if (check !== undefined && isActive[rule]) check(run, node, scope);
      }
    }
  }
  return { findings: run.findings, results: run.results };
}
