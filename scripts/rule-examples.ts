// Finds a failing example for each semantic rule and writes compiler/semantic/rule-examples.json, which the compiler
// carries into the rule catalog: `npx tsx scripts/rule-examples.ts` after `make generate`, then review the diff.
//
// Each example is a real document of the shared inputs (the corpus, FedRAMP's example SSP and its unit-test content)
// plus a JSON Patch of at most one change (after a repair of the base, for FedRAMP's example SSP): a string value
// outside any list, a member removed, an array entry removed or repeated, a property or facet added with a name or
// value no list holds. A base document's own findings are examples too (no change). Each document is validated at
// level full with every rule on (default-off rules and every pack); for each rule the change that makes the fewest
// other rules report, at the finding's node where there is a choice (the first such in a fixed order), is kept, with
// the pointer of one finding of the rule and what the document holds there. test/semantic/rule-examples.test.ts
// rebuilds every example and checks that its rule reports there. Rules that no single change reaches get a context
// built into a small document (scripts/rule-example-contexts.ts). The same inputs give the same file.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import manifest from "#generated/manifest.json" with { type: "json" };
import { applyPatch, type PatchOperation } from "../compiler/json-patch.js";
import { escapePointerToken, parsePointer } from "../compiler/json-pointer.js";
import { RULE_EXAMPLES_FILE } from "../compiler/semantic/rule-examples.js";
import { readDocuments, resolveBase, validateWithEveryRule, type RuleExample } from "../test/helpers/rule-examples.js";
import { listCorpus } from "../test/helpers/corpus.js";
import { MODELS } from "../runtime/core/report.js";
import { BUILT_CONTEXTS } from "./rule-example-contexts.js";

/** Corpus documents mutated per model, smallest first: small documents keep the run short and the fragments plain. */
const CORPUS_DOCUMENTS_PER_MODEL = 8;
const CORPUS_SIZE_LIMIT = 2_000_000;
/**
 * Values no allowed-values list holds, no reference names, and that break most datatypes (uri, date, integer); a UUID
 * stays a UUID, so that the schema still passes, and a fragment reference (`#...`) is also tried as one.
 */
const UNLISTED_VALUE = "zz-unlisted";
const OTHER_UUID = "11111111-2222-4333-8444-555555555555";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Base {
  /** How the test finds the document: `corpus:<model>/<file>` or `fedramp:<path under the FedRAMP folder>`. */
  base: string;
  /** Operations every example of the base starts with (a repair that lets the document pass the schema). */
  repair: PatchOperation[];
  mutate: boolean;
}

function bases(): Base[] {
  const fedrampContent = readFileSync(path.join(resolveBase("fedramp:expected.json").directory, "expected.json"), "utf8");
  const contentFiles = Object.keys(JSON.parse(fedrampContent) as Record<string, unknown>).sort();
  const corpus = listCorpus();
  const corpusBases = MODELS.flatMap((model) =>
    corpus
      .filter((document) => document.model === model && document.size <= CORPUS_SIZE_LIMIT)
      .sort((a, b) => a.size - b.size || a.file.localeCompare(b.file))
      .slice(0, CORPUS_DOCUMENTS_PER_MODEL)
      .map((document): Base => ({ base: `corpus:${document.file}`, repair: [], mutate: true })),
  );
  return [
    // FedRAMP's example SSP has one empty title, which stops the schema layer and so every NIST rule.
    { base: "fedramp:content/fedramp-ssp-example.json", repair: [{ op: "replace", path: "/system-security-plan/system-implementation/components/7/protocols/0/title", value: "HTTPS" }], mutate: true },
    ...corpusBases,
    ...contentFiles.filter((file) => file !== "content/fedramp-ssp-example.json").map((file): Base => ({ base: `fedramp:${file}`, repair: [], mutate: false })),
  ];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };


/**
 * One mutation per kind of node: nodes whose pointers differ only in array indexes (and, for objects with a `name`,
 * `rel`, `ns` or `system`, in neither) are one kind, so a document of thousands of controls costs as much as one control.
 */
function mutations(document: Json, additions: Additions): PatchOperation[][] {
  const seen = new Set<string>();
  const found: PatchOperation[][] = [];
  const once = (shape: string, operations: PatchOperation[]) => {
    if (seen.has(shape)) return;
    seen.add(shape);
    found.push(operations);
  };
  const walk = (node: Json, pointer: string, shape: string) => {
    if (typeof node === "string") {
      once(`${shape}=`, [{ op: "replace", path: pointer, value: UUID.test(node) ? OTHER_UUID : UNLISTED_VALUE }]);
      if (node.startsWith("#")) once(`${shape}=#`, [{ op: "replace", path: pointer, value: `#${UNLISTED_VALUE}` }]);
    } else if (Array.isArray(node)) {
      // Every wanted entry at once, in one change: the ones that make a rule report are then tried alone.
      const key = pointer.slice(pointer.lastIndexOf("/") + 1);
      if ((key === "props" || key === "facets") && additions[key].length > 0) {
        once(`${shape}@`, additions[key].map((value, index): PatchOperation => ({ op: "add", path: `${pointer}/${node.length + index}`, value })));
      }
      if (node.length > 0) {
        once(`${shape}-`, [{ op: "remove", path: `${pointer}/0` }]);
        once(`${shape}+`, [{ op: "copy", from: `${pointer}/0`, path: `${pointer}/1` }]);
      }
      node.forEach((item, index) => walk(item, `${pointer}/${index}`, `${shape}/*`));
    } else if (node !== null && typeof node === "object") {
      const discriminators = ["name", "rel", "ns", "system"].filter((key) => typeof node[key] === "string").map((key) => `[${key}=${node[key] as string}]`);
      const nodeShape = shape + discriminators.join("");
      for (const [key, value] of Object.entries(node)) {
        const memberPointer = `${pointer}/${escapePointerToken(key)}`;
        const memberShape = `${nodeShape}/${key}`;
        if (pointer !== "") once(`${memberShape}~`, [{ op: "remove", path: memberPointer }]);
        walk(value, memberPointer, memberShape);
      }
    }
  };
  walk(document, "", "");
  return found;
}

const FRAGMENT_MAX_LINES = 24;
const STRING_MAX_LENGTH = 100;

/** Where a change leaves its mark: the node it wrote, or the array or object it removed from. */
function changedPointer(change: readonly PatchOperation[]): string | undefined {
  const last = change.at(-1);
  if (last === undefined) return undefined;
  return last.op === "remove" ? last.path.slice(0, last.path.lastIndexOf("/")) : last.path;
}

function valueAt(document: Json, pointer: string): Json {
  return valueAtTokens(document, parsePointer(pointer));
}

function valueAtTokens(document: Json, pointerTokens: readonly string[]): Json {
  let node = document;
  for (const token of pointerTokens) node = (Array.isArray(node) ? node[Number(token)] : (node as Record<string, Json>)[token])!;
  return node;
}

/**
 * The object at `findingPointer` or holding it, trimmed: its scalar members, the branch down to what the change
 * touched, and (unless that is too long) the first entry of its other members, scalars only; long strings are cut.
 */
function exampleFragment(document: Json, findingPointer: string, change: readonly PatchOperation[]): string {
  // A value alone says little: show the object that holds it.
  const findingTokens = parsePointer(findingPointer);
  let holding = findingTokens.length;
  const isObject = (value: Json) => value !== null && typeof value === "object" && !Array.isArray(value);
  while (holding > 0 && !isObject(valueAtTokens(document, findingTokens.slice(0, holding)))) holding--;
  const pointer = findingTokens.slice(0, holding).map((token) => `/${escapePointerToken(token)}`).join("");
  const node = valueAtTokens(document, findingTokens.slice(0, holding));
  const changed = changedPointer(change);
  const branch = changed !== undefined && (changed === pointer || changed.startsWith(`${pointer}/`)) ? parsePointer(changed).slice(holding) : undefined;
  const trim = (value: Json, onBranch: string[] | undefined, depth: number, context: boolean): Json | undefined => {
    if (typeof value === "string") return value.length > STRING_MAX_LENGTH ? `${value.slice(0, STRING_MAX_LENGTH - 1)}…` : value;
    if (value === null || typeof value !== "object") return value;
    const next = onBranch?.[0];
    const keep = (key: string, member: Json): Json | undefined => {
      if (next === key) return trim(member, onBranch!.slice(1), depth + 1, context);
      if (member === null || typeof member !== "object") return trim(member, undefined, depth + 1, context);
      return context && depth === 0 ? trim(member, undefined, depth + 1, false) : undefined;
    };
    if (Array.isArray(value)) {
      const index = next === undefined ? 0 : Number(next);
      const kept = value[index] === undefined ? undefined : keep(String(index), value[index]!);
      return kept === undefined ? (onBranch === undefined ? undefined : []) : [kept];
    }
    const members = Object.entries(value).map(([key, member]) => [key, keep(key, member)] as const);
    return Object.fromEntries(members.filter(([, member]) => member !== undefined)) as Json;
  };
  const withContext = JSON.stringify(trim(node, branch, 0, true), null, 2);
  return withContext.split("\n").length <= FRAGMENT_MAX_LINES ? withContext : JSON.stringify(trim(node, branch, 0, false), null, 2);
}

/** Semantic findings of a validation (with the other documents named), as rule id → pointers (none when the schema layer failed). */
function findings(document: unknown, documents?: Readonly<Record<string, string>>): Map<string, string[]> {
  const report = validateWithEveryRule(document, documents === undefined ? undefined : readDocuments(documents));
  const byRule = new Map<string, string[]>();
  for (const issue of report.issues) {
    if (issue.keyword === "not-evaluated") continue;
    if (issue.ruleId.startsWith("nist-schema:")) continue;
    byRule.set(issue.ruleId, [...(byRule.get(issue.ruleId) ?? []), issue.path]);
  }
  return byRule;
}

/** Quoted values a Metapath compares a flag with: `@name='x'` or `@name=('x','y')`. */
function compared(metapath: string, flag: string): string[] {
  const tested = new RegExp(`@${flag}=(\\('[^)]*'\\)|'[^']*')`).exec(metapath)?.[1] ?? "";
  return [...tested.matchAll(/'([^']*)'/g)].map((quoted) => quoted[1]!);
}

interface Additions {
  props: Json[];
  facets: Json[];
}

/**
 * The properties and facets that rules still without an example test (`@name='x'`, `@system='y'` in their Metapath),
 * with a value no list holds; and entries whose name no list holds, for the rules on the names themselves.
 */
function additionsWanted(found: ReadonlyMap<string, unknown>): Additions {
  const names = new Set<string>([UNLISTED_VALUE]);
  const facets = new Set<string>();
  for (const rule of manifest.semanticRules) {
    if (found.has(rule.id) || !("metapath" in rule) || typeof rule.metapath !== "string") continue;
    const property = rule.metapath.indexOf("prop[");
    if (property >= 0) for (const name of compared(rule.metapath.slice(property), "name")) names.add(name);
    if (/ in facet /.test(rule.metapath)) {
      const facetNames = compared(rule.metapath, "name");
      for (const system of compared(rule.metapath, "system")) {
        for (const name of facetNames.length > 0 ? facetNames : [UNLISTED_VALUE]) facets.add(JSON.stringify({ name, system, value: UNLISTED_VALUE }));
      }
    }
  }
  return {
    props: [...names].sort().map((name) => ({ name, value: UNLISTED_VALUE })),
    facets: [...facets].sort().map((facet) => JSON.parse(facet) as Json),
  };
}

interface Candidate extends RuleExample {
  /**
   * Distinct rules the change makes report (the fewer, the plainer the example), after any change at the finding's
   * node: a change elsewhere leaves the fragment showing what is wrong but not what made it so.
   */
  score: number;
}

/** More than any count of rules: a change elsewhere is kept only when no change at the finding's node will do. */
const ELSEWHERE = 10_000;

function isAtFinding(change: readonly PatchOperation[], finding: string): boolean {
  const changed = changedPointer(change);
  return changed === undefined || changed === finding || changed.startsWith(`${finding}/`) || finding.startsWith(`${changed}/`);
}

/** The findings of known rules at pointers where the unchanged document had none of the rule's. */
function freshFindings(before: ReadonlyMap<string, string[]>, after: ReadonlyMap<string, string[]>, known: ReadonlySet<string>): Map<string, string[]> {
  const fresh = new Map<string, string[]>();
  for (const [rule, pointers] of after) {
    const earlier = new Set(before.get(rule) ?? []);
    const added = pointers.filter((pointer) => !earlier.has(pointer));
    if (added.length > 0 && known.has(rule)) fresh.set(rule, added);
  }
  return fresh;
}

function main(): void {
  const known = new Set(manifest.semanticRules.map((rule) => rule.id));
  const best = new Map<string, Candidate>();
  const offer = (rule: string, candidate: Candidate) => {
    const kept = best.get(rule);
    if (kept === undefined || candidate.score < kept.score) best.set(rule, candidate);
  };
  for (const { base, repair, mutate } of bases()) {
    const original = resolveBase(base).read() as Json;
    const repaired = structuredClone(original);
    applyPatch(repaired, repair);
    const baseline = findings(repaired);
    for (const [rule, pointers] of baseline) {
      if (!known.has(rule)) continue;
      offer(rule, { base, patch: repair, pointer: pointers[0]!, fragment: exampleFragment(repaired, pointers[0]!, []), score: baseline.size });
    }
    if (!mutate) continue;
    let tried = 0;
    /** Applies a change; a change of several operations only points to the single operations worth trying. */
    const attempt = (change: PatchOperation[]): PatchOperation[][] => {
      const document = structuredClone(repaired);
      applyPatch(document, change);
      const after = findings(document);
      tried++;
      const fresh = freshFindings(baseline, after, known);
      const narrower = new Set<PatchOperation>();
      for (const [rule, pointers] of fresh) {
        const kept = best.get(rule);
        if (kept !== undefined && kept.score <= fresh.size) continue;
        const covering = change.find((operation) => pointers[0] === operation.path || pointers[0]!.startsWith(`${operation.path}/`));
        if (change.length > 1 && covering !== undefined) narrower.add(covering);
        else offer(rule, { base, patch: [...repair, ...change], pointer: pointers[0]!, fragment: exampleFragment(document, pointers[0]!, change), score: fresh.size + (isAtFinding(change, pointers[0]!) ? 0 : ELSEWHERE) });
      }
      // Alone, an addition goes at the end of its array as it was.
      return [...narrower].map((operation) => {
        const array = operation.path.slice(0, operation.path.lastIndexOf("/"));
        return [{ ...operation, path: `${array}/${(valueAt(repaired, array) as Json[]).length}` }];
      });
    };
    const all = mutations(repaired, additionsWanted(best));
    for (const change of all) for (const narrower of attempt(change)) attempt(narrower);
    process.stderr.write(`${base}: ${tried} changes, ${best.size} rules with an example\n`);
  }
  // Contexts no single change of a real document adds, for the rules still without an example.
  // A context's other documents count as part of it: its findings are compared with the base's alone.
  const changedExamples = new Set(best.keys());
  const baseFindings = new Map<string, Map<string, string[]>>();
  for (const { base, patch, documents } of BUILT_CONTEXTS) {
    const original = resolveBase(base).read() as Json;
    if (!baseFindings.has(base)) baseFindings.set(base, findings(original));
    const document = structuredClone(original);
    applyPatch(document, patch);
    const fresh = freshFindings(baseFindings.get(base)!, findings(document, documents), known);
    for (const [rule, pointers] of fresh) {
      if (changedExamples.has(rule)) continue;
      const example = { base, patch, pointer: pointers[0]!, fragment: exampleFragment(document, pointers[0]!, patch), ...(documents === undefined ? {} : { documents }) };
      offer(rule, { ...example, score: fresh.size + (isAtFinding(patch, pointers[0]!) ? 0 : ELSEWHERE) });
    }
  }
  process.stderr.write(`${BUILT_CONTEXTS.length} built contexts: ${best.size} rules with an example\n`);
  const ordered = manifest.semanticRules.filter((rule) => best.has(rule.id)).map((rule) => {
    const { score: _, ...example } = best.get(rule.id)!;
    return [rule.id, example] as const;
  });
  writeFileSync(RULE_EXAMPLES_FILE, `${JSON.stringify(Object.fromEntries(ordered), null, 1)}\n`);
  process.stderr.write(`${ordered.length} of ${manifest.semanticRules.length} rules have an example\n`);
}

main();
