// Build-time entry of rule packs: an organisation's Metaschema external constraint files → generated/packs/<name>.cjs,
// a program for the pack engine (runtime/packs/engine.ts): the constraints' Metapath compiled to JavaScript
// (./emit), the rule table and the node view's definitions (JSON property ↔ XML-model name, flag / field /
// assembly). A pack is declared by
// compiler/packs/<name>/: pack.json (name, title, rule-id area, source folder and its environment variable, files),
// SHA256SUMS (the files' pinned sums), rule-ids.tsv (append-only ids, one rule per constraint id) and, optionally,
// fixes.tsv (constraint id, how to fix a finding: the rule catalog's fix). A pack whose
// pack.json says `"defaultOn": true` runs at level full without being named, as NIST's rules do.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../paths.js";
import { verifyListedFiles, parseSums } from "../schema-source.js";
import { parseMetapath, type Expr } from "../metaschema/metapath.js";
import { syntaxNodes } from "../metaschema/syntax-tree.js";
import { datatypePattern } from "../metaschema/datatypes.js";
import { proposeRuleIds, readRuleIdTable } from "../metaschema/rule-ids.js";
import type { AssemblyDef, FieldDef } from "../metaschema/metaschema.js";
import type { Constraint, ConstraintKind } from "../metaschema/constraint.js";
import { readConstraintFile, type FileConstraint } from "./constraint-file.js";
import { emitPackModule, PRIMITIVES, type SourceConstraint, type SourceContext, type SourcePack } from "./emit/module.js";
import type { DefinitionRow, InstanceSpan, PackRule } from "./program-interface.js";

const INSTANCE: InstanceSpan = 0x4000000;
const PROGRAM_INTERFACE = new URL("./program-interface.d.ts", import.meta.url);

interface PackDefinition {
  name: string;
  title: string;
  area: string;
  sourceEnv: string;
  defaultSource: string;
  files: string[];
  /** Whether the pack's rules are on by default at level full (absent: off, enabled by naming the pack or a rule). */
  defaultOn?: boolean;
  /** Sources of NIST constraints the semantic layer cannot decide (they need another document) that the pack decides. */
  decidesNist?: string[];
}

export interface PackBuildResult {
  name: string;
  title: string;
  sources: Record<string, string>;
  /** `remarks`: the pack's own remarks on the rule's constraint, in plain text, where it has any. */
  rules: (PackRule & { defaultOn: boolean; area: string; fix: string | undefined; remarks: string | undefined })[];
  /** NIST constraints (their manifest sources) the pack decides, with the documents it reads. */
  decidesNist: string[];
  constraints: { total: number; compiled: number; byKind: Record<string, { total: number; compiled: number }> };
  /** Constraints left out of the pack, with the reason. */
  notCompiled: { constraintId: string; kind: string; reason: string }[];
  /** Compiled constraints that are decided only with other documents supplied (`documents`), else not evaluated. */
  needsDocuments: { constraintId: string; kind: string; reason: string }[];
}

const PACKS_DIR = path.join(repoRoot, "compiler", "packs");

/** The functions the engine evaluates; those loading other documents make a constraint depend on `documents`. */
const FUNCTIONS = new Set(["exists", "empty", "count", "not", "true", "false", "starts-with", "substring", "substring-after", "current-dateTime", "path", "resolve-uri", "doc-available", "doc", "resolve-profile", "map:entry", "map:merge"]);
const DOCUMENT_FUNCTIONS = new Set(["doc-available", "doc", "resolve-profile"]);

/** The pack code emitter's own directory under compiler/packs; every other directory declares a pack. */
const EMITTER_DIR = "emit";

export function packDefinitions(): PackDefinition[] {
  return readdirSync(PACKS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== EMITTER_DIR)
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const definition = JSON.parse(readFileSync(path.join(PACKS_DIR, name, "pack.json"), "utf8")) as PackDefinition;
      if (definition.name !== name) throw new Error(`compiler/packs/${name}/pack.json names the pack "${definition.name}"`);
      return definition;
    });
}

interface Uses {
  functions: Set<string>;
  /** Variables read, and those bound by a quantifier inside the tree. */
  variables: Set<string>;
  bound: Set<string>;
}

/** Function names and variable references of a syntax tree. */
function usesOf(tree: unknown): Uses {
  const uses: Uses = { functions: new Set(), variables: new Set(), bound: new Set() };
  for (const node of syntaxNodes(tree)) {
    if (!("type" in node)) continue;
    if (node.type === "call") uses.functions.add(node.name);
    if (node.type === "var") uses.variables.add(node.name);
    if (node.type === "quantified") for (const binding of node.bindings) uses.bound.add(binding.name);
  }
  return uses;
}

/** The definitions table of the node view: every assembly and field reachable from a root, numbered breadth first. */
function definitionsTable(roots: Map<string, AssemblyDef>): { rows: DefinitionRow[]; roots: Record<string, number> } {
  const numbers = new Map<AssemblyDef | FieldDef, number>();
  const order: (AssemblyDef | FieldDef)[] = [];
  const number = (def: AssemblyDef | FieldDef) => {
    let n = numbers.get(def);
    if (n === undefined) {
      numbers.set(def, (n = order.length));
      order.push(def);
    }
    return n;
  };
  const rootNumbers: Record<string, number> = {};
  for (const model of [...roots.keys()].sort()) rootNumbers[model] = number(roots.get(model)!);
  const rows: DefinitionRow[] = [];
  for (let i = 0; i < order.length; i++) {
    const def = order[i]!;
    const flags = def.flags.map((f) => [f.name, f.jsonName] as [string, string]);
    // A node's position (instance number times INSTANCE plus array index) must stay a small integer for V8.
    if (def.kind === "assembly" && def.children.length * INSTANCE > 2 ** 31) throw new Error(`${def.name} has ${def.children.length} child instances: node positions would overflow`);
    rows.push(def.kind === "assembly" ? ["a", flags, def.children.map((c) => [c.name, c.jsonName, number(c.def)] as [string, string, number])] : ["f", flags, def.valueKey]);
  }
  return { rows, roots: rootNumbers };
}

/** Element names reachable from each root, to tell which models a `//name` context can match. */
function namesByModel(roots: Map<string, AssemblyDef>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [model, root] of roots) {
    const names = new Set<string>([model]);
    const seen = new Set<AssemblyDef | FieldDef>();
    const visit = (def: AssemblyDef | FieldDef) => {
      if (seen.has(def) || def.kind !== "assembly") return;
      seen.add(def);
      for (const child of def.children) {
        names.add(child.name);
        visit(child.def);
      }
    };
    visit(root);
    out.set(model, names);
  }
  return out;
}

function modelsOfTarget(target: Expr, models: Map<string, Set<string>>): string[] {
  const all = [...models.keys()].sort();
  if (target.type !== "path") return all;
  const [first, second] = target.steps;
  const names = (step: typeof first) => (step && (step.axis === "child" || step.axis === "descendant") ? step.names : undefined);
  if (first?.axis === "root") {
    const roots = names(second);
    return roots ? all.filter((m) => roots.includes(m)) : all;
  }
  if (target.rootDescendant) {
    const wanted = names(first);
    return wanted ? all.filter((m) => wanted.some((n) => models.get(m)!.has(n))) : all;
  }
  return all;
}

function severityOf(level: string): "error" | "warning" {
  return level === "ERROR" || level === "CRITICAL" ? "error" : "warning";
}

/** `{ expr }` placeholders of a message, parsed; the text between them kept. */
function messageTemplate(message: string): (string | Expr)[] {
  const parts: (string | Expr)[] = [];
  let last = 0;
  for (const m of message.matchAll(/\{([^{}]*)\}/g)) {
    if (m.index > last) parts.push(message.slice(last, m.index));
    parts.push(parseMetapath(m[1]!.trim()));
    last = m.index + m[0].length;
  }
  if (last < message.length) parts.push(message.slice(last));
  return parts;
}

export function emitPack(definition: PackDefinition, roots: Map<string, AssemblyDef>, outDir: string, env: NodeJS.ProcessEnv = process.env): PackBuildResult {
  const packDir = path.join(PACKS_DIR, definition.name);
  const sumsFile = path.join(packDir, "SHA256SUMS");
  const listed = [...parseSums(readFileSync(sumsFile, "utf8")).keys()];
  if (listed.join("\n") !== definition.files.join("\n")) throw new Error(`compiler/packs/${definition.name}: SHA256SUMS must list exactly the files of pack.json, in order`);
  const sourceDir = path.resolve(repoRoot, env[definition.sourceEnv] ?? definition.defaultSource);
  const { hashes } = verifyListedFiles(sourceDir, sumsFile, `${definition.name} constraint`, definition.sourceEnv);

  const models = namesByModel(roots);
  const contexts: SourceContext[] = [];
  const notCompiled: PackBuildResult["notCompiled"] = [];
  const compiledByRule = new Map<string, { constraint: FileConstraint; models: string[]; needsDocuments: string | undefined }[]>();
  const byKind: PackBuildResult["constraints"]["byKind"] = {};
  let total = 0;
  const pending: { context: SourceContext; compiled: SourceConstraint; constraintId: string }[] = [];
  const indexDocumentNeeds = new Map<string, string>();

  for (const file of definition.files) {
    for (const source of readConstraintFile(path.join(sourceDir, file), file)) {
      const targets = source.targets.map((t) => parseMetapath(t));
      const contextModels = [...new Set(targets.flatMap((t) => modelsOfTarget(t, models)))].sort();
      // Each let parsed once; a let that does not parse fails the constraints that use it.
      const lets = new Map<string, { expr?: Expr; error?: string }>();
      for (const l of source.lets) {
        try {
          lets.set(l.name, { expr: parseMetapath(l.expression) });
        } catch (error) {
          lets.set(l.name, { error: `its variable $${l.name} does not parse: ${String((error as Error).message)}` });
        }
      }
      // A let needs documents when it, or a let it uses, calls a document function.
      const letNeeds = new Map<string, string | undefined>();
      const needsOf = (expr: unknown, seen: Set<string> = new Set()): string | undefined => {
        const found = usesOf(expr);
        const direct = [...found.functions].find((f) => DOCUMENT_FUNCTIONS.has(f));
        if (direct) return `it calls ${direct}()`;
        for (const name of found.variables) {
          if (seen.has(name) || !lets.get(name)?.expr) continue;
          seen.add(name);
          if (!letNeeds.has(name)) letNeeds.set(name, needsOf(lets.get(name)!.expr, seen) && `its variable $${name} loads another document`);
          if (letNeeds.get(name)) return letNeeds.get(name);
        }
        return undefined;
      };
      const context: SourceContext = { targets, lets: [], constraints: [] };
      const usedLets = new Set<string>();
      for (const c of source.constraints) {
        total++;
        const kindCount = (byKind[c.kind] ??= { total: 0, compiled: 0 });
        kindCount.total++;
        try {
          const compiled = compileConstraint(c);
          const found = usesOf(compiled);
          const unknown = [...found.functions].find((f) => !FUNCTIONS.has(f));
          if (unknown) throw new Error(`the Metapath function ${unknown}() is not supported`);
          // Variables the constraint needs, through the lets it uses.
          const queue = [...found.variables].filter((v) => !found.bound.has(v));
          for (let i = 0; i < queue.length; i++) {
            const name = queue[i]!;
            const l = lets.get(name);
            if (!l) throw new Error(`the variable $${name} is not defined in its context`);
            if (l.error) throw new Error(l.error);
            const inner = usesOf(l.expr);
            const unknownInLet = [...inner.functions].find((f) => !FUNCTIONS.has(f));
            if (unknownInLet) throw new Error(`its variable $${name} calls ${unknownInLet}(), which is not supported`);
            for (const v of inner.variables) if (!queue.includes(v) && !inner.bound.has(v)) queue.push(v);
            usedLets.add(name);
          }
          kindCount.compiled++;
          const needs = needsOf(compiled);
          if (c.kind === "index" && needs) indexDocumentNeeds.set(c.indexName!, needs);
          context.constraints.push(compiled);
          if (c.id !== undefined) {
            pending.push({ context, compiled, constraintId: c.id });
            const entries = compiledByRule.get(c.id) ?? [];
            entries.push({ constraint: c, models: contextModels, needsDocuments: needs });
            compiledByRule.set(c.id, entries);
          }
        } catch (error) {
          notCompiled.push({ constraintId: c.id ?? `${c.kind} ${c.indexName ?? c.target}`, kind: c.kind, reason: (error as Error).message });
        }
      }
      // Lets in declaration order (a let may use earlier ones), only those a compiled constraint needs.
      for (const l of source.lets) if (usedLets.has(l.name)) context.lets.push({ name: l.name, expr: lets.get(l.name)!.expr! });
      if (context.constraints.length > 0) contexts.push(context);
    }
  }

  // One rule per constraint id: FedRAMP's harness pools the results of constraints sharing an id.
  const tableFile = path.join(packDir, "rule-ids.tsv");
  const table = readRuleIdTable(tableFile);
  const ids = [...compiledByRule.keys()];
  const missing = ids.filter((id) => !table.has(id));
  if (missing.length > 0) {
    const lines = proposeRuleIds(missing.map((id) => ({ key: id, area: definition.area, group: id })), table);
    throw new Error(`${missing.length} constraint id(s) have no rule id in compiler/packs/${definition.name}/rule-ids.tsv. Append:\n${lines.join("\n")}`);
  }
  const fixes = readFixes(path.join(packDir, "fixes.tsv"), new Set(ids));
  const sortedIds = ids.sort((a, b) => table.get(a)!.localeCompare(table.get(b)!));
  const ruleIndex = new Map(sortedIds.map((id, i) => [id, i]));
  const rules = sortedIds.map((constraintId) => {
    const entries = compiledByRule.get(constraintId)!;
    const first = entries[0]!.constraint;
    const kinds = [...new Set(entries.map((e) => e.constraint.kind))];
    return {
      id: table.get(constraintId)!,
      area: definition.area,
      constraintId,
      severity: entries.some((e) => severityOf(e.constraint.level) === "error") ? ("error" as const) : ("warning" as const),
      defaultOn: definition.defaultOn === true,
      keyword: kinds.join("+"),
      description: `${first.formalName ?? first.message ?? constraintId} (${definition.name} ${constraintId})`,
      models: [...new Set(entries.flatMap((e) => e.models))].sort(),
      remarks: entries.find((e) => e.constraint.remarks !== undefined)?.constraint.remarks,
      fix: fixes.get(constraintId) ?? kindFix(entries.map((e) => e.constraint)),
    };
  });
  for (const { compiled, constraintId } of pending) compiled.rule = ruleIndex.get(constraintId)!;

  const needsDocuments: PackBuildResult["needsDocuments"] = [];
  for (const [constraintId, entries] of compiledByRule) {
    for (const { constraint, needsDocuments: needs } of entries) {
      const viaIndex = constraint.kind === "index-has-key" ? indexDocumentNeeds.get(constraint.indexName!) : undefined;
      const reason = needs ?? (viaIndex && `its index ${constraint.indexName} is built from another document (${viaIndex})`);
      if (reason) needsDocuments.push({ constraintId, kind: constraint.kind, reason });
    }
  }
  needsDocuments.sort((a, b) => a.constraintId.localeCompare(b.constraintId) || a.kind.localeCompare(b.kind));

  const { rows, roots: rootNumbers } = definitionsTable(roots);
  const pack: SourcePack = {
    name: definition.name,
    definitions: rows,
    roots: rootNumbers,
    rules: rules.map(({ id, constraintId, severity, keyword, description, models: m }) => ({ id, constraintId, severity, keyword, description, models: m })),
    contexts,
  };
  writeFileSync(
    path.join(outDir, `${definition.name}.cjs`),
    emitPackModule(pack, `Generated by compiler/packs from ${definition.files.join(" and ")} (${definition.title}). Do not edit.`),
  );
  return {
    name: definition.name,
    title: definition.title,
    sources: hashes,
    rules,
    constraints: { total, compiled: total - notCompiled.length, byKind },
    notCompiled,
    needsDocuments,
    decidesNist: definition.decidesNist ?? [],
  };
}

/** What fixes a finding of each kind, for a rule its pack's fixes.tsv does not name. */
const KIND_FIXES: Readonly<Record<Exclude<ConstraintKind, "index">, string>> = {
  "allowed-values": "Use one of the values the finding lists.",
  matches: "Write the value in the form the rule describes.",
  "index-has-key": "Refer to something the document declares (or the document it imports), or declare what the reference names.",
  "is-unique": "Give each entry its own value, or merge the repeated entries.",
  expect: "Change the document so that it meets the rule's requirement.",
  "has-cardinality": "Add the missing entries or remove the extra ones, as the finding says.",
};

/**
 * How to fix a finding of a rule its pack gives no fix for: by its kind, with its own words where its constraint has a
 * message without placeholders (FedRAMP's say what is required), and where the constraint's authors explain it.
 */
function kindFix(constraints: readonly Constraint[]): string | undefined {
  const first = constraints[0]!;
  const byKind = first.kind in KIND_FIXES ? KIND_FIXES[first.kind as keyof typeof KIND_FIXES] : undefined;
  const said = first.kind === "expect" && first.message !== undefined && !first.message.includes("{") ? `Meet the requirement: ${first.message}` : byKind;
  const helpUrl = constraints.find((c) => c.helpUrl !== undefined)?.helpUrl;
  if (said === undefined) return helpUrl === undefined ? undefined : `See ${helpUrl}.`;
  return helpUrl === undefined ? said : `${said} Guidance: ${helpUrl}`;
}

/** A pack's fixes.tsv, when it has one: constraint id → how to fix a finding. Each id must be one of the pack's rules. */
function readFixes(file: string, constraintIds: ReadonlySet<string>): Map<string, string> {
  const fixes = new Map<string, string>();
  if (!existsSync(file)) return fixes;
  const label = path.relative(repoRoot, file);
  for (const [n, line] of readFileSync(file, "utf8").split("\n").entries()) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const [constraintId, fix, extra] = line.split("\t");
    if (!constraintId || !fix || extra !== undefined) throw new Error(`${label}:${n + 1}: expected "<constraint id><TAB><fix>"`);
    if (!constraintIds.has(constraintId)) throw new Error(`${label}:${n + 1}: ${constraintId} is not a rule of the pack`);
    if (fixes.has(constraintId)) throw new Error(`${label}:${n + 1}: duplicate constraint id ${constraintId}`);
    fixes.set(constraintId, fix);
  }
  return fixes;
}

/**
 * A pattern the module will hold as a full-match regular expression literal: one JavaScript does not accept leaves its
 * constraint uncompiled (listed with the reason) rather than failing the build where the literal is written.
 */
function fullMatchPattern(pattern: string): string {
  new RegExp(`^(?:${pattern})$`, "u");
  return pattern;
}

function compileConstraint(c: FileConstraint): SourceConstraint {
  const compiled: SourceConstraint = { rule: -1, kind: c.kind, target: parseMetapath(c.target) };
  switch (c.kind) {
    case "expect":
      if (c.test === undefined) throw new Error("an expect constraint needs a test");
      compiled.test = parseMetapath(c.test);
      break;
    case "allowed-values":
      compiled.values = c.enums.map((e) => e.value);
      compiled.allowOther = c.allowOther;
      break;
    case "matches": {
      compiled.patterns = [c.regex, c.datatype === undefined ? undefined : datatypePattern(c.datatype)].filter((p) => p !== undefined);
      if (compiled.patterns.length === 0) throw new Error("a matches constraint needs a regex or a datatype");
      compiled.patterns.forEach(fullMatchPattern);
      break;
    }
    case "index":
    case "index-has-key":
      compiled.index = c.indexName;
      break;
    case "is-unique":
      break;
    case "has-cardinality":
      if (c.minOccurs === undefined && c.maxOccurs === undefined) throw new Error("a has-cardinality constraint needs min-occurs or max-occurs");
      compiled.minOccurs = c.minOccurs;
      compiled.maxOccurs = c.maxOccurs;
      break;
  }
  if (c.keyFields.length > 0) {
    compiled.keys = c.keyFields.map((k) => (k.pattern === undefined ? { target: parseMetapath(k.target) } : { target: parseMetapath(k.target), pattern: fullMatchPattern(k.pattern) }));
  }
  if (c.message !== undefined) compiled.message = messageTemplate(c.message);
  return compiled;
}

/** The ESM entry the run time imports: pack names and a lazy, code-cached loader of each pack's module. */
export function packEntryModule(names: readonly string[]): { js: string; dts: string } {
  return {
    js: `// Generated by compiler/packs. Do not edit.
import { fileURLToPath } from "node:url";
import { loadCompiled } from "#runtime/core/code-cache.cjs";
export const PACK_NAMES = Object.freeze(${JSON.stringify(names)});
const loaded = new Map();
/** The module of a pack, loaded on first use. */
export function packModule(name) {
  if (!PACK_NAMES.includes(name)) throw new Error(\`unknown rule pack \${name}\`);
  let pack = loaded.get(name);
  if (pack === undefined) loaded.set(name, (pack = loadCompiled(fileURLToPath(new URL(\`./\${name}.cjs\`, import.meta.url)))));
  return pack;
}
`,
    dts: `// Generated by compiler/packs. Do not edit.
export declare const PACK_NAMES: readonly string[];
/** The module of a pack (runtime/packs/engine.ts PackModule), loaded on first use. */
export declare function packModule(name: string): unknown;

${readFileSync(PROGRAM_INTERFACE, "utf8")}
/** The primitives a pack's generated code calls, from the run time it requires (runtime/constraints/runtime.ts). */
export type PrimitiveName = ${PRIMITIVES.map((name) => JSON.stringify(name)).join(" | ")};
`,
  };
}
