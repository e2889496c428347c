// Bundles oscal-validate and its worker thread in the compiled runtime given as the only argument (make build passes
// dist.next/runtime): each replaces tsc's file of the same name, so the bin's path does not change. A cold CLI process
// otherwise spends a good part of its start-up resolving and reading some thirty modules one by one. What only some runs
// need (SARIF, YAML, the rule listing, --document) stays in chunks loaded on first use, and the generated code, the
// runtime modules it requires and the dependencies stay outside the bundle, so there is one copy of each.
// The worker pool, which only the entry uses, stays in the entry file, where its URL of the worker file still points.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

if (process.argv.length !== 3) throw new Error("usage: node scripts/build-cli.mjs <compiled runtime directory>");
const cli = path.join(path.resolve(process.argv[2]), "cli");
// The bundle names its sources relative to this directory, in comments and in the chunk hashes: same output from any cwd.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

await build({
  absWorkingDir: root,
  entryPoints: [path.join(cli, "oscal-validate.js"), path.join(cli, "validation-worker.js")],
  outdir: cli,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20.19",
  packages: "external",
  external: ["#generated/*", "#runtime/*", "#package.json"],
  logLevel: "warning",
});
