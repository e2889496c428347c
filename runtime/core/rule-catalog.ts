// The catalog of rules with ids of their own, for people reading findings and choosing `rules=` ids: the semantic rules
// (read from the manifest, never from the checks) and the JSON text rules that run at both levels.
import manifest from "#generated/manifest.json" with { type: "json" };
import { JSON_RULES } from "./json-structure.js";
import { MODELS, type Level, type Model, type Severity } from "./report.js";

/** `nist`, `ours`, or the name of the rule pack (e.g. `fedramp`) a rule comes from. */
export type RuleSet = "nist" | "ours" | (string & {});

/** The anchor of the rules page's explanation of schema rule ids, which are too many to list one by one. */
export const SCHEMA_RULE_IDS_ANCHOR = "schema-rule-ids";

export interface RuleCatalogEntry {
  id: string;
  /** The constraint's own id (NIST's, or the pack's); absent for our rules and for NIST constraints that have none. */
  constraintId?: string;
  set: RuleSet;
  severity: Severity;
  defaultOn: boolean;
  /** The lowest level that runs the rule: `schema` (every run) or `full`. */
  level: Level;
  /** The metaschema constraint kind (allowed-values, index-has-key, ...), or the JSON text rule's keyword. */
  keyword: string;
  models: Model[];
  /** What the rule checks, in plain words. */
  description: string;
  /** How to fix a finding of the rule, where one sentence can say it. */
  fix?: string;
  /** A NIST rule's constraint as the metaschema writes it: context definition, target and test in Metapath. */
  metapath?: string;
  /** Why the rule exists, where its source says: the constraint's remarks (or a NIST message saying more than the description), in plain text. */
  remarks?: string;
  /** A failing example, verified to make the rule report: where the finding points, and what the document holds there. */
  example?: RuleExample;
  /** Present (false) for a rule that can never report on a document the schema layer accepted, so that none has an example. */
  reachable?: false;
  /** Why such a rule can never report, in one sentence. */
  unreachableReason?: string;
}

export interface RuleExample {
  /** The finding's JSON Pointer in the example's document. */
  pointer: string;
  /** The object at the pointer (or holding the value there), trimmed to what matters, as pretty-printed JSON. */
  fragment: string;
}

// Manifest sources are "ours:<name>" for our rules, the constraint id for NIST constraints that have one, and
// "<module>:<context> <kind> target=..." (with a space) for NIST constraints without one. Pack rules name their pack
// (`set`) and their constraint id.
function entry(rule: (typeof manifest.semanticRules)[number]): RuleCatalogEntry {
  const pack = "set" in rule ? rule.set : undefined;
  const set: RuleSet = pack ?? (rule.source.startsWith("ours:") ? "ours" : "nist");
  const constraintId = pack !== undefined || (set === "nist" && !/\s/.test(rule.source)) ? rule.source : undefined;
  return {
    id: rule.id,
    ...(constraintId === undefined ? {} : { constraintId }),
    set,
    severity: rule.severity as Severity,
    defaultOn: rule.defaultOn,
    level: "full",
    keyword: rule.keyword,
    models: rule.models as Model[],
    description: rule.description,
    ...("fix" in rule && rule.fix !== undefined ? { fix: rule.fix } : {}),
    ...("metapath" in rule && rule.metapath !== undefined ? { metapath: rule.metapath } : {}),
    ...("remarks" in rule && rule.remarks !== undefined ? { remarks: rule.remarks } : {}),
    ...("example" in rule && rule.example !== undefined ? { example: rule.example } : {}),
    ...("unreachable" in rule && rule.unreachable !== undefined ? { reachable: false as const, unreachableReason: unreachableReason(rule.unreachable) } : {}),
  };
}

function unreachableReason(unreachable: { reason: string; schemaEnum?: string; schemaProperty?: string }): string {
  if (unreachable.reason === "schema-enum") return `The JSON schema enforces this list first (the enum at ${unreachable.schemaEnum} in the complete schema), so this rule reports only if the schema layer is bypassed.`;
  if (unreachable.reason === "schema-single") return `The JSON schema allows this member only once (a single object at ${unreachable.schemaProperty} in the complete schema), so no two can be the same unless the schema layer is bypassed.`;
  return "This rule lists known values and never reports alone: another value is allowed, or reported by a stricter rule for the same node.";
}

const TEXT_RULE_DESCRIPTIONS: Record<(typeof JSON_RULES)[keyof typeof JSON_RULES]["ruleId"], string> = {
  "JSON-001.a": "A member name appears only once per object (JSON parsers disagree on which of repeated members counts).",
  "JSON-002.a": "Strings and names hold no unpaired surrogate escape (not a character, and not representable in UTF-8 or XML).",
  "JSON-003.a": "Strings and names hold no U+0000 or other C0 control character but tab, LF and CR (XML 1.0, and so OSCAL, excludes them).",
};

const TEXT_RULE_FIXES: Record<(typeof JSON_RULES)[keyof typeof JSON_RULES]["ruleId"], string> = {
  "JSON-001.a": "Keep one member of that name in the object, with the value you mean.",
  "JSON-002.a": "Write the character the escape was meant to be, or remove the escape (a surrogate escape needs its pair).",
  "JSON-003.a": "Remove the control character, or replace it with a space or a line break.",
};

/** A catalog's metadata as text (JSON.parse reads it without complaint), each reported at its title. */
export const TEXT_RULE_EXAMPLES: Record<(typeof JSON_RULES)[keyof typeof JSON_RULES]["ruleId"], RuleExample> = {
  "JSON-001.a": { pointer: "/catalog/metadata/title", fragment: textRuleFragment('"title": "Catalog",\n  "title": "Catalog, again"') },
  "JSON-002.a": { pointer: "/catalog/metadata/title", fragment: textRuleFragment('"title": "Half a pair: \\ud800"') },
  "JSON-003.a": { pointer: "/catalog/metadata/title", fragment: textRuleFragment('"title": "A bell: \\u0007"') },
};

function textRuleFragment(title: string): string {
  return `{\n  ${title},\n  "last-modified": "2024-01-01T00:00:00Z",\n  "version": "1.0",\n  "oscal-version": "1.2.2"\n}`;
}

/** What JSON.parse lets through: checked on every document's text at both levels, always on. */
const TEXT_RULES: readonly RuleCatalogEntry[] = Object.values(JSON_RULES).map((rule) => ({
  id: rule.ruleId,
  set: "ours",
  severity: "error",
  defaultOn: true,
  level: "schema",
  keyword: rule.keyword,
  models: [...MODELS],
  description: TEXT_RULE_DESCRIPTIONS[rule.ruleId],
  fix: TEXT_RULE_FIXES[rule.ruleId],
  example: TEXT_RULE_EXAMPLES[rule.ruleId],
}));

/** Every semantic rule, in the manifest's (append-only id) order, then the JSON text rules. */
export const RULE_CATALOG: readonly RuleCatalogEntry[] = [...manifest.semanticRules.map(entry), ...TEXT_RULES];
