// Build-time entry of the level=full semantic layer: NIST metaschema constraints (+ our own rules) →
// generated/semantic.cjs (CommonJS, loaded on the first full-level run; it requires only the constraint run time,
// runtime/constraints/runtime.ts) and its declarations.
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
import { semanticModule } from "./module.js";
import { Code } from "../codegen/code.js";
import { checkJsonNames } from "./json-names.js";
import { schemaEnforcedRules, singleMemberRules } from "./schema-enforced.js";
import type { JsonSchema } from "../schema-source.js";

export interface SemanticRuleInfo {
  id: string;
  area: string;
  severity: "error" | "warning";
  source: string; // NIST constraint id, or "ours:<name>"
  defaultOn: boolean;
  keyword: string;
  models: string[];
  /** What the rule checks, in plain words. */
  description: string;
  /** How to fix a finding, where one sentence can say it. */
  fix?: string;
  /** NIST's constraint as written: its context definition, kind and Metapath (for those who read Metapath). */
  metapath?: string;
  /** Why the rule exists, in NIST's words (the constraint's remarks, or its message where the description is not it). */
  remarks?: string;
}

export interface SemanticBuildResult {
  rules: SemanticRuleInfo[];
  notApplicable: { source: string; kind: string; reason: string }[];
  /** Rules compiled to no code: allowed-values with allow-other="yes", alone at every node they reach, never report. */
  inert: string[];
  /**
   * Allowed-values rules with allow-other="yes": none ever reports (alone it is inert; with stricter rules at the same
   * node, the run time's verdicts name the strict ones and it only adds its values to their message).
   */
  knownValues: string[];
  /** is-unique rules over a member the JSON schema allows once: rule id → that property in the complete schema. */
  singleMember: Record<string, string>;
  /** Strict allowed-values rules whose list is the JSON schema's enum there: rule id → that property in the complete schema. */
  schemaEnforced: Record<string, string>;
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

/**
 * What NIST says of why a constraint exists: its remarks, else its message where that says more than the rule's
 * description ("It is a best practice to provide a UUID."), not where the description is that message.
 */
function remarksOf(c: RawConstraint, description: string): string | undefined {
  if (c.remarks !== undefined) return c.remarks;
  const sentence = (text: string) => text.replace(/\.?$/, ".");
  return c.message === undefined || sentence(c.message) === sentence(description) ? undefined : sentence(c.message);
}

function severityOf(level: string): { severity: "error" | "warning"; defaultOn: boolean } {
  if (level === "ERROR" || level === "CRITICAL") return { severity: "error", defaultOn: true };
  if (level === "WARNING") return { severity: "warning", defaultOn: true };
  return { severity: "warning", defaultOn: false }; // INFORMATIONAL / DEBUG: available, off by default
}

/** The constraint in the metaschema's terms: its context definition, target Metapath and what it requires there. */
function inMetapath(c: RawConstraint): string {
  const where = c.context.name;
  switch (c.kind) {
    case "allowed-values":
      return `${c.target} in ${where} takes one of ${new Set(c.enums.map((e) => e.value)).size} listed values${c.allowOther ? " (others allowed)" : ""}`;
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
    ...applicable.filter((c) => !table.has(c.key)).map((c) => ({ key: c.key, area: AREAS[c.module]!, group: c.id ?? c.key })),
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
      source: own ? c.key : (c.id ?? c.key),
      keyword: own ? own.name : c.kind,
      models: own && own.models !== "all" ? [...own.models] : modelsOf(c.context),
      description: own ? own.description : "",
      ...(own ? { fix: own.fix } : { metapath: inMetapath(c) }),
      constraint: c,
    });
  }
  for (const key of ownKeys) {
    const own = OWN_RULES.find((r) => `ours:${r.name}` === key)!;
    rules.push({
      id: table.get(key)!, area: "DOC", severity: "warning", defaultOn: true, source: key, keyword: own.name,
      models: own.models === "all" ? models : [...own.models], description: own.description, fix: own.fix,
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
  const gen = new Walk(byContext, multiSites, own, identifierIndexes(constraints, [...reachable.values()].flatMap((defs) => [...defs])), probe.ctx.indexedNouns);
  const rootVisits = gen.visitRoots(models.map((m) => roots.get(m)!));
  if (gen.ctx.notApplicable.size > 0) throw new Error(`internal: constraints became not applicable in pass 2: ${[...gen.ctx.notApplicable.keys()].map((c) => c.key).join(", ")}`);
  // NIST's rules in words, as their code names the nodes they check.
  rules.forEach((rule, index) => {
    if (rule.constraint === undefined || rule.description !== "") return;
    const words = gen.ctx.ruleWords.get(index);
    if (words === undefined) throw new Error(`internal: ${rule.id} was compiled without a description`);
    rule.description = words.description;
    if (words.fix !== undefined) rule.fix = words.fix;
    const remarks = remarksOf(rule.constraint, rule.description);
    if (remarks !== undefined) rule.remarks = remarks;
  });
  checkJsonNames(roots, gen.ctx.navigations, options.completeSchema);

  const { declarations, functions } = gen.code();
  const module = semanticModule({
    rules: rules.map((r) => {
      const phrases = gen.ctx.allowedPhrases.get(ruleIndex.get(r.id)!) ?? { subject: "The value", where: "here" };
      const allowed = r.constraint?.kind === "allowed-values" ? { values: r.constraint.enums.map((e) => e.value), allowOther: r.constraint.allowOther, ...phrases } : undefined;
      return { id: r.id, severity: r.severity, defaultOn: r.defaultOn, keyword: r.keyword, description: r.description, models: r.models, allowed };
    }),
    indexNames: [...gen.ctx.indexNames].sort(),
    declarations: Code.verbatim(declarations),
    functions: Code.verbatim(functions),
    roots: rootVisits.map((visit, i) => [models[i]!, Code.verbatim(visit)] as const),
    resetSwitches: Code.verbatim(gen.resetSwitches()),
    own,
  });
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(path.join(options.outDir, "semantic.cjs"), module.toString());
  writeFileSync(path.join(options.outDir, "semantic.d.cts"), SEMANTIC_DTS);

  return {
    rules: rules.map(({ constraint: _unused, ...info }) => info),
    inert: [...gen.ctx.inert].map((index) => rules[index]!.id).sort(),
    knownValues: rules.filter((r) => r.constraint?.kind === "allowed-values" && r.constraint.allowOther).map((r) => r.id),
    schemaEnforced: Object.fromEntries(schemaEnforcedRules(rules, options.completeSchema)),
    singleMember: Object.fromEntries(singleMemberRules(rules, options.completeSchema)),
    notApplicable: [...notApplicable]
      .map(([c, reason]) => ({ source: c.id ?? c.key, kind: c.kind, reason }))
      .sort((a, b) => a.source.localeCompare(b.source) || a.kind.localeCompare(b.kind)),
  };
}
