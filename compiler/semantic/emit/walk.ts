// The document walk: one visit function per definition reachable from a root, running at each node the constraints
// of its definition (and of its flags) behind their rule switches, plus the document-wide rules of our own, then
// visiting the children whose subtrees have work.
import type { AssemblyDef, FieldDef, FlagDef, ModelInstance } from "../../metaschema/metaschema.js";
import { addingOnce, type CompiledConstraint, type DescendantSegment, type LoopSegment } from "./constraint.js";
import { atSegment, checksFragmentLinks, EmitContext, js, NotApplicable, withoutLinkMarks, type CompileUnit, type Filter, type LoopNames, type NodeRef, type OwnRuleIndices } from "./context.js";
import { KINDS } from "../../constraint-kinds/registry.js";
import { emitInstanceLoop } from "./navigation.js";
import { capitalised, flagNoun } from "./plain-words.js";
import { code } from "../../codegen/code.js";

export class Walk {
  readonly ctx: EmitContext;
  private readonly visitNames = new Map<AssemblyDef | FieldDef, string>();
  private readonly visitBodies: string[] = [];
  /** Definitions whose visit function turned out to do nothing (their constraints compile to no code): not called. */
  private readonly idle = new Set<AssemblyDef | FieldDef>();
  /** Markup fields whose visit function only scans for parameter insertions: visited only when a catalog checks them. */
  private readonly insertionsOnly = new Set<AssemblyDef | FieldDef>();
  private readonly workMemo = new Map<AssemblyDef | FieldDef, boolean>();
  private readonly readsPlace = new Map<AssemblyDef | FieldDef, boolean>();
  /** Descendant targets from model roots, run by the main walk behind a switch set when their root is visited. */
  private readonly hooks: { flag: string; segment: DescendantSegment }[] = [];
  private readonly rootBlocks = new Map<AssemblyDef | FieldDef, PlannedBlocks>();
  /**
   * Per definition, its searches that leave nested nodes of the definition to their own (see CodeSegment): a switch on
   * while the walk is below a node whose search ran, and the miss clock (SemanticRun.missClock) when the outermost one
   * began. A nested node's search stands for the part of the enclosing one that was left out, and orders its misses as
   * of that time, so that messages name the constraints missing a node in the order of a search that left out nothing.
   */
  private readonly nestedSearches = new Map<AssemblyDef | FieldDef, NestedSearch[]>();

  constructor(
    private readonly byContext: Map<AssemblyDef | FieldDef | FlagDef, CompileUnit[]>,
    multiSites: ReadonlySet<string>,
    private readonly own: OwnRuleIndices | undefined,
    identifierIndexes: ReadonlySet<string>,
    indexedItems?: ReadonlyMap<string, ReadonlySet<string>>,
  ) {
    this.ctx = new EmitContext(multiSites, (def) => byContext.get(def) ?? [], identifierIndexes, indexedItems);
  }

  /**
   * The visit functions of the model roots. Their own constraints are compiled first: the descendant targets among
   * them are run by the walk below every root, so all of them must be known before any other visit function.
   */
  visitRoots(roots: readonly AssemblyDef[]): string[] {
    for (const root of roots) this.rootBlocks.set(root, this.planBlocks(this.byContext.get(root) ?? [], this.contextRef(root)));
    return roots.map((root) => this.visitFunction(root));
  }

  /** Statements switching every descendant target and nested search off: a check runs them before visiting its root. */
  resetSwitches(): string {
    const covered = [...this.nestedSearches.values()].flatMap((searches) => searches.map((search) => search.covered));
    return [...this.hooks.map(({ flag }) => flag), ...covered].map((flag) => `${flag} = false;`).join(" ");
  }

  private contextRef(def: AssemblyDef | FieldDef): NodeRef {
    return { v: "x", type: def.kind === "assembly" ? { kind: "assembly", def } : { kind: "field", def }, container: "pc", key: "pk" };
  }

  /** The name of the visit function of `def`, emitting it (and those it calls) on first use. */
  visitFunction(def: AssemblyDef | FieldDef): string {
    const existing = this.visitNames.get(def);
    if (existing) return existing;
    const ctx = this.ctx;
    const name = `W${this.visitNames.size}`;
    this.visitNames.set(def, name);
    const own = this.rootBlocks.get(def) ?? this.planBlocks(this.byContext.get(def) ?? [], this.contextRef(def));
    // Where the node sits (container pc, key pk) matters only to allowed-values on the node itself; known before any
    // call to this function is emitted, since the blocks are compiled before the children.
    const readsPlace = /\bp[ck]\b/.test(own.blocks.join("\n"));
    this.readsPlace.set(def, readsPlace);
    // Every caller has checked the node's shape (itemGuard, or check() for the root), so the function does not again.
    const lines: string[] = [`function ${name}(x${readsPlace ? ", pc, pk" : ""}) {`, ...own.blocks];
    for (const flag of def.flags) {
      const units = this.byContext.get(flag.def) ?? [];
      const ownChecks = this.ownFlagChecks(flag.name, flag.def, def);
      if (units.length === 0 && ownChecks === "") continue;
      const flagRef: NodeRef = { v: "f", type: { kind: "flag", def: flag.def, owner: def }, container: "x", key: js(flag.jsonName), atomic: true };
      const checks = [...this.planBlocks(units, flagRef).blocks, ownChecks].filter((code) => code !== "").join("\n");
      // Constraints compiled to nothing (allow-other values alone) leave no block to run.
      if (checks === "") continue;
      if (units.length > 0) ctx.reader = `the constraints on ${def.name}/@${flag.name} (${units.map((u) => u.constraint.id ?? u.constraint.key).join(", ")})`;
      const read = ctx.member(def, flag.jsonName);
      ctx.reader = "the document walk";
      lines.push(`{ const f = x${read}; if (isAtom(f)) { ${atSegment(js(flag.jsonName), `\n${checks}\n`)} } }`);
    }
    const scansInsertions = def.kind === "field" && (def.asType === "markup-line" || def.asType === "markup-multiline") && this.own !== undefined;
    if (scansInsertions) {
      const text = def.valueKey === null ? "x" : `x${ctx.member(def, def.valueKey)}`;
      // Most text holds no insertion: only text with "{{" is scanned, and only then is the path needed.
      const scan = `R.insertions(t, ${this.own.insertParam}, PL);`;
      lines.push(`if (R.paramIds !== null) { const t = ${text}; if (typeof t === "string" && t.indexOf("{{") >= 0) { ${def.valueKey === null ? scan : atSegment(js(def.valueKey), scan)} } }`);
      if (lines.length === 2) this.insertionsOnly.add(def);
    }
    if (def.kind === "assembly") {
      const searches = this.nestedSearches.get(def) ?? [];
      const saved = searches.map(({ rule, covered }) => {
        const local = ctx.fresh("n");
        lines.push(`const ${local} = ${covered}; if (A[${rule}] === 1) ${covered} = true;`);
        return `${covered} = ${local};`;
      });
      if (def.name === "parameter" && this.own) lines.push(`if (R.paramIds !== null) { const id = x${ctx.member(def, "id")}; if (typeof id === "string") R.paramIds.add(id); }`);
      for (const inst of def.children) {
        const matched = this.hooks.flatMap(({ flag, segment }) => {
          const code = segment.matches.get(def)?.get(inst);
          return code === undefined ? [] : [`if (${flag}) { ${code} }`];
        });
        let visit = this.subtreeHasWork(inst.def) ? this.visitFunction(inst.def) : undefined;
        if (visit !== undefined && this.idle.has(inst.def)) visit = undefined;
        if (matched.length === 0 && visit === undefined) continue;
        const place = this.readsPlace.get(inst.def) === true;
        // Text of other models (and of catalogs not checking insertions) is not even stepped on.
        const conditional = matched.length === 0 && this.insertionsOnly.has(inst.def);
        // A shared loop of the constraints over the same values runs in this one, per value before the visit.
        const fused = conditional ? undefined : own.fusable.get(inst);
        if (fused) lines[1 + fused.index] = fused.declarations;
        const loop = emitInstanceLoop(
          ctx,
          "x",
          def,
          inst,
          { path: true },
          (v, c, k) => {
            const targets = matched.length === 0 ? "" : `{ const h = ${v}, hc = ${c}, hk = ${k};\n${matched.join("\n")} }\n`;
            return `${fused ? `${fused.perValue(c)}\n` : ""}${targets}${visit === undefined ? "" : `${visit}(${v}${place ? `, ${c}, ${k}` : ""});`}`;
          },
          fused?.names,
        );
        lines.push(conditional ? `if (R.paramIds !== null) ${loop}` : loop);
      }
      lines.push(...saved);
    }
    // Only the header was written: nothing to run, so it is neither emitted nor called (a root still is, for check()).
    // A function on a cycle calls the next one, so none that an unfinished caller named can end up here.
    if (lines.length === 1 && !(def.kind === "assembly" && def.rootName !== undefined)) {
      this.idle.add(def);
      return name;
    }
    lines.push("}");
    this.visitBodies.push(lines.join("\n"));
    return name;
  }

  code(): { declarations: string; functions: string } {
    return this.ctx.code(this.visitBodies);
  }

  /** The compiled constraint, or undefined (recorded with its reason) when it is not applicable. */
  private compileApplicable(unit: CompileUnit, ref: NodeRef): CompiledConstraint | undefined {
    const ctx = this.ctx;
    if (ctx.notApplicable.has(unit.constraint)) return undefined;
    ctx.reader = `constraint ${unit.constraint.id ?? unit.constraint.key} (${unit.constraint.key})`;
    try {
      return KINDS[unit.constraint.kind].overJson(unit, ref, ctx);
    } catch (error) {
      if (!(error instanceof NotApplicable)) throw new Error(`${unit.constraint.key}: ${error instanceof Error ? error.message : String(error)}`);
      ctx.notApplicable.set(unit.constraint, error.message);
      return undefined;
    } finally {
      ctx.reader = "the document walk";
    }
  }

  /**
   * The constraints of one context, in order, each behind its rule switch. Loops over the same child instance share
   * one pass: per value the bodies still run in constraint order, so every node sees the same sequence of checks (and
   * findings keep their order). A loop joins an earlier one over its instance across the blocks between them when none
   * of those records anything below that instance or writes a set the loop writes: running earlier then changes the
   * order of checks only between different nodes, which findings do not keep (they are put in document order, and in
   * the order they were made only at one node). A loop holds one writer of each is-unique set or index, since which
   * duplicate is reported depends on the order values are added.
   *
   * A shared loop may instead run inside the walk's loop over the same instance, per value before the visit (see
   * fusable): no block after it records anything below that instance, so every node there still sees its checks in
   * the same order, and it writes no shared set, whose order would change.
   */
  private planBlocks(units: readonly CompileUnit[], ref: NodeRef): PlannedBlocks {
    const entries: PlannedEntry[] = [];
    this.ctx.startBlocks();
    for (const unit of units) {
      const compiled = this.compileApplicable(unit, ref);
      if (!compiled) continue;
      let reset = compiled.reset === "" ? "" : `if (A[${unit.rule}] === 1) ${compiled.reset}`;
      for (const segment of compiled.segments) {
        if (segment.kind === "descendant") {
          const flag = this.ctx.state(`H${this.hooks.length}`, "false");
          this.hooks.push({ flag, segment });
          entries.push({ code: `${compiled.reset === "" ? "" : `if (A[${unit.rule}] === 1) ${compiled.reset}\n`}${flag} = A[${unit.rule}] === 1;`, touches: new Set(), writes: compiled.writes });
        } else if (segment.kind === "code") {
          // A mark of the context node itself is followed by its flags' checks; any other is not by its node's visit.
          let body = withoutLinkMarks(segment.code, ref.v);
          if (segment.leavesNested === true) {
            const { covered, since } = this.nestedSearch(ref, unit.rule);
            body = `{ const m = R.missesAsOf(${covered} ? ${since} : (${since} = R.missClock()));\n${body}\nR.missesAsOf(m); }`;
          }
          const code = `if (A[${unit.rule}] === 1) {\n${compiled.reset === "" ? "" : `${compiled.reset}\n`}${body}\n}`;
          entries.push({ code, touches: segment.enters === undefined ? "all" : new Set(segment.enters), writes: compiled.writes });
        } else {
          let loop = joinableLoop(entries, segment.inst, compiled.writes);
          if (!loop) {
            loop = { resets: [], members: [], writes: new Set(), names: this.ctx.loopNamesOf(segment.inst) };
            entries.push({ loop });
          }
          if (reset !== "") loop.resets.push(reset);
          if (compiled.writes !== undefined) loop.writes.add(compiled.writes);
          loop.members.push({ rule: unit.rule, segment });
        }
        reset = "";
      }
    }
    // From the last block back: what the blocks after each one record below the context's child instances.
    const fusable = new Map<ModelInstance, FusedLoop>();
    const blocks: string[] = new Array(entries.length);
    let later: Touches = new Set();
    for (let e = entries.length - 1; e >= 0; e--) {
      const entry = entries[e]!;
      if ("code" in entry) {
        blocks[e] = entry.code;
        later = union(later, entry.touches);
        continue;
      }
      const shared = this.sharedLoop(entry.loop);
      blocks[e] = shared.standalone;
      const inst = entry.loop.members[0]!.segment.inst;
      if (later !== "all" && !later.has(inst) && entry.loop.writes.size === 0 && !fusable.has(inst)) fusable.set(inst, { ...shared.fused, index: e });
      later = union(later, new Set([inst]));
    }
    return { blocks, fusable };
  }

  /** The state of the search of `rule` on nodes of the context's definition (see nestedSearches). */
  private nestedSearch(ref: NodeRef, rule: number): NestedSearch {
    const def = ref.type.def as AssemblyDef;
    const search = { rule, covered: this.ctx.state(`N${rule}`, "false"), since: this.ctx.state(`T${rule}`, "0") };
    this.nestedSearches.set(def, [...(this.nestedSearches.get(def) ?? []), search]);
    return search;
  }

  /** A shared loop standing alone, and the parts of it that run inside the walk's loop when fused. */
  private sharedLoop({ resets, members, names }: SharedLoop): { standalone: string; fused: Omit<FusedLoop, "index"> } {
    const ctx = this.ctx;
    const { owner, inst } = members[0]!.segment;
    const switches = members.map(() => ctx.fresh("g"));
    const declarations = members.map(({ rule, segment }, m) => `const ${switches[m]} = A[${rule}] === 1${segment.guard === undefined ? "" : ` && ${segment.guard}`};`);
    // A filter several members share is evaluated once per value (when one of their switches is on).
    const sharers = new Map<string, number[]>();
    members.forEach(({ segment }, m) => {
      for (const filter of new Set(segment.filters.map((f) => f.code))) sharers.set(filter, [...(sharers.get(filter) ?? []), m]);
    });
    const reads = sharedReads(members.map(({ segment }) => segment.filters), names.y);
    // `guarded`: the loop runs only when some switch is on, so a lone member's need not be tested again.
    const perValue = (container: string, guarded: boolean) => {
      const tests = new Map<string, string>();
      const lines: string[] = [];
      const locals = reads.map((read) => {
        const local = ctx.fresh("a");
        lines.push(`const ${local} = ${read};`);
        return { read, local };
      });
      const reading = (filter: string) => locals.reduce((text, { read, local }) => text.split(read).join(local), filter);
      for (const [filter, sharing] of sharers) {
        if (sharing.length < 2) continue;
        const test = ctx.fresh("t");
        tests.set(filter, test);
        lines.push(`const ${test} = ${sharing.length === members.length && guarded ? "" : `(${sharing.map((m) => switches[m]).join(" || ")}) && `}${reading(filter)};`);
      }
      members.forEach(({ segment }, m) => {
        const conditions = members.length === 1 && guarded ? [] : [switches[m]!];
        for (const { code: filter } of segment.filters) conditions.push(tests.get(filter) ?? `(${reading(filter)})`);
        const body = container === names.c ? segment.inArray : segment.single;
        lines.push(conditions.length === 0 ? `{ ${body} }` : `if (${conditions.join(" && ")}) { ${body} }`);
      });
      return guarded ? lines.join("\n") : `if (${switches.join(" || ")}) {\n${lines.join("\n")}\n}`;
    };
    // Rendered once for the standalone loop (the fused one renders its own), as rendering makes fresh names.
    const header = [...resets, ...declarations].join(" ");
    const loop = emitInstanceLoop(ctx, "x", owner, inst, { path: true }, (_v, container) => perValue(container, true), names);
    return {
      // Run before the walk's own loop over the values, the marks of links there would not be followed by their visit.
      standalone: `{ ${header}\nif (${switches.join(" || ")}) ${withoutLinkMarks(loop)} }`,
      fused: { declarations: header, names, perValue: (container) => perValue(container, false) },
    };
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
    if (def.kind === "assembly" && this.hooks.some(({ segment }) => segment.matches.has(def))) return true;
    const hasUnits = (d: AssemblyDef | FieldDef | FlagDef) => (this.byContext.get(d) ?? []).length > 0;
    if (hasUnits(def) || def.flags.some((flag) => hasUnits(flag.def) || this.ownFlagChecks(flag.name, flag.def, def) !== "")) return true;
    if (!this.own) return false;
    return def.kind === "field" ? def.asType === "markup-line" || def.asType === "markup-multiline" : def.name === "parameter";
  }

  /** Document-wide rules of ours that look at every flag of a given name. */
  private ownFlagChecks(flagName: string, def: FlagDef, owner: AssemblyDef | FieldDef): string {
    if (!this.own) return "";
    if (flagName === "uuid" && def.asType === "uuid") {
      // The set that finds a uuid declared twice is also where fragment links look uuids up: one set, not two.
      const message = code`${`${capitalised(`the ${flagNoun(def, owner)}`)} `} + EX(f) + ${" is a UUID already declared elsewhere in this document; every UUID must be unique."}`;
      const twice = `if (A[${this.own.uuidUnique}] === 1) R.report(${this.own.uuidUnique}, PL, ${message});`;
      return `{ ${addingOnce("R.uuids", "f", twice)} }`;
    }
    if (flagName === "id") return "R.declare(String(f));";
    if (flagName === "href" && checksFragmentLinks(owner)) {
      // Looked up at the end of the walk, when every identifier is declared. A link whose fragment an index-has-key
      // constraint has just looked up among identifiers is settled by that lookup (see index-has-key.ts); the mark is
      // taken off here, so that the same object met elsewhere in a parsed value passed in (JSON text cannot share
      // one) is checked there.
      return `if (A[${this.own.fragmentHref}] === 1 && typeof f === "string" && f.charCodeAt(0) === 35) { if (x === R.fragmentLookedUp) R.fragmentLookedUp = null; else R.link(f.slice(1), PL); }`;
    }
    return "";
  }
}

/**
 * The members of the value several distinct filters read as strings (`AS(y["name"])`, as in `@name='status'`), as
 * their compilation recorded them: each is read once per value, before the filters. Reading is pure, so reading it
 * where no filter would is harmless.
 */
function sharedReads(filters: readonly (readonly Filter[])[], value: string): string[] {
  const distinct = new Map(filters.flat().map((filter) => [filter.code, filter]));
  const readers = new Map<string, number>();
  for (const { stringReads } of distinct.values()) {
    for (const read of new Set(stringReads.filter((r) => r.node === value).map((r) => r.read))) readers.set(read, (readers.get(read) ?? 0) + 1);
  }
  return [...readers].filter(([, count]) => count > 1).map(([read]) => read);
}

/** A search leaving nested nodes to their own: its switch (on below a node whose search ran) and its start's clock. */
interface NestedSearch {
  rule: number;
  covered: string;
  since: string;
}

/** What blocks record below the context's child instances: those instances, or any ("all"). */
type Touches = ReadonlySet<ModelInstance> | "all";

/** A block of a context: code on its own (with what it records below the children and the set it writes), or a loop. */
type PlannedEntry = { code: string; touches: Touches; writes: string | undefined } | { loop: SharedLoop };

/**
 * The latest loop over `inst` that a loop writing `writes` may join: no block after it records anything below `inst`
 * or writes that set, and the loop does not write it already. Undefined when there is none.
 */
function joinableLoop(entries: readonly PlannedEntry[], inst: ModelInstance, writes: string | undefined): SharedLoop | undefined {
  for (let e = entries.length - 1; e >= 0; e--) {
    const entry = entries[e]!;
    if (writes !== undefined && ("loop" in entry ? entry.loop.writes.has(writes) : entry.writes === writes)) return undefined;
    if ("loop" in entry) {
      if (entry.loop.members[0]!.segment.inst === inst) return entry.loop;
    } else if (entry.touches === "all" || entry.touches.has(inst)) return undefined;
  }
  return undefined;
}

const union = (a: Touches, b: Touches): Touches => (a === "all" || b === "all" ? "all" : new Set([...a, ...b]));

interface SharedLoop {
  resets: string[];
  members: { rule: number; segment: LoopSegment }[];
  writes: Set<string>;
  /** The loop variables the members' bodies were rendered with. */
  names: LoopNames;
}

/** A shared loop to run inside the walk's loop over its instance: its declarations stay at its place among the blocks. */
interface FusedLoop {
  index: number;
  declarations: string;
  names: LoopNames;
  perValue: (container: string) => string;
}

interface PlannedBlocks {
  blocks: string[];
  fusable: ReadonlyMap<ModelInstance, FusedLoop>;
}
