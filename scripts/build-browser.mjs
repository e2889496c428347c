// Builds the validation page's browser bundle into the directory given as the only argument (make build puts it in
// dist/browser/): the page script, its stylesheet, the worker, a small shared core, and one chunk per model, one for
// the semantic rules and one per rule pack, each fetched only when a validation needs it. File names carry a content
// hash, so the service can let browsers cache them for good; bundle.json tells the service which file is which. Each
// file also gets a gzip copy (.gz), made here once rather than at every start of the service.
import { build } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.resolve(process.argv[2] ?? "");
if (process.argv.length !== 3) throw new Error("usage: node scripts/build-browser.mjs <output directory>");
const generated = path.join(root, "generated");
const browserSources = path.join(root, "runtime/browser");

/** The runtime manifest the core reads (validate.ts, semantic.ts). */
function coreManifest() {
  return JSON.parse(readFileSync(path.join(generated, "runtime-manifest.json"), "utf8"));
}

/** Points the core's node-only imports at their browser variants, and makes a module of each model's validators. */
const browserTargets = {
  name: "browser-targets",
  setup(bundle) {
    const aliases = {
      "node:buffer": path.join(browserSources, "node-buffer.ts"),
      "#generated/models.js": path.join(browserSources, "validator-registry.ts"),
      "#generated/packs/index.js": path.join(browserSources, "pack-registry.ts"),
      "#generated/semantic.cjs": path.join(generated, "semantic.cjs"),
      // The run time of the semantic checks and of every rule pack, which the core runs the packs with too, from its
      // source (dist/ is not compiled yet when the bundle is built): one copy in the bundle.
      "#runtime/constraints/runtime.cjs": path.join(root, "runtime/constraints/runtime.ts"),
    };
    const aliased = new RegExp(`^(${Object.keys(aliases).map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})$`);
    bundle.onResolve({ filter: aliased }, (args) => ({ path: aliases[args.path] }));
    // The core's SHA-256 loads node:crypto; its browser variant computes the hash itself.
    bundle.onResolve({ filter: /^\.\/sha256\.js$/ }, (args) =>
      path.dirname(args.importer) === path.join(root, "runtime/core") ? { path: path.join(browserSources, "sha256.ts") } : undefined,
    );
    bundle.onResolve({ filter: /^#generated\/runtime-manifest\.json$/ }, () => ({ path: "manifest", namespace: "core-manifest" }));
    bundle.onLoad({ filter: /.*/, namespace: "core-manifest" }, () => ({ contents: JSON.stringify(coreManifest()), loader: "json" }));
    // One chunk per rule pack: a module of loaders, one literal import each, so that the bundler splits them.
    bundle.onResolve({ filter: /^oscal-packs$/ }, () => ({ path: "packs", namespace: "oscal-packs" }));
    bundle.onLoad({ filter: /.*/, namespace: "oscal-packs" }, () => {
      const packNames = [...new Set(coreManifest().semanticRules.flatMap((rule) => (rule.set === undefined ? [] : [rule.set])))];
      const loaders = packNames.map((name) => `${JSON.stringify(name)}: () => import(${JSON.stringify(path.join(generated, "packs", `${name}.cjs`))})`);
      return { contents: `export default {${loaders.join(", ")}};\n`, resolveDir: root, loader: "js" };
    });
    bundle.onResolve({ filter: /^oscal-model:/ }, (args) => ({ path: args.path.slice("oscal-model:".length), namespace: "oscal-model" }));
    bundle.onLoad({ filter: /.*/, namespace: "oscal-model" }, (args) => {
      const file = (suffix) => JSON.stringify(path.join(generated, "validators", `${args.path}${suffix}`));
      return {
        contents: `import validators from ${file(".cjs")};\nimport collecting from ${file(".collect.cjs")};\nexport const validate = validators.validate;\nexport { collecting };\n`,
        resolveDir: root,
        loader: "js",
      };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    page: path.join(browserSources, "page.ts"),
    worker: path.join(browserSources, "worker.ts"),
    style: path.join(browserSources, "playground.css"),
  },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  legalComments: "none",
  charset: "utf8",
  entryNames: "[name]-[hash]",
  chunkNames: "[name]-[hash]",
  outdir,
  metafile: true,
  plugins: [browserTargets],
  logLevel: "warning",
});

const outputs = Object.entries(result.metafile.outputs).map(([file, output]) => ({ name: path.basename(file), output }));
const entry = (name) => outputs.find(({ output }) => output.entryPoint?.endsWith(`/${name}`))?.name;
const models = Object.fromEntries(
  outputs.flatMap(({ name, output }) => Object.keys(output.inputs).filter((input) => input.startsWith("oscal-model:")).map((input) => [input.slice("oscal-model:".length), name])).sort(([a], [b]) => a.localeCompare(b)),
);
const semantic = outputs.find(({ output }) => Object.keys(output.inputs).some((input) => input.endsWith("generated/semantic.cjs")))?.name;
const files = outputs.map(({ name }) => name).sort();
for (const name of files) writeFileSync(path.join(outdir, `${name}.gz`), gzipSync(readFileSync(path.join(outdir, name)), { level: 9 }));
const bundle = { page: entry("page.ts"), worker: entry("worker.ts"), style: entry("playground.css"), semantic, models, files };
writeFileSync(path.join(outdir, "bundle.json"), `${JSON.stringify(bundle, null, 2)}\n`);
