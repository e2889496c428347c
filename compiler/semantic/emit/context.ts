// What every part of the semantic code generator shares: the names it declares in the generated module (constants,
// per-node state, helper functions), the JSON properties the generated code reads, and the types describing a node
// of the document the code is positioned on.
import type { AssemblyDef, FieldDef, FlagDef, ModelInstance, RawConstraint } from "../../metaschema/metaschema.js";
import type { Expr } from "../../metaschema/metapath-ast.js";
import { jsonLiteral, name, regexLiteral, type Name } from "../../codegen/code.js";
import { joinedWithOr } from "./plain-words.js";

/** A constraint that cannot be decided from one document (or never selects anything); carries the reason. */
export class NotApplicable extends Error {}

export type NodeType = { kind: "assembly"; def: AssemblyDef } | { kind: "field"; def: FieldDef } | { kind: "flag"; def: FlagDef; owner: AssemblyDef | FieldDef };

/** A node the generated code is positioned on. */
export interface NodeRef {
  v: string; // JS variable holding the node's JSON value
  type: NodeType;
  container: string; // JS expression: the JSON object/array holding the value
  key: string; // JS expression: its key in the container
  /**
   * What the predicates that selected the node (a flag: its owner, then the flag) require of it, in words
   * (plain-words.ts): absent when none did, null when one of them is not simply said.
   */
  conditions?: readonly string[] | null;
  atomic?: boolean; // v is the node's atomic value, already checked with isAtom
  /** How the node (a flag: its owner) was reached: as `inst` of a `parent` node, kept if the step's `predicates` hold. */
  via?: { parent: AssemblyDef; inst: ModelInstance; predicates: readonly Expr[] };
}

export interface Mode {
  path: boolean; // maintain the JSON Pointer stack while stepping
  /** A descendant search meets nodes of this definition but does not search below them: their own search does. */
  leaves?: AssemblyDef;
}

/** A rule in words: what it checks, and what fixes a finding (where one sentence can say it). */
export interface RuleWords {
  description: string;
  fix?: string;
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

export interface OwnRuleIndices {
  uuidUnique: number;
  fragmentHref: number;
  insertParam: number;
}

/** Loop variables of one child instance, shared by every loop a visit function runs over it. */
export interface LoopNames {
  c: string;
  i: string;
  y: string;
}

/** Code reading a member of a node as a string (`AS(y["name"])`); `node` is the variable holding the node. */
export interface StringRead {
  node: string;
  read: string;
}

/** A condition on a value, with the member reads of it the condition makes (which several conditions may share). */
export interface Filter {
  code: string;
  stringReads: readonly StringRead[];
}

/** A literal of a string or of JSON data, for code still built as strings. */
export function js(value: unknown): string {
  return jsonLiteral(value).toString();
}

/** Pushes a segment on the generated walk's path stack; the cached path nodes from that depth on are no longer current. */
function pushPath(segment: string): string {
  return `P[PL] = ${segment}; if (PL <= MH) MH = PL - 1; PL++; `;
}

/**
 * Whether generated code reads the walk's path: it passes the depth PL to the run (to report, or to record a node for
 * later), or calls a visit or descendant function, which do. Path and value functions (Q, V_) never read it.
 */
function readsPath(code: string): boolean {
  return /\bPL\b|\b(?:W\d+|D\d+_\d+)\(/.test(code);
}

/** `code` run one segment deeper on the path: the segment is pushed only when the code reads the path. */
export function atSegment(segment: string, code: string): string {
  return readsPath(code) ? `${pushPath(segment)}${code} PL--;` : code;
}

/**
 * Code marking the link held by `node` as one whose fragment an index-has-key constraint has just looked up among
 * identifiers: our fragment-link rule skips it when the walk visits it right after (see index-has-key.ts).
 */
export function linkLookedUp(node: string): string {
  return `R.fragmentLookedUp = ${node}; `;
}

/**
 * `code` without the marks of links other than `kept`: where the walk does not visit the marked link right after the
 * mark, the same object met first elsewhere (a parsed value passed in may share one; JSON text cannot) would be skipped.
 */
export function withoutLinkMarks(code: string, kept?: string): string {
  return code.replace(/R\.fragmentLookedUp = ([\w$]+); /g, (mark, node: string) => (node === kept ? mark : ""));
}

/** Whether our fragment-link rule checks the href of nodes of `owner`: a profile import's "#uuid" is checked by the more specific profile-import rule. */
export function checksFragmentLinks(owner: AssemblyDef | FieldDef): boolean {
  return !(owner.name === "import" && owner.contextPath.startsWith("oscal_profile:"));
}

export function nodeName(type: NodeType): string {
  return type.kind === "flag" ? `@${type.def.name}` : type.def.name;
}

export class EmitContext {
  private readonly consts = new Map<string, string>(); // declaration text → name
  readonly functions: string[] = [];
  /** Generated functions evaluating a path on a node, by use, node type and path. */
  readonly pathFunctions = new Map<string, string>();
  private counter = 0;
  readonly indexNames = new Set<string>();
  readonly stateVars = new Set<string>();
  readonly notApplicable = new Map<RawConstraint, string>();
  /** allowed-values target sites (owner definition + flag, or field definition) → constraints reaching them. */
  readonly avSites = new Map<string, Set<RawConstraint>>();
  /** Rules that can never report (allow-other allowed-values alone at every site): no code is emitted for them. */
  readonly inert = new Set<number>();
  /** Per allowed-values rule, how its findings name the value and where it applies ("here", "for a property ..."). */
  readonly allowedPhrases = new Map<number, { subject: string; where: string }>();
  /** Per rule, what it checks and how to fix a finding, in words: the first node the rule met decides. */
  readonly ruleWords = new Map<number, RuleWords>();
  /** Per index, the nouns of the nodes entered in it (for messages naming what a reference should name). */
  readonly indexedNouns = new Map<string, Set<string>>();
  private readonly navigationKeys = new Set<string>();
  readonly navigations: Navigation[] = [];
  /** Who reads the properties `member` records: the document walk, or a constraint. */
  reader = "the document walk";
  private loopNames = new Map<ModelInstance, LoopNames>(); // of the constraint blocks being compiled
  /** The string reads of a member of a node (`AS(y["name"])`) compiled since `compileFilter` began, by node. */
  private stringReads: StringRead[] | undefined;

  constructor(
    /** allowed-values target sites reached by several constraints, one of them strict: they need the union check. */
    readonly multiSites: ReadonlySet<string>,
    /** The constraints whose context is a definition, with their rule numbers. */
    readonly unitsOf: (def: AssemblyDef | FieldDef | FlagDef) => readonly CompileUnit[],
    /** Indexes whose keys are all identifiers declared for fragment links (compiler/semantic/identifier-indexes.ts). */
    readonly identifierIndexes: ReadonlySet<string>,
    /** What each index holds, in words, as a first pass over the constraints learned it (indexedNouns). */
    readonly indexedItems: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
  ) {}

  /** Records what a rule checks and how to fix its findings, unless a node met earlier decided them. */
  describeRule(rule: number, words: RuleWords): void {
    if (!this.ruleWords.has(rule)) this.ruleWords.set(rule, words);
  }

  /** What the index holds, in words ("component", "control, group or part"). */
  indexedInWords(index: string): string {
    const nouns = this.indexedItems.get(index);
    return nouns && nouns.size > 0 ? joinedWithOr([...nouns]) : "matching item";
  }

  fresh(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  /** A condition compiled by `compile`, with the string reads of node members it makes (see Filter). */
  compileFilter(compile: () => string): Filter {
    const outer = this.stringReads;
    const reads: StringRead[] = (this.stringReads = []);
    try {
      return { code: compile(), stringReads: reads };
    } finally {
      this.stringReads = outer === undefined ? undefined : [...outer, ...reads];
    }
  }

  /** Records that the code being compiled reads `read`, a member of the node held in `node`, as a string. */
  noteStringRead(node: string, read: string): void {
    this.stringReads?.push({ node, read });
  }

  constant(declaration: string, prefix = "K"): string {
    const existing = this.consts.get(declaration);
    if (existing) return existing;
    const name = this.fresh(prefix);
    this.consts.set(declaration, name);
    return name;
  }

  stringSet(values: readonly string[]): string {
    return this.constant(`new Set(${js([...values])})`, "S");
  }

  /** The constant holding the full-match expression of a pattern; throws, naming `what`, when it is not valid. */
  regex(pattern: string, what: string): Name {
    return name(this.constant(regexLiteral(`^(?:${pattern})$`, "", what).toString(), "R"));
  }

  /** Property access `[name]` on a node of `owner`, recorded for the JSON-schema cross-check. */
  member(owner: AssemblyDef | FieldDef, property: string): string {
    const key = `${owner.contextPath}|${property}|${this.reader}`;
    if (!this.navigationKeys.has(key)) {
      this.navigationKeys.add(key);
      this.navigations.push({ owner, property, by: this.reader });
    }
    return `[${js(property)}]`;
  }

  indexVar(name: string): string {
    this.indexNames.add(name);
    return `IX[${js(name)}]`;
  }

  /** A module-level variable of per-node state (reset by the constraint that owns it). */
  state(name: string, initial: string): string {
    this.stateVars.add(`var ${name} = ${initial};`);
    return name;
  }

  /** Starts the constraint blocks of a node: loops over the same child instance share their variable names there. */
  startBlocks(): void {
    this.loopNames = new Map();
  }

  loopNamesOf(inst: ModelInstance): LoopNames {
    let names = this.loopNames.get(inst);
    if (!names) this.loopNames.set(inst, (names = { c: this.fresh("c"), i: this.fresh("i"), y: this.fresh("y") }));
    return names;
  }

  code(visitBodies: readonly string[]): { declarations: string; functions: string } {
    const declarations = [...this.consts].map(([decl, name]) => `var ${name} = ${decl};`);
    return { declarations: [...declarations, ...[...this.stateVars].sort()].join("\n"), functions: [...this.functions, ...visitBodies].join("\n\n") };
  }
}
