// The CLI over a tree: wall time with --jobs 1 (in-process) against the default and --jobs 2, at both levels, spawns
// alternated so that all three see the same load on a shared machine; medians. The tree is the corpus
// (../shared/corpus), copied OSCAL_BENCH_COPIES times (default 1); OSCAL_BENCH_RUNS sets the spawns per figure
// (default 5). Run with `npx tsx bench/cli-tree.ts` after `make build`. The default and --jobs 2 start a second thread
// only for 128 MB of input or more and only on a core the load average leaves idle (runtime/cli/worker-pool.ts), so
// on a small tree or a busy machine all three run in-process, and their ratios show the noise of the machine.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { corpusDir, listCorpus, repoRoot } from "../test/helpers/corpus.js";
import { threadCount } from "../runtime/cli/worker-pool.js";
import { timeSpawnsAlternated } from "./timing.js";

/** The corpus copied `copies` times into a temporary directory; its files. */
function buildTree(copies: number): { root: string; files: string[] } {
  const root = mkdtempSync(path.join(tmpdir(), "oscal-cli-tree-"));
  const corpus = listCorpus();
  const files: string[] = [];
  for (let copy = 0; copy < copies; copy++) {
    cpSync(corpusDir(), path.join(root, `copy-${copy}`), { recursive: true, filter: (source) => !source.endsWith(".md") });
    files.push(...corpus.map((document) => path.join(root, `copy-${copy}`, document.file)));
  }
  return { root, files };
}

const load = () => loadavg()[0]!.toFixed(2);

function main(): void {
  const runs = Number(process.env.OSCAL_BENCH_RUNS ?? 5);
  const copies = Number(process.env.OSCAL_BENCH_COPIES ?? 1);
  const cli = path.join(repoRoot, "dist/runtime/cli/oscal-validate-bin.cjs");
  const { root: tree, files } = buildTree(copies);
  try {
    const bytes = listCorpus().reduce((sum, document) => sum + document.size, 0) * copies;
    process.stdout.write(
      `tree: the corpus x${copies}, ${files.length} files, ${(bytes / 1e6).toFixed(0)} MB; ${availableParallelism()} cores; median of ${runs} spawns each, alternated\n` +
        `load average (1 min) at the start: ${load()}; the default would start ${threadCount(files, undefined)} thread(s), --jobs 2 ${threadCount(files, 2)}\n`,
    );
    for (const level of ["schema", "full"]) {
      const args = (jobs: string[]) => [cli, "--level", level, "--format", "json", ...jobs, tree];
      // The corpus holds invalid documents, so the expected status is whatever the first run says; its summary line
      // shows that it validated the tree rather than failed early with the same status.
      const first = spawnSync(process.execPath, args(["--jobs", "1"]), { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
      const summary = /^oscal-validate: (\d+) files?: .*$/m.exec(first.stderr);
      if (summary === null || Number(summary[1]) === 0) throw new Error(`the CLI did not validate the tree: ${first.stderr.slice(0, 500)}`);
      process.stdout.write(`level ${level}, first run: ${summary[0]}\n`);
      const expectedStatus = first.status ?? 0;
      const timings = timeSpawnsAlternated(runs, { one: args(["--jobs", "1"]), byDefault: args([]), two: args(["--jobs", "2"]) }, expectedStatus);
      const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      const ratio = (ms: number) => `${(ms / timings.one.median).toFixed(2)}x`;
      process.stdout.write(
        `level ${level}: --jobs 1 ${seconds(timings.one.median)}, default ${seconds(timings.byDefault.median)} (${ratio(timings.byDefault.median)} of --jobs 1's time), ` +
          `--jobs 2 ${seconds(timings.two.median)} (${ratio(timings.two.median)})\n`,
      );
    }
    // Threads only help when the cores are free: the figures say how busy the machine was.
    process.stdout.write(`load average (1 min) at the end: ${load()}\n`);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

main();
