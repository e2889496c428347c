// Every rule pack's results and findings on FedRAMP's content files (with and without the documents they import),
// the corpus and a generated large SSP, one JSON line per document and pack: to check that a change to the pack
// compiler or engine changes no verdict, write them before the change and compare after it.
//   npx tsx scripts/pack-reports.ts --write before.jsonl   (on the old build)
//   npx tsx scripts/pack-reports.ts --compare before.jsonl (on the new build: exit 1 and the first differing line)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PACK_NAMES, packModule } from "#generated/packs/index.js";
import { packProgram, runPack, type PackModule } from "../runtime/packs/engine.js";
import { listCorpus } from "../test/helpers/corpus.js";
import { documentsOf, fedrampDir, readJson } from "../test/packs/fedramp-harness.js";
import { largeSsp } from "../test/packs/large-ssp.js";

const NOW = new Date("2026-06-01T00:00:00Z");

function reportLine(label: string, document: unknown, documents: Record<string, unknown> | undefined): string {
  const packs = PACK_NAMES.map((name) => {
    const program = packProgram(packModule(name) as PackModule);
    const { findings, results } = runPack(program, document, { active: () => true, documents, now: NOW });
    return {
      pack: name,
      results: results.map((result, rule) => [program.rules[rule]!.id, result.pass, result.fail, result.notEvaluated]),
      findings: findings.map((finding) => ({ rule: program.rules[finding.rule]!.id, keyword: finding.keyword, ...finding.describe() })),
    };
  });
  return JSON.stringify({ document: label, packs });
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
