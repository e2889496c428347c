// The rule catalog's failing examples are true: each one's document, rebuilt from its base and patch, makes its rule
// report at the recorded pointer when validated at level full with every rule on (with the other documents it names, for
// pack rules that read an imported baseline, plan or SSP), and the fragment the catalog shows is what that document holds
// there.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatch } from "../../compiler/json-patch.js";
import { parsePointer } from "../../compiler/json-pointer.js";
import { RULE_EXAMPLES_FILE, loadRuleExamples } from "../../compiler/semantic/rule-examples.js";
import manifest from "#generated/manifest.json" with { type: "json" };
import { RULE_CATALOG, TEXT_RULE_EXAMPLES } from "../../runtime/core/rule-catalog.js";
import { validateText } from "../../runtime/core/validate.js";
import { readDocuments, resolveBase, validateWithEveryRule, type RuleExample } from "../helpers/rule-examples.js";
import { patchedSchemas } from "../helpers/patched-schemas.js";

const examples = Object.entries(JSON.parse(readFileSync(RULE_EXAMPLES_FILE, "utf8")) as Record<string, RuleExample>);

const bases = new Map<string, unknown>();
function rebuild({ base, patch }: RuleExample): unknown {
  if (!bases.has(base)) bases.set(base, resolveBase(base).read());
  const document = structuredClone(bases.get(base));
  applyPatch(document, patch);
  return document;
}

/** The object at `pointer`, or the nearest object holding it: what a fragment shows. */
function objectAt(document: unknown, pointer: string): unknown {
  const path = [document];
  for (const token of parsePointer(pointer)) {
    path.push((path.at(-1) as Record<string, unknown>)[token]);
  }
  while (path.length > 1 && (typeof path.at(-1) !== "object" || path.at(-1) === null || Array.isArray(path.at(-1)))) path.pop();
  return path.at(-1);
}

/** A fragment may leave members and entries out and cut long strings ("…"), but holds nothing the document does not. */
function isTrimmedFrom(fragment: unknown, actual: unknown): boolean {
  if (typeof fragment === "string" && fragment.endsWith("…")) return typeof actual === "string" && actual.startsWith(fragment.slice(0, -1));
  if (Array.isArray(fragment)) return Array.isArray(actual) && fragment.every((entry) => actual.some((item) => isTrimmedFrom(entry, item)));
  if (fragment !== null && typeof fragment === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    return Object.entries(fragment).every(([key, value]) => Object.hasOwn(actual, key) && isTrimmedFrom(value, (actual as Record<string, unknown>)[key]));
  }
  return fragment === actual;
}

describe("the rule catalog's failing examples", () => {
  it("name catalog rules, and the catalog shows each one's pointer and fragment", () => {
    expect(examples.length).toBeGreaterThan(0);
    const catalog = new Map(RULE_CATALOG.map((rule) => [rule.id, rule]));
    for (const [rule, example] of examples) expect(catalog.get(rule)?.example, rule).toEqual({ pointer: example.pointer, fragment: example.fragment });
    expect(RULE_CATALOG.filter((rule) => rule.example !== undefined)).toHaveLength(examples.length + Object.keys(TEXT_RULE_EXAMPLES).length);
  });

  it("stop the build when one names no rule or its fragment is not JSON", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rule-examples-"));
    try {
      const file = path.join(dir, "rule-examples.json");
      writeFileSync(file, JSON.stringify({ "NOPE-001.a": { pointer: "/catalog", fragment: "{}" } }));
      expect(() => loadRuleExamples(new Set(["MET-045.a"]), new Map(), file)).toThrow(/NOPE-001\.a, which is no rule/);
      writeFileSync(file, JSON.stringify({ "MET-045.a": { pointer: "/catalog", fragment: "{" } }));
      expect(() => loadRuleExamples(new Set(["MET-045.a"]), new Map(), file)).toThrow(SyntaxError);
      writeFileSync(file, JSON.stringify({ "MET-021.a": { pointer: "/catalog/metadata/parties/0/type", fragment: "{}" } }));
      expect(() => loadRuleExamples(new Set(["MET-021.a"]), new Map([["MET-021.a", { reason: "schema-enum", schemaEnum: "/definitions" }]]), file)).toThrow(/MET-021\.a, which the build found unreachable \(schema-enum\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(examples)("%s reports on its example at the recorded pointer, which holds the fragment", (rule, example) => {
    const document = rebuild(example);
    const report = validateWithEveryRule(document, example.documents === undefined ? undefined : readDocuments(example.documents));
    const reported = report.issues.filter((issue) => issue.ruleId === rule && issue.keyword !== "not-evaluated").map((issue) => issue.path);
    expect(reported).toContain(example.pointer);
    expect(isTrimmedFrom(JSON.parse(example.fragment), objectAt(document, example.pointer))).toBe(true);
  });

  it.each(Object.entries(TEXT_RULE_EXAMPLES))("%s reports on its example's text, the metadata of a catalog, at the recorded pointer", (rule, example) => {
    const text = `{"catalog": {"uuid": "11111111-2222-4333-8444-555555555555", "metadata": ${example.fragment}}}`;
    const outcome = validateText(text, { level: "full" });
    expect(outcome.kind === "report" && outcome.report.issues.map((issue) => [issue.ruleId, issue.path])).toEqual([[rule, example.pointer]]);
  });
});

describe("the rule catalog's rules that can never report", () => {
  const unreachable = manifest.semanticRules.flatMap((rule) => ("unreachable" in rule && rule.unreachable !== undefined ? [{ rule, unreachable: rule.unreachable as { reason: string; schemaEnum?: string; schemaProperty?: string } }] : []));
  const catalog = new Map(RULE_CATALOG.map((rule) => [rule.id, rule]));

  it("have no example, and the catalog says why in a sentence", () => {
    expect(unreachable.map(({ unreachable: { reason } }) => reason)).toEqual(expect.arrayContaining(["known-values", "schema-enum", "schema-single"]));
    for (const { rule, unreachable: { reason } } of unreachable) {
      expect(catalog.get(rule.id)?.example, rule.id).toBeUndefined();
      expect(catalog.get(rule.id)?.reachable, rule.id).toBe(false);
      const sentence = { "schema-enum": /^The JSON schema enforces this list first .*bypassed\.$/, "schema-single": /^The JSON schema allows this member only once .*bypassed\.$/, "known-values": /^This rule lists known values and never reports alone/ }[reason];
      expect(catalog.get(rule.id)?.unreachableReason, rule.id).toMatch(sentence!);
    }
    expect(RULE_CATALOG.filter((rule) => rule.reachable === false)).toHaveLength(unreachable.length);
  });

  it("are allowed-values rules that allow other values, which report nothing even beside stricter rules", () => {
    const knownValues = unreachable.filter(({ unreachable: { reason } }) => reason === "known-values").map(({ rule }) => rule);
    for (const rule of knownValues) expect([rule.keyword, rule.description], rule.id).toEqual(["allowed-values", expect.stringMatching(/never fails alone/)]);
    // MET-017.a shares its node with other rules: a location type no rule lists still makes none of them report.
    expect(knownValues.map((rule) => rule.id)).toContain("MET-017.a");
    const document = resolveBase("corpus:system-security-plan/oscal-cli-example-ssp-valid.json").read() as Record<string, Record<string, Record<string, unknown>>>;
    document["system-security-plan"]!.metadata!.locations = [{ uuid: "11111111-2222-4333-8444-000000000001", address: { "addr-lines": ["1 Main St"] }, props: [{ name: "type", value: "zz-unlisted" }] }];
    expect(validateWithEveryRule(document).issues.filter((issue) => issue.path.startsWith("/system-security-plan/metadata/locations"))).toEqual([]);
  });

  const complete = patchedSchemas().get("oscal_complete_schema.json")!;
  const schemaAt = (pointer: string) => {
    const tokens = parsePointer(pointer);
    return { tokens, node: tokens.reduce<unknown>((at, token) => (at as Record<string, unknown>)[token], complete) as { enum?: string[]; type?: string } };
  };

  it("or list exactly the values of the enum the patched JSON schema puts on the same property", () => {
    const schemaEnum = unreachable.filter(({ unreachable: { reason } }) => reason === "schema-enum");
    for (const { rule, unreachable: { schemaEnum: pointer } } of schemaEnum) {
      const { tokens, node } = schemaAt(pointer!);
      // The description lists the rule's values ("is one of 3 values: "a", "b", "c"."); the metapath names the property.
      const listed = [...rule.description.slice(rule.description.indexOf("values:")).matchAll(/"([^"]*)"/g)].map((quoted) => quoted[1]);
      expect([...(node.enum ?? [])].sort(), rule.id).toEqual(listed.sort());
      const property = /^\. in ([\w-]+) takes/.exec("metapath" in rule ? (rule.metapath ?? "") : "")?.[1];
      expect(tokens.filter((token, index) => tokens[index - 1] === "properties").at(-1), rule.id).toBe(property);
    }
  });

  it("or ask for unique members where the patched JSON schema allows one object", () => {
    const single = unreachable.filter(({ unreachable: { reason } }) => reason === "schema-single");
    for (const { rule, unreachable: { schemaProperty: pointer } } of single) {
      const { tokens, node } = schemaAt(pointer!);
      expect(node.type, rule.id).toBe("object");
      const member = /^([\w-]+) in [\w-]+ is unique by /.exec("metapath" in rule ? (rule.metapath ?? "") : "")?.[1];
      expect(tokens.at(-1), rule.id).toBe(member);
    }
  });
});
