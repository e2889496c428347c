// Every finding of the semantic layer (NIST's constraints, every rule on) and of every rule pack, with each pack's
// results per rule, on the corpus, FedRAMP's content files (with and without the documents they import) and a generated
// large SSP: one JSON line per document. To check that a change to the constraint compiler or its run time changes no
// verdict, write them before the change and compare after it.
//   npx tsx scripts/pack-reports.ts --write before.jsonl   (on the old build)
//   npx tsx scripts/pack-reports.ts --compare before.jsonl (on the new build: exit 1 and the first differing line)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import manifest from "#generated/runtime-manifest.json" with { type: "json" };
import { PACK_NAMES } from "#generated/packs/index.js";
import { detectModel } from "../runtime/core/model.js";
import { loadedPack, resolveSemanticRules, runRulePacks, runSemanticLayer } from "../runtime/core/semantic.js";
import { listCorpus } from "../test/helpers/corpus.js";
import { documentsOf, fedrampDir, readJson } from "../test/packs/fedramp-harness.js";
import { largeSsp } from "../test/packs/large-ssp.js";

const NOW = new Date("2026-06-01T00:00:00Z");

function resolved(rules: string[], packs: string[]) {
  const outcome = resolveSemanticRules(rules, packs);
  if (!outcome.ok) throw new Error(`cannot resolve the rules: ${JSON.stringify(outcome)}`);
  return outcome.active;
}
/** NIST's rules and ours, default-off ones included: no pack rule. */
const NIST_RULES = resolved(manifest.semanticRules.filter((rule) => !("set" in rule) || rule.set === "nist" || rule.set === "ours").map((rule) => rule.id), []);
/** The default rules and every pack, as `constraints=<every pack>` asks at level full. */
const WITH_PACKS = resolved([], [...PACK_NAMES]);

/** What a layer reports, or the error it throws (a fragment may be no model at all). */
function attempt<T>(run: () => T): T | { threw: string } {
  try {
    return run();
  } catch (error) {
    return { threw: String(error) };
  }
}

function reportLine(label: string, document: unknown, documents: Record<string, unknown> | undefined): string {
  const detected = detectModel(document);
  const model = detected.ok ? detected.model : undefined;
  const semantic = model === undefined ? undefined : attempt(() => runSemanticLayer(model, document, NIST_RULES));
  const withPacks = model === undefined ? undefined : attempt(() => runRulePacks(model, document, WITH_PACKS, { documents, now: NOW }));
  const packs = PACK_NAMES.map((name) => {
    const { program, runPack } = loadedPack(name);
    const { findings, results } = runPack(program, document, { active: () => true, documents, now: NOW });
    return {
      pack: name,
      results: results.map((result, rule) => [program.rules[rule]!.id, result.pass, result.fail, result.notEvaluated]),
      findings: findings.map((finding) => ({ rule: program.rules[finding.rule]!.id, keyword: finding.keyword, ...finding.describe() })),
    };
  });
  return JSON.stringify({ document: label, model, semantic, withPacks, packs });
}

function* reportLines(): Generator<string> {
  const content = readdirSync(path.join(fedrampDir, "content")).filter((name) => name.endsWith(".json")).sort();
  for (const name of content) {
    const relative = `content/${name}`;
    yield reportLine(`fedramp ${relative}`, readJson(relative), undefined);
    yield reportLine(`fedramp ${relative} with its documents`, readJson(relative), documentsOf(relative));
  }
  for (const { file, absolutePath } of listCorpus()) yield reportLine(`corpus ${file}`, JSON.parse(readFileSync(absolutePath, "utf8")), undefined);
  const large = largeSsp(200);
  yield reportLine("large SSP of 200 components", large.document, large.documents);
}

const [mode, file] = process.argv.slice(2);
if ((mode !== "--write" && mode !== "--compare") || file === undefined) {
  console.error("usage: npx tsx scripts/pack-reports.ts --write FILE | --compare FILE");
  process.exit(2);
}
const lines = [...reportLines()];
if (mode === "--write") {
  writeFileSync(file, `${lines.join("\n")}\n`);
  console.log(`${lines.length} reports written to ${file}`);
} else {
  const before = readFileSync(file, "utf8").split("\n").slice(0, -1);
  const differing = lines.findIndex((line, i) => line !== before[i]);
  if (differing >= 0 || before.length !== lines.length) {
    const at = differing >= 0 ? differing : Math.min(lines.length, before.length);
    console.error(`reports differ at line ${at + 1} of ${Math.max(lines.length, before.length)}:\nbefore: ${before[at]?.slice(0, 400)}\nafter:  ${lines[at]?.slice(0, 400)}`);
    process.exit(1);
  }
  console.log(`${lines.length} reports identical to ${file}`);
}
