// Findings in words over every corpus document and FedRAMP's documents, at level full with the fedramp and
// oscal-package packs and every default-off rule on: messages name no Metapath, a semantic message quotes the value it
// is about, and every pointer resolves in the document its finding names. FedRAMP's documents come with the documents
// its harness supplies (a profile's pre-resolved catalog under the profile's href). FedRAMP's own messages, templates
// rendered, contain no Metapath: there are no exceptions to list.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import manifest from "../../generated/manifest.json" with { type: "json" };
import { excerpt } from "../../runtime/core/issue-bounds.js";
import { RULE_CATALOG } from "../../runtime/core/rule-catalog.js";
import type { ValidationIssue } from "../../runtime/core/report.js";
import { validate } from "../../runtime/index.js";
import { listCorpus, readCorpusBytes, repoRoot } from "../helpers/corpus.js";
import { resolvePointer } from "../helpers/json-pointer.js";
import { documentsOf, expected, fedrampDir, readJson } from "../packs/fedramp-harness.js";

const PACKS = ["fedramp", "oscal-package"];
const DEFAULT_OFF = RULE_CATALOG.filter((rule) => !rule.defaultOn).map((rule) => rule.id);
const NOW = new Date("2026-06-01T00:00:00Z");
const setOf = new Map(RULE_CATALOG.map((rule) => [rule.id, rule.set]));

/** Index names: NIST's from the manifest's index rules and references, the packs' from their constraint files. */
function indexNames(): Set<string> {
  const names = new Set<string>();
  for (const rule of manifest.semanticRules) {
    const metapath = "metapath" in rule ? (rule.metapath ?? "") : "";
    for (const match of metapath.matchAll(/(?:^index |to a key of index )([\w.-]+)/g)) names.add(match[1]!);
  }
  const packFiles = [
    path.join(fedrampDir, "constraints/fedramp-external-constraints.xml"),
    path.join(repoRoot, "compiler/packs/oscal-package/constraints.xml"),
  ];
  for (const file of packFiles) for (const match of readFileSync(file, "utf8").matchAll(/<index\b[^>]*\bname="([^"]+)"/g)) names.add(match[1]!);
  return names;
}

const INDEX_NAMES = indexNames();

/**
 * Metapath in the words of a message: its quoted values (JSON-style strings) and the pattern a matches rule names are
 * content, not words, and are left out first. "control(s)" is English.
 */
function metapathIn(message: string): string | undefined {
  const words = message.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/pattern \S+/g, "pattern");
  const syntax = /[[\]]|@[A-Za-z]|::|[\w)]\s*\|\s*[\w(]|\b[a-z][\w:-]*\((?!s\))|\$[A-Za-z]|\bindex-[a-z]|[a-z]-index\b/.exec(words)?.[0];
  return syntax ?? [...INDEX_NAMES].find((name) => words.includes(name));
}

/** The value a pointer names in a parsed document, or undefined when it names none. */
function at(document: unknown, pointer: string): unknown {
  const resolved = resolvePointer(document, pointer);
  return resolved.found ? resolved.value : undefined;
}

/**
 * Key flags of NIST's index, index-has-key and is-unique rules, from their Metapath ("refers (@href)", "keyed by @id",
 * "is unique by @href, @rel"): a finding on the object holding them is about their value. Keys with a field's value
 * (".") or a child's among their fields are left out: their JSON member is not a flag of the object.
 */
const KEY_FLAGS = new Map<string, string[]>();
for (const rule of manifest.semanticRules) {
  const metapath = "metapath" in rule ? rule.metapath : undefined;
  const fields = metapath && /(?:refers \(([^)]*)\)|keyed by (.*?), keys unique$|is unique by (.*))/.exec(metapath);
  if (!fields) continue;
  const names = (fields[1] ?? fields[2] ?? fields[3])!.split(/,\s*/);
  if (names.every((name) => /^@[\w-]+$/.test(name))) KEY_FLAGS.set(rule.id, names.map((name) => name.slice(1)));
}

/** How every layer's messages quote a value: a JSON string of the core's excerpt. */
const quoted = (value: string | number): string => JSON.stringify(excerpt(String(value)));

/** The kinds whose findings are about a value: the one found, or the key looked up or repeated. */
const VALUE_KINDS = new Set(["allowed-values", "matches", "index-has-key", "index", "is-unique", "uuid-unique", "fragment-href"]);

/**
 * Findings of those kinds with no value of the node to quote, by rule, and why. Exempt by kind, with nothing to quote:
 * has-cardinality (it counts an object's children), expect on an object or array (it judges the node as a whole), and
 * not-evaluated findings (the message says why the rule could not be judged).
 */
const NO_VALUE_OF_THE_NODE: Record<string, string> = {
  "SSP-009.a": "the provided UUID it looks up is missing, and the message says so",
  "FRR-031.a": "FedRAMP's key is a statement of the baseline, named by its template: \"Missing statement: (ac-1_smt.a)\"",
  "FRR-032.a": "FedRAMP's key is a parameter of the baseline, named by its template: \"(ac-1_prm_1)\"",
  "FRR-041.a": "FedRAMP's key is a control of the baseline, named by its template: \"Missing: (ac-1)\"",
  "FRR-042.a": "FedRAMP's key is the control-id, named by its template: \"Extraneous control: (unsupported-id)\"",
  "FRR-059.a": "FedRAMP's key is a party's role; its message names the roles it requires",
};

/** A field whose value OSCAL JSON writes as a member of its object, for the rules whose target is that value. */
const VALUE_MEMBER: Record<string, string> = { "MET-015.a": "number" };

/**
 * The value a finding is about, where it has one: its node when that is a string or a number (a flag or a field's
 * value), for NIST's key rules on the object holding the key flags their values as the key is quoted (several joined by
 * ", "), and a field's value member where the rule's target is the value.
 */
function valueOf(issue: ValidationIssue, node: unknown): string | number | undefined {
  if (issue.keyword === "not-evaluated") return undefined;
  if (typeof node === "string" || typeof node === "number") return node;
  if (node === null || typeof node !== "object") return undefined;
  const object = node as Record<string, unknown>;
  const member = VALUE_MEMBER[issue.ruleId];
  if (member !== undefined) return object[member] as string | undefined;
  const flags = KEY_FLAGS.get(issue.ruleId);
  if (flags === undefined) return undefined;
  const values = flags.map((flag) => object[flag]);
  if (values.every((value) => value === undefined || value === "")) return undefined;
  return values.map((value) => (value === undefined ? "" : String(value))).join(", ");
}

interface Source {
  name: string;
  /** What validate() is given (the corpus as bytes, as a file is read) and the same document parsed. */
  read: () => { input: Uint8Array | object; parsed: unknown };
  documents?: Record<string, unknown>;
}

function sources(): Source[] {
  const corpus = listCorpus().map(
    (document): Source => ({
      name: document.file,
      read: () => {
        const bytes = readCorpusBytes(document);
        return { input: bytes, parsed: JSON.parse(new TextDecoder().decode(bytes)) };
      },
    }),
  );
  const fedramp = Object.keys(expected)
    .sort()
    .map((content): Source => ({ name: content, read: () => ({ input: readJson(content) as object, parsed: readJson(content) }), documents: documentsOf(content) }));
  return [...corpus, ...fedramp];
}

/** One pass over every document, keeping only what the assertions need (the documents are large). */
function survey() {
  const seen = { findings: 0, semantic: 0, quotedValues: 0, packFindings: 0, elsewhere: 0 };
  const metapath: string[] = [];
  const unquoted: string[] = [];
  const unresolved: string[] = [];
  const valueless: string[] = [];
  const exempted = new Set<string>();
  for (const source of sources()) {
    const { input, parsed: document } = source.read();
    const outcome = validate(input, {
      level: "full",
      constraints: PACKS,
      rules: DEFAULT_OFF,
      now: NOW,
      maxIssues: Infinity,
      ...(source.documents === undefined ? {} : { documents: source.documents }),
    });
    if (outcome.kind !== "report") throw new Error(`${source.name}: ${outcome.error.code}`);
    for (const issue of outcome.report.issues) {
      const where = `${source.name} ${issue.ruleId} ${issue.path}`;
      seen.findings++;
      const syntax = metapathIn(issue.message);
      if (syntax !== undefined) metapath.push(`${where}: ${JSON.stringify(syntax)} in ${issue.message}`);
      let node = at(document, issue.path);
      if (node === undefined) unresolved.push(`${where}: path`);
      if (issue.document !== undefined) {
        seen.elsewhere++;
        const other = source.documents?.[issue.document];
        node = other === undefined ? undefined : at(other, issue.documentPath ?? "");
        if (node === undefined) unresolved.push(`${where}: ${issue.documentPath} in ${issue.document}`);
      }
      if (issue.ruleId.startsWith("nist-schema:")) continue;
      seen.semantic++;
      if (PACKS.includes(setOf.get(issue.ruleId) ?? "")) seen.packFindings++;
      const value = valueOf(issue, node);
      if (value === undefined) {
        if (issue.ruleId in NO_VALUE_OF_THE_NODE) exempted.add(issue.ruleId);
        else if (VALUE_KINDS.has(issue.keyword)) valueless.push(`${where} (${issue.keyword}): ${issue.message}`);
        continue;
      }
      seen.quotedValues++;
      if (!issue.message.includes(quoted(value))) unquoted.push(`${where} (${issue.keyword}): ${quoted(value)} not in ${issue.message}`);
    }
  }
  return { seen, metapath, unquoted, valueless, exempted, unresolved };
}

describe("findings in words, over the corpus and FedRAMP's documents with both packs and every rule on", () => {
  const { seen, metapath, unquoted, valueless, exempted, unresolved } = survey();

  it("cover semantic and pack findings, values and findings in imported documents", () => {
    expect(seen.semantic).toBeGreaterThan(10_000);
    expect(seen.packFindings).toBeGreaterThan(1_000);
    expect(seen.quotedValues).toBeGreaterThan(5_000);
    expect(seen.elsewhere).toBeGreaterThan(100);
  });

  it("name no Metapath outside quoted values and patterns", () => expect(metapath).toEqual([]));

  it("quote the value a semantic finding is about", () => expect(unquoted).toEqual([]));

  it("of a kind about a value have one, but for the rules listed with why, each of which occurs", () => {
    expect(valueless).toEqual([]);
    expect([...exempted].sort()).toEqual(Object.keys(NO_VALUE_OF_THE_NODE).sort());
  });

  it("point at nodes that exist in the document each finding names", () => expect(unresolved).toEqual([]));
});

describe("the Metapath check", () => {
  it("finds each kind of syntax and lets quoted values, patterns and English through", () => {
    const found = [
      'Value at prop[@name="x"] is wrong.',
      "The @href is wrong.",
      "child::part is wrong.",
      "control | group is wrong.",
      "has-oscal-namespace() failed.",
      "count(part) is 0.",
      "exists(x) is false.",
      "$imported-controls is empty.",
      "It needs index-imported-controls.",
      "It needs catalog-groups-controls-parts.",
    ].map(metapathIn);
    expect(found).toEqual(["[", "@h", "::", "l | g", "has-oscal-namespace(", "count(", "exists(", "$i", "index-i", "catalog-groups-controls-parts"]);
    const clean = [
      'The value "a[1] | @b::c(d) $e" is not allowed.',
      "The number \"1\" does not match the required pattern ^[0-9]{3}$.",
      "There MUST be one or more alternate data center(s).",
      "Missing parameter (ac-1_prm_1).",
    ].map(metapathIn);
    expect(clean).toEqual([undefined, undefined, undefined, undefined]);
  });
});
