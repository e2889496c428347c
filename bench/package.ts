// An SSP checked with the baseline it imports: FedRAMP's example SSP at level full with FedRAMP's rule pack and ours
// (oscal-package), its MODERATE baseline profile resolved against the SP 800-53 rev5 catalog of the corpus in every
// run, as `oscal-validate --level full --constraints fedramp,oscal-package --document ...` does: the profile and the
// catalog are read and parsed, the profile resolved, the SSP validated. Goal: at most 2x the floor of the SSP and the
// catalog together (UTF-8 decode + JSON.parse of both, measured in the same run). Subjects alternate run by run.
// Run: npx tsx bench/package.ts   (OSCAL_CORPUS_DIR locates the corpus, OSCAL_BENCH_RUNS the number of runs)
import { readFileSync } from "node:fs";
import path from "node:path";
import { validate } from "../runtime/index.js";
import { corpusDir } from "../test/helpers/corpus.js";
import { fedrampDir } from "../test/packs/fedramp-harness.js";
import { decodeAndParse } from "./subjects.js";
import { CLOCK, goalLine, measureInterleaved, type Timing } from "./timing.js";

const SSP = path.join(fedrampDir, "content/fedramp-ssp-example.json");
const PROFILE = path.join(fedrampDir, "resources/FedRAMP_rev5_MODERATE-baseline_profile.json");
const CATALOG = path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
/** The SSP's import-profile href and the profile's catalog rlink, as written in the documents. */
const PROFILE_HREF = "../../../baselines/xml/FedRAMP_rev5_MODERATE-baseline_profile.xml";
const CATALOG_HREF = "https://raw.githubusercontent.com/usnistgov/oscal-content/refs/tags/v1.3.0/nist.gov/SP800-53/rev5/xml/NIST_SP-800-53_rev5_catalog.xml";
const RUNS = Number(process.env.OSCAL_BENCH_RUNS ?? 20);
const WARM_UP = 3;
const GOAL = 2;
const NOW = new Date("2026-06-01T00:00:00Z");

const sspBytes = new Uint8Array(readFileSync(SSP));
const profileBytes = new Uint8Array(readFileSync(PROFILE));
const catalogBytes = new Uint8Array(readFileSync(CATALOG));

function checkWithBaseline() {
  const documents = { [PROFILE_HREF]: decodeAndParse(profileBytes), [CATALOG_HREF]: decodeAndParse(catalogBytes) };
  return validate(sspBytes, { level: "full", constraints: ["fedramp", "oscal-package"], documents, now: NOW });
}
const alone = () => validate(sspBytes, { level: "full", now: NOW });

const sample = checkWithBaseline();
if (sample.kind !== "report") throw new Error(`the example SSP gives no report: ${JSON.stringify(sample)}`);
const notEvaluated = sample.report.issues.filter((issue) => issue.message.startsWith("Not evaluated")).length;
if (notEvaluated > 0) throw new Error(`${notEvaluated} rules were not evaluated: the baseline did not reach the packs`);

console.log(`${RUNS} rounds after ${WARM_UP} warm-up rounds (one run of each subject per round), node ${process.version}, ${CLOCK}`);
console.log(`${path.basename(SSP)} (${(sspBytes.length / 1e6).toFixed(2)} MB), ${path.basename(PROFILE)}, ${path.basename(CATALOG)} (${(catalogBytes.length / 1e6).toFixed(2)} MB): ${sample.report.issueCount} findings`);
const timings = measureInterleaved(RUNS, WARM_UP, {
  floor: () => void (decodeAndParse(sspBytes), decodeAndParse(catalogBytes)),
  alone: () => void alone(),
  package: () => void checkWithBaseline(),
});
const cell = (timing: Timing) => `${timing.median.toFixed(1).padStart(9)} ${timing.p99.toFixed(1).padStart(9)} ${`${(timing.median / timings.floor.median).toFixed(2)}x`.padStart(12)}`;
console.log(`${"".padEnd(62)} ${"median ms".padStart(9)} ${"p99 ms".padStart(9)} ${"median/floor".padStart(12)}`);
console.log(`${"floor: decode + JSON.parse of the SSP and the catalog".padEnd(62)} ${cell(timings.floor)}`);
console.log(`${"the SSP alone at full (NIST's rules)".padEnd(62)} ${cell(timings.alone)}`);
console.log(`${"with its baseline resolved, FedRAMP's pack and ours".padEnd(62)} ${cell(timings.package)}`);
console.log(goalLine(`the SSP with its baseline: at most ${GOAL}x the floor`, timings.package.median / timings.floor.median, GOAL));
