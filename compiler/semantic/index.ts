// Build-time entry of the level=full semantic layer: NIST metaschema constraints (+ our own rules) →
// generated/semantic.cjs (CommonJS, loaded on the first full-level run; it requires only runtime/semantic/helpers) and its declarations.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadMetaschema, type AssemblyDef, type Definition, type FieldDef, type RawConstraint } from "../metaschema/metaschema.js";
import type { CompileUnit, OwnRuleIndices } from "./emit/context.js";
import { Walk } from "./emit/walk.js";
import { identifierIndexes } from "./identifier-indexes.js";
import { OWN_RULES, profileImportConstraint } from "./own-rules.js";
import { proposeRuleIds } from "../metaschema/rule-ids.js";
import { AREAS, readDefaultOff, readNistRuleIds } from "./rule-ids.js";
import { SEMANTIC_DTS } from "./declarations.js";
import { checkJsonNames } from "./json-names.js";
import type { JsonSchema } from "../schema-source.js";

export interface SemanticRuleInfo {
  id: string;
  area: string;
  severity: "error" | "warning";
  source: string; // NIST constraint id, or "ours:<name>"
  defaultOn: boolean;
  keyword: string;
  models: string[];
  description: string;
}

export interface SemanticBuildResult {
  rules: SemanticRuleInfo[];
  notApplicable: { source: string; kind: string; reason: string }[];
  /** Rules compiled to no code: allowed-values with allow-other="yes", alone at every node they reach, never report. */
  inert: string[];
}

/** Definitions reachable from each root model (flags included), to tell which models a rule applies to. */
function reachableByModel(roots: Map<string, AssemblyDef>): Map<string, Set<Definition>> {
  const out = new Map<string, Set<Definition>>();
  for (const [model, root] of roots) {
    const seen = new Set<Definition>();
    const visit = (def: AssemblyDef | FieldDef) => {
      if (seen.has(def)) return;
      seen.add(def);
      for (const flag of def.flags) seen.add(flag.def);
      if (def.kind === "assembly") for (const child of def.children) visit(child.def);
    };
    visit(root);
    out.set(model, seen);
  }
  return out;
}

function severityOf(level: string): { severity: "error" | "warning"; defaultOn: boolean } {
  if (level === "ERROR" || level === "CRITICAL") return { severity: "error", defaultOn: true };
  if (level === "WARNING") return { severity: "warning", defaultOn: true };
  return { severity: "warning", defaultOn: false }; // INFORMATIONAL / DEBUG: available, off by default
}

function describe(c: RawConstraint): string {
  const where = c.context.name;
  switch (c.kind) {
    case "allowed-values":
      return `${c.target} in ${where} takes one of ${c.enums.length} listed values${c.allowOther ? " (others allowed)" : ""}`;
    case "matches":
      return `${c.target} in ${where} matches ${c.regex ? `/${c.regex}/` : `datatype ${c.datatype}`}`;
    case "expect":
      return `${c.target} in ${where} satisfies ${c.test}`;
    case "has-cardinality":
      return `${where} has ${c.minOccurs ?? 0}..${c.maxOccurs ?? "n"} of ${c.target}`;
    case "is-unique":
      return `${c.target} in ${where} is unique by ${c.keyFields.map((k) => k.target).join(", ")}`;
    case "index":
      return `index ${c.indexName}: ${c.target} in ${where} keyed by ${c.keyFields.map((k) => k.target).join(", ")}, keys unique`;
    case "index-has-key":
      return `${c.target} in ${where} refers (${c.keyFields.map((k) => k.target).join(", ")}) to a key of index ${c.indexName}`;
  }
}

export interface SemanticBuildOptions {
  metaschemaDir: string;
  outDir: string;
  /** The OSCAL complete JSON schema, verified and patched as documents are validated: the JSON names are checked against it. */
  completeSchema: JsonSchema;
}

export async function emitSemantic(options: SemanticBuildOptions): Promise<SemanticBuildResult> {
  const { roots, constraints: nist } = loadMetaschema(options.metaschemaDir);
  const profile = roots.get("profile");
  if (!profile) throw new Error("the metaschema defines no profile root");
  const constraints = [...nist, profileImportConstraint(profile)];
  const reachable = reachableByModel(roots);
  const models = [...roots.keys()].sort();
  const modelsOf = (def: Definition) => models.filter((m) => reachable.get(m)!.has(def));

  // Pass 1 (probe): compile everything once to learn which constraints are not applicable and which
  // allowed-values targets are shared by several constraints (those need the union check).
  const notApplicable = new Map<RawConstraint, string>();
  const byContextAll = new Map<Definition, CompileUnit[]>();
  for (const c of constraints) {
    if (modelsOf(c.context).length === 0) notApplicable.set(c, "its definition is not used by any OSCAL model");
    else byContextAll.set(c.context, [...(byContextAll.get(c.context) ?? []), { constraint: c, rule: -1 }]);
  }
  const probe = new Walk(byContextAll, new Set(), undefined, new Set());
  probe.visitRoots(models.map((m) => roots.get(m)!));
  for (const [c, reason] of probe.ctx.notApplicable) notApplicable.set(c, reason);
  // An index-has-key can only be decided where its index is built from this document alone.
  for (const c of constraints) {
    if (c.kind !== "index-has-key" || notApplicable.has(c)) continue;
    const definitions = constraints.filter((d) => d.kind === "index" && d.indexName === c.indexName);
    const usable = definitions.filter((d) => !notApplicable.has(d) && modelsOf(c.context).every((m) => modelsOf(d.context).includes(m)));
    if (usable.length === 0) {
      const why = definitions.map((d) => notApplicable.get(d)).find((r) => r !== undefined) ?? "the index is not defined in every model using this constraint";
      notApplicable.set(c, `its index ${c.indexName} is not decidable from one document: ${why}`);
    }
  }
  // A site needs the union check when several constraints reach it and one of them can reject a value;
  // where every one allows other values, none can ever report.
  const multiSites = new Set(
    [...probe.ctx.avSites]
      .filter(([, cs]) => {
        const applicableHere = [...cs].filter((c) => !notApplicable.has(c));
        return applicableHere.length > 1 && applicableHere.some((c) => !c.allowOther);
      })
      .map(([site]) => site),
  );

  // Rule ids from the committed table; every applicable constraint and own rule must have one.
  const table = readNistRuleIds();
  const applicable = constraints.filter((c) => !notApplicable.has(c));
  const ownKeys = OWN_RULES.map((r) => `ours:${r.name}`).filter((k) => k !== "ours:profile-import-href");
  const missing = [
    ...applicable.filter((c) => !table.has(c.key)).map((c) => ({ key: c.key, area: AREAS[c.module]!, group: c.nistId ?? c.key })),
    ...ownKeys.filter((k) => !table.has(k)).map((k) => ({ key: k, area: "DOC", group: k })),
  ];
  if (missing.length > 0) {
    throw new Error(
      `${missing.length} constraint(s) have no rule id in compiler/semantic/rule-ids.tsv. Append:\n${proposeRuleIds(missing, table).join("\n")}`,
    );
  }

  const rules: (SemanticRuleInfo & { constraint?: RawConstraint })[] = [];
  for (const c of applicable) {
    const own = OWN_RULES.find((r) => `ours:${r.name}` === c.key);
    rules.push({
      id: table.get(c.key)!,
      area: AREAS[c.module]!,
      ...severityOf(c.level),
      source: own ? c.key : (c.nistId ?? c.key),
      keyword: own ? own.name : c.kind,
      models: own && own.models !== "all" ? [...own.models] : modelsOf(c.context),
      description: own ? own.description : `${describe(c)} (${c.nistId ?? "no NIST id"})`,
      constraint: c,
    });
  }
  for (const key of ownKeys) {
    const own = OWN_RULES.find((r) => `ours:${r.name}` === key)!;
    rules.push({
      id: table.get(key)!, area: "DOC", severity: "warning", defaultOn: true, source: key, keyword: own.name,
      models: own.models === "all" ? models : [...own.models], description: own.description,
    });
  }
  const defaultOff = readDefaultOff();
  for (const id of defaultOff.keys()) if (!rules.some((r) => r.id === id)) throw new Error(`default-off.tsv names unknown rule ${id}`);
  for (const rule of rules) if (defaultOff.has(rule.id)) rule.defaultOn = false;
  rules.sort((a, b) => a.id.localeCompare(b.id));
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const indexOfKey = (key: string) => ruleIndex.get(table.get(key)!)!;

  // Pass 2: the real code.
  const byContext = new Map<Definition, CompileUnit[]>();
  for (const rule of rules) {
    if (!rule.constraint) continue;
    const c = rule.constraint;
    byContext.set(c.context, [...(byContext.get(c.context) ?? []), { constraint: c, rule: indexOfKey(c.key) }]);
  }
  for (const units of byContext.values()) units.sort((a, b) => constraints.indexOf(a.constraint) - constraints.indexOf(b.constraint));
  const own: OwnRuleIndices = {
    uuidUnique: indexOfKey("ours:uuid-unique"),
    fragmentHref: indexOfKey("ours:fragment-href"),
    insertParam: indexOfKey("ours:insert-param"),
  };
  const gen = new Walk(byContext, multiSites, own, identifierIndexes(constraints, [...reachable.values()].flatMap((defs) => [...defs])));
  const rootVisits = gen.visitRoots(models.map((m) => roots.get(m)!)).map((visit, i) => `  ${JSON.stringify(models[i])}: ${visit},`);
  if (gen.ctx.notApplicable.size > 0) throw new Error(`internal: constraints became not applicable in pass 2: ${[...gen.ctx.notApplicable.keys()].map((c) => c.key).join(", ")}`);
  checkJsonNames(roots, gen.ctx.navigations, options.completeSchema);

  const { declarations, functions } = gen.code();
  const publicRules = rules.map((r) => ({ id: r.id, severity: r.severity, defaultOn: r.defaultOn, keyword: r.keyword, description: r.description, models: r.models }));
  const avOf = (r: (typeof rules)[number]) => (r.constraint?.kind === "allowed-values" ? r.constraint : undefined);
  // Module-level bindings are `var`: the walk's functions read them at every step, and V8 checks each read of a module
  // `let` or `const` from a function for its temporal dead zone (410 checks in a control's visit), a `var` for nothing.
  const code = `// Generated by compiler/semantic from the NIST OSCAL metaschema constraints. Do not edit.
"use strict";
var { isObj, isAtom, AT, AS, HAS, SEQ, NE, SW, CMPG, KEYN, KEYPAT, KEYREST, EX, PathNode, SemanticRun } = require("#runtime/semantic/helpers.cjs");
var rules = Object.freeze(${JSON.stringify(publicRules)}.map((r) => Object.freeze({ ...r, models: Object.freeze(r.models) })));
var TABLES = {
  source: ${JSON.stringify(rules.map((r) => r.source))},
  allowOther: ${JSON.stringify(rules.map((r) => avOf(r)?.allowOther ?? false))},
  allowedValues: ${JSON.stringify(rules.map((r) => avOf(r)?.enums.map((e) => e.value) ?? []))},
  allowedTarget: ${JSON.stringify(rules.map((r) => avOf(r)?.target ?? ""))},
};
var INDEX_NAMES = ${JSON.stringify([...gen.ctx.indexNames].sort())};
// The walk's path stack (segments P[0] to P[PL - 1]), the path nodes of its prefixes (M[d] names P[0] to P[d]; M[0] to
// M[MH] are current, and a push at or below MH cuts them there: a push costs no store), the active rules and the run
// being checked.
var P = [];
var M = [];
var PL = 0;
var MH = 0;
var A = null;
var R = null;
var IX = null;
${declarations}

${functions}

var ROOTS = {
${rootVisits.join("\n")}
};

// The path node of the first \`depth\` segments of the path, made on from the deepest current one: O(1) amortised, since
// each node made stays current until a push cuts it.
function nodeAt(depth) {
  let node = M[MH < depth - 1 ? MH : depth - 1];
  for (let d = MH + 1; d < depth; d++) M[d] = node = node.child(P[d]);
  if (depth - 1 > MH) MH = depth - 1;
  return node;
}

// The rule switches of a set of active rule ids: servers pass the same set for every request.
var SWITCHES = new WeakMap();
function switchesOf(active) {
  let switches = SWITCHES.get(active);
  if (switches === undefined) {
    switches = new Uint8Array(rules.length);
    for (let i = 0; i < rules.length; i++) if (active.has(rules[i].id)) switches[i] = 1;
    SWITCHES.set(active, switches);
  }
  return switches;
}

var NO_FINDINGS = Object.freeze({ findings: Object.freeze([]), count: 0, errors: 0 });

function check(model, doc, active, limit = Number.POSITIVE_INFINITY) {
  const root = Object.prototype.hasOwnProperty.call(ROOTS, model) ? ROOTS[model] : undefined;
  const top = root === undefined || !isObj(doc) ? undefined : doc[model];
  if (!isObj(top)) return NO_FINDINGS;
  A = switchesOf(active);
  P[0] = model;
  PL = 1;
  M[0] = new PathNode(null, model);
  MH = 0;
  R = new SemanticRun(TABLES, INDEX_NAMES, M[0], nodeAt, P, model === "catalog" && A[${own.insertParam}] === 1);
  ${gen.resetSwitches()}
  IX = R.indexes;
  let found;
  let all;
  try {
    root(top, doc, model);
    found = R.finish(top, ${own.fragmentHref}, limit);
    all = R.findings;
  } finally {
    R = null;
    IX = null;
    P.length = 0;
    M.length = 0;
  }
  if (all.length === 0) return NO_FINDINGS;
  let errors = 0;
  for (let i = 0; i < all.length; i++) if (rules[all[i].rule].severity === "error") errors++;
  const findings = new Array(found.length);
  for (let i = 0; i < found.length; i++) {
    const f = found[i];
    const rule = rules[f.rule];
    findings[i] = { ruleId: rule.id, path: f.at.pointer, message: f.message, keyword: rule.keyword, severity: rule.severity };
  }
  return { findings, count: all.length, errors };
}

module.exports = { rules, check };
`;
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(path.join(options.outDir, "semantic.cjs"), code);
  writeFileSync(path.join(options.outDir, "semantic.d.cts"), SEMANTIC_DTS);

  return {
    rules: rules.map(({ constraint: _unused, ...info }) => info),
    inert: [...gen.ctx.inert].map((index) => rules[index]!.id).sort(),
    notApplicable: [...notApplicable]
      .map(([c, reason]) => ({ source: c.nistId ?? c.key, kind: c.kind, reason }))
      .sort((a, b) => a.source.localeCompare(b.source) || a.kind.localeCompare(b.kind)),
  };
}
