// Bundles oscal-validate and its worker thread in the compiled runtime given as the only argument (make build passes
// dist.next/runtime): cli/oscal-validate.js and cli/validation-worker.js become one CommonJS file each (.cjs), which
// replaces them; so does constraints/runtime.js, the module NIST's and every rule pack's generated module require. A
// cold CLI process otherwise spends a good part of its start-up in the ES module loader, resolving, reading and linking
// module after module. What only some runs need (SARIF, YAML, the rule listing, --document) is in the bundle too, but
// evaluated on first use, and what it requires (the YAML parser, the 833 KB rule manifest) is required then. The
// generated ES modules (model loaders, WebAssembly, runtime manifest) are bundled; the generated CommonJS modules, the
// dependencies and the code cache stay outside, so there is one copy of each and the bin (cli/oscal-validate-bin.cjs)
// and the bundle share the code cache's state.
import { build } from "esbuild";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

if (process.argv.length !== 3) throw new Error("usage: node scripts/build-cli.mjs <compiled runtime directory>");
const runtime = path.resolve(process.argv[2]);
const cli = path.join(runtime, "cli");
// The bundle names its sources relative to this directory, in comments: same output from any cwd.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const generated = path.join(root, "generated");
const { name, version, homepage } = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
/** How runtime/package-info.ts reads package.json; the bundle holds the fields it uses instead. */
const PACKAGE_JSON_REQUIRE = 'createRequire(import.meta.url)("#package.json")';

/** Where a bundled file is in the installed package, relative to the bundle: generated/ beside dist/, as in package.json. */
function packagePath(file) {
  const inRuntime = path.relative(runtime, file);
  const installed = inRuntime.startsWith("..") ? file : path.join(root, "dist/runtime", inRuntime);
  return path.relative(path.join(root, "dist/runtime/cli"), installed).split(path.sep).join("/");
}

const packageLayout = {
  name: "package-layout",
  setup(bundle) {
    bundle.onResolve({ filter: /^#generated\/manifest\.json$/ }, (args) => ({ path: args.path, external: true }));
    bundle.onResolve({ filter: /^#runtime\/core\/code-cache\.cjs$/ }, () => ({ path: "../core/code-cache.cjs", external: true }));
    bundle.onResolve({ filter: /^#generated\// }, (args) => ({ path: path.join(generated, args.path.slice("#generated/".length)) }));
    // package.json's name, version and homepage are written into the bundle: resolving "#package.json" at run time loads the ES
    // module resolver, a few milliseconds of a cold process. Each module keeps its own import.meta.url, the URL of its
    // file in the package: files it names relative to itself (the generated CommonJS modules beside models.js, the
    // worker, the glob matcher) are found as without the bundle.
    bundle.onLoad({ filter: /\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (args.path === path.join(runtime, "package-info.js") && !source.includes(PACKAGE_JSON_REQUIRE)) {
        throw new Error(`${args.path} no longer reads package.json as ${PACKAGE_JSON_REQUIRE}: update scripts/build-cli.mjs`);
      }
      if (!source.includes("import.meta")) return undefined;
      const contents = source
        .replaceAll(PACKAGE_JSON_REQUIRE, JSON.stringify({ name, version, homepage }))
        .replaceAll("import.meta.url", `__packageFileUrl(${JSON.stringify(packagePath(args.path))})`);
      if (contents.includes("import.meta")) throw new Error(`${args.path}: only import.meta.url can be bundled as CommonJS`);
      return { contents, loader: "js" };
    });
  },
};

for (const entry of ["oscal-validate", "validation-worker"]) {
  const entryFile = path.join(cli, `${entry}.js`);
  await build({
    absWorkingDir: root,
    entryPoints: [entryFile],
    outfile: path.join(cli, `${entry}.cjs`),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20.19",
    packages: "external",
    banner: { js: 'const __packageFileUrl = (file) => require("node:url").pathToFileURL(require("node:path").join(__dirname, file)).href;' },
    plugins: [packageLayout],
    logLevel: "warning",
  });
  await rm(entryFile);
}

// The generated constraint checks (NIST's module and every rule pack's) require their run time (the helpers, the
// primitives and the engine) by name. As ES modules, the first check a process runs would start the ES module loader
// for them (some 35 ms of a cold CLI); as one CommonJS file, it is read and compiled at once.
const constraintRuntime = path.join(runtime, "constraints", "runtime.js");
await build({
  absWorkingDir: root,
  entryPoints: [constraintRuntime],
  outfile: path.join(runtime, "constraints", "runtime.cjs"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20.19",
  logLevel: "warning",
});
await rm(constraintRuntime);
