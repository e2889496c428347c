// The semantic layer's rule selection and invocation. The checks are generated code (compiler/semantic), loaded on the
// first full-level run; the rule list comes from the runtime manifest, so resolving options never loads them. Rule packs
// (compiler/packs: an organisation's constraint files) add rules, default-off unless the pack says otherwise (ours,
// oscal-package, is on), enabled by naming the pack or by id, and evaluated by the pack engine (runtime/packs/engine.ts)
// of the constraint run time their generated module requires (runtime/constraints/runtime.ts).
import { semanticChecks } from "#generated/models.js";
import { PACK_NAMES, packModule } from "#generated/packs/index.js";
import manifest from "#generated/runtime-manifest.json" with { type: "json" };
import type { DocumentSource, PackModule, PackProgram, RuleResults } from "../packs/engine.js";
import type { Model, ValidationIssue } from "./report.js";
import { sha256Hex } from "./sha256.js";

export interface ActiveRules {
  ids: ReadonlySet<string>;
  /** Hex SHA-256 over the sorted active ids joined by "\n": identifies the rule set a report was checked with. */
  readonly sha256: string;
  /** Whether the caller named a pack (one on by default too): packs then run on schema-invalid documents. */
  readonly packsNamed: boolean;
}

/** What pack constraints may read besides the document: other documents and the clock. */
export interface PackInputs {
  /** Documents `doc()` may load, by href as written; absent: constraints needing one are reported as not evaluated. */
  documents?: DocumentSource;
  /** The time `current-dateTime()` returns. */
  now: Date;
}

type ManifestRule = (typeof manifest.semanticRules)[number];

const KNOWN_RULES: ReadonlySet<string> = new Set(manifest.semanticRules.map((rule) => rule.id));
const DEFAULT_RULES: readonly string[] = manifest.semanticRules.filter((rule) => rule.defaultOn).map((rule) => rule.id);

/** The pack a rule belongs to, for pack rules. */
function packOf(rule: ManifestRule): string | undefined {
  return "set" in rule && rule.set !== "nist" && rule.set !== "ours" ? rule.set : undefined;
}

/** Pack name → the ids of its rules. */
const PACK_RULES: ReadonlyMap<string, readonly string[]> = new Map(
  PACK_NAMES.map((name) => [name, manifest.semanticRules.filter((rule) => packOf(rule) === name).map((rule) => rule.id)]),
);

/** Pack name → the models its rules check: a document of another model never loads the pack's module. */
const PACK_MODELS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  PACK_NAMES.map((name) => [name, new Set(manifest.semanticRules.flatMap((rule) => (packOf(rule) === name && "models" in rule ? (rule.models ?? []) : [])))]),
);

/** The hash is computed when a report first needs it: only reports that reach the semantic layer name their rule set. */
function activeRules(ids: Iterable<string>, packsNamed: boolean): ActiveRules {
  const set = new Set(ids);
  let sha256: string | undefined;
  return {
    ids: set,
    packsNamed,
    get sha256() {
      return (sha256 ??= sha256Hex([...set].sort().join("\n")));
    },
  };
}

const DEFAULT_ACTIVE = activeRules(DEFAULT_RULES, false);

/** The rule sets of the default rules and whole packs, by the packs' sorted names (known packs only: few). */
const PACK_SETS = new Map<string, ActiveRules>();

/**
 * The active rules for rule ids and pack names requested. A pack's name also counts as a group name among the rule ids
 * (`rules=fedramp` over HTTP, where listing every pack rule would not fit a sensible query string).
 */
export function resolveSemanticRules(
  requested: readonly string[],
  packs: readonly string[] = [],
): { ok: true; active: ActiveRules } | { ok: false; unknownId: string } | { ok: false; unknownPack: string } {
  const unknownId = requested.find((id) => !KNOWN_RULES.has(id) && !PACK_RULES.has(id));
  if (unknownId !== undefined) return { ok: false, unknownId };
  const unknownPack = packs.find((name) => !PACK_RULES.has(name));
  if (unknownPack !== undefined) return { ok: false, unknownPack };
  const wholePacks = [...packs, ...requested.filter((item) => PACK_RULES.has(item))];
  const ruleIds = requested.filter((item) => KNOWN_RULES.has(item));
  if (wholePacks.length === 0 && ruleIds.every((id) => DEFAULT_ACTIVE.ids.has(id))) return { ok: true, active: DEFAULT_ACTIVE };
  const packIds = wholePacks.flatMap((name) => PACK_RULES.get(name)!);
  if (ruleIds.length > 0) return { ok: true, active: activeRules([...DEFAULT_RULES, ...packIds, ...ruleIds], wholePacks.length > 0) };
  // Whole packs only, the usual request: one rule set per combination of packs, not a set and a hash per request.
  const key = [...new Set(wholePacks)].sort().join("\n");
  let active = PACK_SETS.get(key);
  if (active === undefined) PACK_SETS.set(key, (active = activeRules([...DEFAULT_RULES, ...packIds], true)));
  return { ok: true, active };
}

/** The names of the rule packs this build holds. */
export const RULE_PACKS: readonly string[] = PACK_NAMES;

/** The packs on by default at level full (pack.json's `defaultOn`). */
export const DEFAULT_PACKS: readonly string[] = PACK_NAMES.filter((name) => PACK_RULES.get(name)!.every((id) => DEFAULT_ACTIVE.ids.has(id)));

/** The first `limit` findings in document order (all when absent), how many there are, and how many are errors. */
export function runSemanticLayer(
  model: Model,
  document: unknown,
  active: ActiveRules,
  limit?: number,
): { issues: ValidationIssue[]; count: number; errors: number } {
  const { findings, count, errors } = semanticChecks().check(model, document, active.ids, limit);
  return { issues: findings, count, errors };
}

/** The packs with an active rule (a server passes the same set for every request: cached). */
const ACTIVE_PACKS = new WeakMap<ActiveRules, readonly string[]>();
export function activePacks(active: ActiveRules): readonly string[] {
  let packs = ACTIVE_PACKS.get(active);
  if (packs === undefined) {
    packs = PACK_NAMES.filter((name) => PACK_RULES.get(name)!.some((id) => active.ids.has(id)));
    ACTIVE_PACKS.set(active, packs);
  }
  return packs;
}

export function hasActivePacks(active: ActiveRules): boolean {
  return activePacks(active).length > 0;
}

/**
 * Whether the caller asked for pack rules: named a pack, or a rule of a pack that is off by default. Such packs run on
 * schema-invalid documents too; the default rules, a default-on pack's among them, need a schema-valid document.
 */
export function enablesPacks(active: ActiveRules): boolean {
  return active.packsNamed || activePacks(active).some((name) => PACK_RULES.get(name)!.some((id) => !DEFAULT_ACTIVE.ids.has(id)));
}

/**
 * Runs the active rules of every pack: the first `limit` findings as issues (a report lists no more), how many there
 * are and how many are errors. `complete` is false when a constraint could not be evaluated (another document or
 * profile resolution needed and not supplied): each such rule is reported once as a `not-evaluated` warning.
 */
export function runRulePacks(
  model: Model,
  document: unknown,
  active: ActiveRules,
  inputs: PackInputs,
  limit = Number.POSITIVE_INFINITY,
): { issues: ValidationIssue[]; count: number; errors: number; complete: boolean } {
  const issues: ValidationIssue[] = [];
  let count = 0;
  let errors = 0;
  let complete = true;
  // The packs view the document and those they load once between them.
  const sharedViews = new Map<unknown, unknown>();
  for (const name of activePacks(active)) {
    if (!PACK_MODELS.get(name)!.has(model)) continue;
    const { program, runPack } = loadedPack(name);
    const { findings } = runPack(program, document, { active: (rule) => active.ids.has(program.rules[rule]!.id), documents: inputs.documents, now: inputs.now, sharedViews });
    for (const finding of findings) {
      const rule = program.rules[finding.rule]!;
      const severity = finding.notEvaluated ? "warning" : rule.severity;
      count++;
      if (severity === "error") errors++;
      if (finding.notEvaluated) complete = false;
      if (issues.length < limit) issues.push({ ruleId: rule.id, ...finding.describe(), keyword: finding.keyword, severity });
    }
  }
  return { issues, count, errors, complete };
}

/**
 * A pack's program and the engine that runs it: the one of the run time its generated module required, whose
 * classes its code tests with instanceof (this module may be another copy: the tests run it from source).
 */
export function loadedPack(name: string): { program: PackProgram; runPack: PackModule["runtime"]["runPack"] } {
  const pack = packModule(name) as PackModule;
  return { program: pack.runtime.packProgram(pack), runPack: pack.runtime.runPack };
}

/** Every rule of a pack evaluated on a document, as counts per constraint id: targets passed, failed, not evaluated. */
export function packResults(name: string, document: unknown, inputs: PackInputs): Map<string, RuleResults> {
  const { program, runPack } = loadedPack(name);
  const { results } = runPack(program, document, { active: () => true, documents: inputs.documents, now: inputs.now });
  return new Map(program.rules.map((rule, i) => [rule.constraintId, results[i]!]));
}
