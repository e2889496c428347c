// The CLI over a tree of 500+ files: wall time with --jobs 1 (in-process) against the default (one thread per 32 MB
// of input, up to one per core), at both levels. Run with `npx tsx bench/cli-tree.ts` after `make build`;
// OSCAL_BENCH_RUNS sets the runs per figure (default 3), OSCAL_BENCH_FILES the tree size (default 504),
// OSCAL_BENCH_MAX_KIB leaves out larger documents. Each thread pays a fixed warm-up (loading and compiling the
// validators it meets), so the gain grows with the work per file: a tree of small documents stays on one thread.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { listCorpus, repoRoot } from "../test/helpers/corpus.js";
import { summarize, timeSpawns } from "./timing.js";

/** The corpus cycled into `fileCount` copies; returns the tree's root and size. */
function buildTree(fileCount: number, maxBytes: number): { root: string; bytes: number } {
  const root = mkdtempSync(path.join(tmpdir(), "oscal-cli-tree-"));
  const documents = listCorpus().filter((document) => document.size <= maxBytes);
  let bytes = 0;
  for (let index = 0; index < fileCount; index++) {
    const document = documents[index % documents.length]!;
    const target = path.join(root, `copy-${Math.floor(index / documents.length)}`, document.file);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(document.absolutePath, target);
    bytes += document.size;
  }
  return { root, bytes };
}

function main(): void {
  const runs = Number(process.env.OSCAL_BENCH_RUNS ?? 3);
  const fileCount = Number(process.env.OSCAL_BENCH_FILES ?? 504);
  const cli = path.join(repoRoot, "dist/runtime/cli/oscal-validate-bin.cjs");
  const maxKib = Number(process.env.OSCAL_BENCH_MAX_KIB ?? Number.POSITIVE_INFINITY);
  const { root: tree, bytes } = buildTree(fileCount, maxKib * 1024);
  try {
    const documents = Number.isFinite(maxKib) ? `corpus documents up to ${maxKib} KiB` : "the whole corpus";
    process.stdout.write(`tree: ${fileCount} files, ${(bytes / 1e6).toFixed(0)} MB, ${documents} cycled; ${availableParallelism()} cores; median of ${runs} runs\n`);
    for (const level of ["schema", "full"]) {
      const args = (jobs: string[]) => [cli, "--level", level, "--format", "json", ...jobs, tree];
      // The corpus holds invalid documents, so the expected status is whatever the first run says.
      const expectedStatus = spawnSync(process.execPath, args(["--jobs", "1"]), { stdio: "ignore" }).status ?? 0;
      // Alternated, so that both see the same load on a shared machine.
      const inProcessSamples: number[] = [];
      const threadedSamples: number[] = [];
      for (let run = 0; run < runs; run++) {
        inProcessSamples.push(timeSpawns(1, args(["--jobs", "1"]), expectedStatus).median);
        threadedSamples.push(timeSpawns(1, args([]), expectedStatus).median);
      }
      const inProcess = summarize(inProcessSamples);
      const threaded = summarize(threadedSamples);
      process.stdout.write(
        `level ${level}: --jobs 1 ${(inProcess.median / 1000).toFixed(2)} s, default --jobs ${(threaded.median / 1000).toFixed(2)} s: ` +
          `${(inProcess.median / threaded.median).toFixed(2)}x faster\n`,
      );
    }
    // Threads only help when the cores are free: with other busy processes, the scheduler's share for this one caps
    // the gain, so the figures say how busy the machine was.
    process.stdout.write(`load average (1 min) at the end: ${loadavg()[0]!.toFixed(2)}\n`);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

main();
