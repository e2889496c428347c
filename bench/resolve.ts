// Profile resolution: FedRAMP's rev5 HIGH baseline resolved against the SP 800-53 rev5 catalog of the corpus, as a
// ratio to the decode + parse floor of the catalog measured in the same run. Goal: at most 3x the floor, reading and
// parsing both files included (what `oscal-validate resolve` does). The resolution alone, of documents already parsed,
// is shown for reference. Subjects alternate run by run, so that a change in the machine's speed hits them all.
// Run: npx tsx bench/resolve.ts   (OSCAL_CORPUS_DIR locates the corpus, OSCAL_BENCH_RUNS the number of runs)
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fileLoader, resolveProfile, type ResolveResult } from "../runtime/index.js";
import { controlEntries } from "../runtime/resolve/select.js";
import { corpusDir } from "../test/helpers/corpus.js";
import { decodeAndParse } from "./subjects.js";
import { CLOCK, goalLine, measureInterleaved, type Timing } from "./timing.js";

const PROFILE = path.join(corpusDir(), "profile/fedramp-rev5-high-baseline-profile.json");
const CATALOG = path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
/** The rlink of the profile's catalog resource, mapped to the corpus catalog as `--document HREF=FILE` does. */
const CATALOG_HREF = "NIST_SP-800-53_rev5_catalog.json";
const RUNS = Number(process.env.OSCAL_BENCH_RUNS ?? 30);
const WARM_UP = 5;
const GOAL = 3;

function controlsOf(result: ResolveResult): number {
  if (result.kind !== "catalog") throw new Error(`the benchmark's profile does not resolve: ${result.error.detail}`);
  return controlEntries(result.document.catalog as never).length;
}

const catalogBytes = new Uint8Array(readFileSync(CATALOG));
const fromFiles = (): ResolveResult =>
  resolveProfile(JSON.parse(readFileSync(PROFILE, "utf8")), {
    loader: fileLoader({ allowedDir: path.dirname(PROFILE), files: { [CATALOG_HREF]: CATALOG } }),
    uri: pathToFileURL(PROFILE).href,
  });
const parsedProfile = JSON.parse(readFileSync(PROFILE, "utf8"));
const parsedCatalog = decodeAndParse(catalogBytes);
const fromParsed = (): ResolveResult => resolveProfile(parsedProfile, { documents: { [CATALOG_HREF]: parsedCatalog } });

console.log(`${RUNS} rounds after ${WARM_UP} warm-up rounds (one run of each subject per round), node ${process.version}, ${CLOCK}`);
console.log(`${path.basename(PROFILE)} against ${path.basename(CATALOG)} (${(catalogBytes.length / 1e6).toFixed(2)} MB): ${controlsOf(fromFiles())} controls`);
const timings = measureInterleaved(RUNS, WARM_UP, {
  floor: () => void decodeAndParse(catalogBytes),
  files: () => void fromFiles(),
  parsed: () => void fromParsed(),
});
const cell = (timing: Timing) => `${timing.median.toFixed(1).padStart(9)} ${timing.p99.toFixed(1).padStart(9)} ${`${(timing.median / timings.floor.median).toFixed(2)}x`.padStart(12)}`;
console.log(`${"".padEnd(52)} ${"median ms".padStart(9)} ${"p99 ms".padStart(9)} ${"median/floor".padStart(12)}`);
console.log(`${"floor: the catalog's UTF-8 decode + JSON.parse".padEnd(52)} ${cell(timings.floor)}`);
console.log(`${"resolve, reading and parsing both files".padEnd(52)} ${cell(timings.files)}`);
console.log(`${"resolve, documents already parsed".padEnd(52)} ${cell(timings.parsed)}`);
console.log(goalLine(`resolving the HIGH baseline from files: at most ${GOAL}x the floor`, timings.files.median / timings.floor.median, GOAL));
