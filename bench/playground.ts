// The validation page's browser bundle: size of each chunk (raw and gzip, as served), what a catalog check at level
// full downloads, and the time from "Validate" to the verdict for the SP 800-53 catalog in headless Chromium, with a
// cold cache (a fresh browser context each run) and warm (the same page again). Needs `make build` and
// /usr/bin/chromium. Not part of the tests.
// Run: npx tsx bench/playground.ts   (OSCAL_BENCH_RUNS sets the number of runs)
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../compiler/paths.js";
import { launchBrowser } from "../test/browser/support.js";
import { startService } from "../test/http/support/service.js";
import { summarize } from "./timing.js";

const RUNS = Number(process.env.OSCAL_BENCH_RUNS ?? 5);
const BUNDLE = path.join(repoRoot, "dist/browser");
const CATALOG = path.join(repoRoot, "../shared/corpus/catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");

interface BundleIndex {
  page: string;
  worker: string;
  style: string;
  semantic: string;
  models: Record<string, string>;
  files: string[];
}

const bundle = JSON.parse(readFileSync(path.join(BUNDLE, "bundle.json"), "utf8")) as BundleIndex;
const size = (file: string) => ({ raw: statSync(path.join(BUNDLE, file)).size, gzip: statSync(path.join(BUNDLE, `${file}.gz`)).size });
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const row = (label: string, files: string[]) => {
  const total = files.map(size).reduce((sum, one) => ({ raw: sum.raw + one.raw, gzip: sum.gzip + one.gzip }), { raw: 0, gzip: 0 });
  console.log(`${label.padEnd(40)} ${kib(total.raw).padStart(12)} ${kib(total.gzip).padStart(12)}`);
};

console.log(`${"chunk".padEnd(40)} ${"raw".padStart(12)} ${"gzip".padStart(12)}`);
const modelFiles = new Set([...Object.values(bundle.models), bundle.semantic]);
const shared = bundle.files.filter((file) => !modelFiles.has(file) && !/^yaml-/.test(file));
row("page, style, worker, shared core", shared);
for (const file of bundle.files.filter((name) => /^yaml-/.test(name))) row("YAML reader (YAML only)", [file]);
row("semantic rules (full only)", [bundle.semantic]);
for (const [model, file] of Object.entries(bundle.models)) row(`model: ${model}`, [file]);
row("a catalog check at full, in all", [...shared, bundle.models.catalog!, bundle.semantic]);
row("the whole bundle", bundle.files);

const service = await startService("uws");
const browser = await launchBrowser();
try {
  const timeVerdict = async (page: import("playwright-core").Page): Promise<number> => {
    await page.setInputFiles("#file", CATALOG);
    await page.check('input[name="level"][value="full"]');
    const started = performance.now();
    await page.click("#submit");
    await page.waitForSelector("#verdict", { timeout: 120_000 });
    return performance.now() - started;
  };
  const cold: number[] = [];
  const warm: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(service.url("/validate"));
    cold.push(await timeVerdict(page));
    warm.push(await timeVerdict(page));
    await context.close();
  }
  const show = (label: string, samples: number[]) => console.log(`${label}: median ${summarize(samples).median.toFixed(0)} ms (${samples.map((ms) => ms.toFixed(0)).join(", ")})`);
  console.log(`\nSP 800-53 rev5 catalog (${kib(statSync(CATALOG).size)}), level full, in Chromium, ${RUNS} runs:`);
  show("first verdict, cold (fetch chunks, start worker)", cold);
  show("again on the same page (warm worker)", warm);
} finally {
  await browser.close();
  await service.stop();
}
