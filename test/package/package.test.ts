// The package as a new user gets it: `npm pack` (whose prepack step rebuilds whatever is stale; under `make test` the
// build is already fresh), installed offline into an empty directory outside the repository by the same script the
// container image and the GitHub Action use. Then the installed bins, the library through its package name, and its
// TypeScript declarations, with no ../shared and no dev dependency reachable.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Validator, type Schema } from "@cfworker/json-schema";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../../compiler/paths.js";
import { PACKAGE_DOCS_URL, PACKAGE_NAME, PACKAGE_VERSION, versionLine } from "../../runtime/package-info.js";
import { corpusDir } from "../helpers/corpus.js";
import { dockerfileInstructions } from "./dockerfile.js";
import { parse as parseYaml } from "yaml";

interface PackResult {
  filename: string;
  size: number;
  files: { path: string }[];
}

const root = mkdtempSync(path.join(tmpdir(), "oscal-package-"));
const app = path.join(root, "app");
const bin = (name: string): string => path.join(app, "node_modules/.bin", name);
const installed = path.join(app, "node_modules/oscal-validator");
const corpusFile = path.join(root, "catalog.json");
/** An SSP fragment without a marking: FedRAMP's pack flags it (FRR-002.a), checking partial documents as FedRAMP does. */
const sspFragment = path.join(root, "ssp-fragment.json");
let packed: PackResult;

beforeAll(() => {
  // Nothing above the install may offer modules: Node would resolve a dev dependency from there.
  for (let dir = root; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "node_modules"))) throw new Error(`${dir}/node_modules would be reachable from the install`);
  }
  const output = execFileSync("npm", ["pack", "--json", "--pack-destination", root], { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  // prepack's make output precedes npm's JSON on stdout.
  packed = (JSON.parse(output.slice(output.indexOf("\n[") + 1)) as PackResult[])[0]!;
  execFileSync(path.join(repoRoot, "scripts/install-from-tarball.sh"), [path.join(root, packed.filename), app, "--offline"], { stdio: "pipe" });
  copyFileSync(path.join(corpusDir(), "catalog/oscal-content-basic-catalog.json"), corpusFile);
  writeFileSync(sspFragment, JSON.stringify({ "system-security-plan": { uuid: "12345678-1234-4321-8765-123456789012", metadata: { title: "Fragment" } } }));
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

function run(command: string, args: string[], input?: string) {
  const result = spawnSync(command, args, { cwd: app, encoding: "utf8", input, env: { ...process.env, KEYS_FILE: path.join(root, "keys.json") } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the tarball", () => {
  it("holds the compiled run time, the validation page's bundle, all generated code, README and LICENSE, and nothing else", () => {
    const files = packed.files.map((file) => file.path);
    console.log(`tarball ${packed.filename}: ${(packed.size / 1024).toFixed(0)} KiB packed, ${files.length} files`);
    expect(packed.size).toBeLessThan(4 * 1024 * 1024);
    expect(files).toEqual(expect.arrayContaining(["package.json", "README.md", "LICENSE", "dist/runtime/index.js", "dist/runtime/index.d.ts"]));
    expect(files).toEqual(expect.arrayContaining(["generated/models.js", "generated/models.d.ts", "generated/manifest.json", "generated/semantic.cjs"]));
    expect(files).toEqual(expect.arrayContaining(["generated/packs/index.js", "generated/packs/fedramp.cjs"]));
    for (const model of ["catalog", "profile", "system-security-plan"]) {
      expect(files).toEqual(expect.arrayContaining([`generated/validators/${model}.cjs`, `generated/validators/${model}.collect.cjs`, `generated/types/${model}.d.ts`]));
    }
    const bins = Object.values((JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { bin: Record<string, string> }).bin);
    expect(files).toEqual(expect.arrayContaining(bins.map((file) => path.normalize(file))));
    expect(files).toEqual(expect.arrayContaining(["dist/browser/bundle.json"]));
    expect(files.filter((file) => !/^(dist\/runtime\/|dist\/browser\/|generated\/|package\.json$|README\.md$|LICENSE$)/.test(file))).toEqual([]);
    expect(files.filter((file) => /\.ts$/.test(file) && !/\.d\.ts$/.test(file))).toEqual([]);
  });

  it("installs with only run-time dependencies, which cover every module the shipped code imports", () => {
    const manifest = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const imported = new Set<string>();
    const scan = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) scan(file);
        else if (/\.c?js$/.test(entry.name)) {
          for (const [, specifier] of readFileSync(file, "utf8").matchAll(/(?:from |import\(|require\()"([^".#][^"]*)"/g)) {
            if (specifier!.startsWith("node:") || specifier === PACKAGE_NAME) continue;
            imported.add(specifier!.split("/").slice(0, specifier!.startsWith("@") ? 2 : 1).join("/"));
          }
        }
      }
    };
    scan(path.join(installed, "dist"));
    scan(path.join(installed, "generated"));
    expect(imported.size).toBeGreaterThan(0);
    expect([...imported].filter((name) => !(name in manifest.dependencies))).toEqual([]);
    for (const tool of ["typescript", "vitest", "tsx", "ts-morph", "json-schema-to-typescript", "kubernetes-models"]) {
      expect(existsSync(path.join(app, "node_modules", tool)), tool).toBe(false);
    }
  });
});

/** Runs the Dockerfile's HEALTHCHECK command against a service on `port`; its exit status. */
function healthCheck(port: number): number | null {
  const instruction = dockerfileInstructions(readFileSync(path.join(repoRoot, "Dockerfile"), "utf8")).find((line) => line.keyword === "HEALTHCHECK")!;
  const command = instruction.argument.slice(instruction.argument.indexOf(" CMD ") + 5);
  return spawnSync("sh", ["-c", command], { env: { ...process.env, PORT: String(port) }, timeout: 10_000 }).status;
}

describe("the installed bins", () => {
  it("oscal-validate --format json gives the corpus document's verdict", () => {
    const { status, stdout, stderr } = run(bin("oscal-validate"), ["--format", "json", "--level", "full", corpusFile]);
    expect(stderr).toMatch(/^oscal-validate: 1 file: 1 valid, 0 invalid, 0 not validated; 0 errors, 0 warnings; \d+\.\d\d s\n$/);
    expect(status).toBe(0);
    const [report] = JSON.parse(stdout) as Record<string, unknown>[];
    expect(report).toMatchObject({ file: corpusFile, valid: true, model: "catalog", level: "full", oscalVersion: "1.1.2" });
  });

  it("oscal-validate --constraints fedramp runs FedRAMP's rule pack", () => {
    const { status, stdout } = run(bin("oscal-validate"), ["--format", "json", "--level", "full", "--constraints", "fedramp", sspFragment]);
    expect(status).toBe(1);
    const [report] = JSON.parse(stdout) as { issues: { ruleId: string }[] }[];
    expect(report!.issues).toContainEqual(expect.objectContaining({ ruleId: "FRR-002.a", keyword: "expect" }));
  });

  it("every bin prints its version line", () => {
    for (const name of ["oscal-validate", "oscal-keys", "oscal-validator-server"]) {
      const { status, stdout } = run(bin(name), ["--version"]);
      expect(status).toBe(0);
      expect(stdout).toBe(`${versionLine(name)}\n`);
    }
  });

  it("oscal-validator-server --help lists every setting of the README", () => {
    const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("### Settings"), readme.indexOf("\n#", readme.indexOf("### Settings") + 1));
    const settings = [...table.matchAll(/^\| (.+?) \|/gm)].flatMap(([, cell]) => [...cell!.matchAll(/`([A-Z_]+)`/g)].map(([, name]) => name!));
    expect(settings.length).toBeGreaterThan(15);
    const { status, stdout } = run(bin("oscal-validator-server"), ["--help"]);
    expect(status).toBe(0);
    for (const name of settings) expect(stdout).toMatch(new RegExp(`^  ${name} `, "m"));
  });

  it("oscal-keys creates and lists a key in KEYS_FILE", () => {
    const created = run(bin("oscal-keys"), ["create", "--label", "package-test"]);
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^sk_oscal_[0-9a-f]{16}_/);
    expect(run(bin("oscal-keys"), ["list"]).stdout).toContain("package-test");
  });

  it("oscal-validator-server serves on the port PORT=0 picked and validates a document; the image's health check passes", async () => {
    const child = spawn(bin("oscal-validator-server"), [], {
      cwd: app,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", WORKERS: "1", KEYS_FILE: path.join(root, "keys.json") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line:\n${output}`)), 20_000);
        child.stdout.on("data", () => {
          const match = /"event":"listening","port":(\d+)/.exec(output);
          if (match) resolve(Number(match[1]));
          if (match) clearTimeout(timer);
        });
      });
      const response = await fetch(`http://127.0.0.1:${port}/api/oscal/v1/validate?level=full`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: readFileSync(corpusFile),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ valid: true, model: "catalog", level: "full" });
      expect(healthCheck(port)).toBe(0);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(healthCheck(Number(/"event":"listening","port":(\d+)/.exec(output)![1]))).toBe(1);
  });
});

describe("the library through the package name", () => {
  it("ESM import validates bytes, a string and an object, and answers bad input with a typed error", () => {
    writeFileSync(
      path.join(app, "check.mjs"),
      `import { readFileSync } from "node:fs";
import { validate, isCatalogDocument, PACKAGE_VERSION } from "oscal-validator";
const bytes = readFileSync(process.argv[2]);
const text = bytes.toString("utf8");
const results = {
  bytes: validate(bytes, { level: "full" }),
  string: validate(text),
  object: validate(JSON.parse(text)),
  invalidUtf8: validate(Uint8Array.of(0x7b, 0xff)),
  notJson: validate("{"),
  badOption: validate(text, { level: 3 }),
  notAValue: validate(() => {}),
  fedramp: validate(readFileSync(process.argv[3]), { level: "full", constraints: ["fedramp"] }),
  guard: isCatalogDocument(JSON.parse(text)),
  version: PACKAGE_VERSION,
};
process.stdout.write(JSON.stringify(results));
`,
    );
    const { status, stdout, stderr } = run(process.execPath, ["check.mjs", corpusFile, sspFragment]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const results = JSON.parse(stdout) as Record<string, { kind: string; report?: Record<string, unknown>; error?: Record<string, unknown> }>;
    expect(results.bytes!.report).toMatchObject({ valid: true, model: "catalog", level: "full", complete: true });
    for (const form of ["string", "object"]) expect(results[form]!.report).toMatchObject({ valid: true, model: "catalog", level: "schema", issueCount: 0 });
    expect(results.invalidUtf8).toMatchObject({ kind: "error", error: { code: "ERR_INVALID_UTF8" } });
    expect(results.notJson).toMatchObject({ kind: "error", error: { code: "ERR_INVALID_JSON", line: 1 } });
    expect(results.badOption).toMatchObject({ kind: "error", error: { code: "ERR_UNSUPPORTED_PARAMETER", parameter: "level" } });
    expect(results.notAValue).toMatchObject({ kind: "error", error: { code: "ERR_INVALID_JSON" } });
    expect(results).toMatchObject({ guard: true, version: PACKAGE_VERSION });
    expect(results.fedramp!.report!.issues).toContainEqual(expect.objectContaining({ ruleId: "FRR-002.a" }));
  });

  it("the README's library example runs as written", () => {
    const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("\n## Library\n"));
    const example = /```js\n([\s\S]*?)```/.exec(section)![1]!;
    writeFileSync(path.join(app, "readme-example.mjs"), example);
    expect(run(process.execPath, ["readme-example.mjs", corpusFile])).toEqual({ status: 0, stdout: "catalog: valid\n", stderr: "" });
    const broken = path.join(root, "broken.json");
    writeFileSync(broken, JSON.stringify({ catalog: { uuid: "not-a-uuid" } }));
    const invalid = run(process.execPath, ["readme-example.mjs", broken]);
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toMatch(/^catalog: invalid\nerror \/catalog: .* \[nist-schema:1\.2\.2:catalog:required:/);
  });

  it("require() loads it too (Node 20.19+ requires ES modules without top-level await)", () => {
    writeFileSync(path.join(app, "check.cjs"), `const { validate } = require("oscal-validator");\nprocess.stdout.write(validate("{}").error.code);\n`);
    const { status, stdout, stderr } = run(process.execPath, ["check.cjs"]);
    expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: "ERR_UNKNOWN_MODEL", stderr: "" });
  });

  it("type-checks against the installed declarations, which reject a wrong option", () => {
    const tsc = path.join(repoRoot, "node_modules/typescript/bin/tsc");
    const flags = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022"];
    writeFileSync(
      path.join(app, "good.mts"),
      `import { validate, isCatalogDocument, type CatalogDocument, type ValidationResult, type ValidationIssue } from "oscal-validator";
const result: ValidationResult = validate(new Uint8Array(), { level: "full", rules: ["CTL-005.a"] });
const issues: ValidationIssue[] = result.kind === "report" ? result.report.issues : [];
const code: string = result.kind === "error" ? result.error.code : "none";
const value: unknown = JSON.parse("{}");
const title: string | undefined = isCatalogDocument(value) ? (value satisfies CatalogDocument).catalog.metadata.title : undefined;
export { issues, code, title };
`,
    );
    writeFileSync(path.join(app, "bad.mts"), `import { validate } from "oscal-validator";\nvalidate("{}", { level: "deep" });\n`);
    const good = run(process.execPath, [tsc, ...flags, "good.mts"]);
    expect(good.stdout + good.stderr).toBe("");
    expect(good.status).toBe(0);
    const bad = run(process.execPath, [tsc, ...flags, "bad.mts"]);
    expect(bad.stdout).toMatch(/bad\.mts\(2,\d+\): error TS2322: Type '"deep"' is not assignable/);
  });
});

describe("the GitHub Action's run step", () => {
  const workspace = path.join(root, "workspace");
  const action = parseYaml(readFileSync(path.join(repoRoot, "action.yml"), "utf8")) as {
    inputs: Record<string, { default?: string; required?: boolean }>;
    runs: { using: string; steps: { run?: string; env?: Record<string, string> }[] };
  };

  function runAction(inputs: Record<string, string>) {
    const outputFile = path.join(root, `github-output-${Math.random().toString(36).slice(2)}`);
    writeFileSync(outputFile, "");
    const env: NodeJS.ProcessEnv = { ...process.env, GITHUB_WORKSPACE: workspace, GITHUB_OUTPUT: outputFile, RUNNER_TEMP: root, npm_config_offline: "true" };
    for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase().replaceAll("-", "_")}`] = value;
    const result = spawnSync(path.join(repoRoot, "scripts/action-run.sh"), [], { cwd: root, env, encoding: "utf8" });
    const outputs = Object.fromEntries(readFileSync(outputFile, "utf8").trim().split("\n").filter(Boolean).map((line) => line.split("=", 2) as [string, string]));
    return { status: result.status, stderr: result.stderr, outputs };
  }

  beforeAll(() => {
    mkdirSync(path.join(workspace, "oscal/profiles"), { recursive: true });
    copyFileSync(corpusFile, path.join(workspace, "oscal/catalog.json"));
    writeFileSync(path.join(workspace, "oscal/profiles/broken.json"), JSON.stringify({ catalog: { uuid: "not-a-uuid" } }));
  });

  it("action.yml passes every input to the script, which it runs from the action's own checkout", () => {
    expect(action.runs.using).toBe("composite");
    const step = action.runs.steps.find((candidate) => candidate.run !== undefined)!;
    expect(step.run).toContain("$GITHUB_ACTION_PATH/scripts/action-run.sh");
    const passed = Object.keys(action.inputs).filter((name) => name !== "node-version");
    expect(passed).toEqual(expect.arrayContaining(["paths", "package", "level", "format"]));
    for (const name of passed) expect(step.env![`INPUT_${name.toUpperCase().replaceAll("-", "_")}`]).toBe(`\${{ inputs.${name} }}`);
  });

  it("installs the tarball, validates the matched files and writes SARIF with workspace-relative locations", () => {
    const { status, stderr, outputs } = runAction({ paths: "oscal/**/*.json", package: path.join(root, packed.filename) });
    expect(status, stderr).toBe(1);
    expect(outputs).toEqual({ report: action.inputs.output!.default, "exit-code": "1" });
    const text = readFileSync(path.join(workspace, outputs.report!), "utf8");
    const sarif = JSON.parse(text) as {
      version: string;
      runs: { tool: { driver: { rules: { helpUri?: string; help: { text: string } }[] } }; results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    };
    // Help links name the rule pages the release workflow publishes for this version (it sets the package's homepage),
    // never a local service; a package that names no homepage, as this checkout's, gives its rules' help text only.
    expect(text).not.toContain("localhost");
    const { rules } = sarif.runs[0]!.tool.driver;
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      expect(rule.help.text).not.toBe("");
      if (PACKAGE_DOCS_URL === undefined) expect(rule.helpUri).toBeUndefined();
      else expect(rule.helpUri).toMatch(new RegExp(`^${PACKAGE_DOCS_URL.replaceAll(".", "\\.")}/docs/rules#`));
    }
    const schema = JSON.parse(readFileSync(path.join(corpusDir(), "../sarif/sarif-schema-2.1.0.json"), "utf8")) as Schema;
    expect(new Validator(schema, "4", false).validate(sarif).errors).toEqual([]);
    const uris = new Set(sarif.runs[0]!.results.flatMap((result) => result.locations.map((location) => location.physicalLocation.artifactLocation.uri)));
    expect([...uris]).toEqual(["oscal/profiles/broken.json"]);
  });

  it("passes constraints and documents on: FedRAMP's pack runs, reading the imported profile from the documents folder", () => {
    mkdirSync(path.join(workspace, "fedramp/baselines"), { recursive: true });
    writeFileSync(path.join(workspace, "fedramp/ssp.json"), JSON.stringify({ "system-security-plan": { uuid: "12345678-1234-4321-8765-123456789012", "import-profile": { href: "profile.json" } } }));
    writeFileSync(path.join(workspace, "fedramp/baselines/profile.json"), JSON.stringify({ profile: { uuid: "12345678-1234-4321-8765-123456789013", metadata: {}, imports: [] } }));
    const inputs = { paths: "fedramp/ssp.json", package: path.join(root, packed.filename), level: "full", constraints: "fedramp", format: "json", output: "fedramp.json" };
    const ruleIdsOf = (extra: Record<string, string>) => {
      const { status, stderr } = runAction({ ...inputs, ...extra });
      expect(status, stderr).toBe(1);
      const [report] = JSON.parse(readFileSync(path.join(workspace, "fedramp.json"), "utf8")) as { issues: { ruleId: string; keyword: string }[] }[];
      return report!.issues.map((issue) => `${issue.ruleId} ${issue.keyword}`);
    };
    // FRR-037.a: the imported profile is available. Without documents the SSP's folder is its package, which lacks
    // profile.json: the reference is broken, not unsupplied.
    expect(ruleIdsOf({}).filter((id) => id.startsWith("FRR-037.a"))).toEqual(["FRR-037.a expect"]);
    expect(ruleIdsOf({ documents: "fedramp/baselines" }).filter((id) => id.startsWith("FRR-037.a"))).toEqual([]);
  });

  it("with fail-on-invalid false an invalid document does not fail the step; a pattern matching nothing does", () => {
    const lenient = runAction({ paths: "oscal/**/*.json", package: path.join(root, packed.filename), "fail-on-invalid": "false", format: "json", output: "report.json" });
    expect(lenient.status, lenient.stderr).toBe(0);
    expect(lenient.outputs["exit-code"]).toBe("1");
    const entries = JSON.parse(readFileSync(path.join(workspace, "report.json"), "utf8")) as { file: string; valid?: boolean }[];
    expect(entries.map(({ file, valid }) => [file, valid])).toEqual([["oscal/catalog.json", true], ["oscal/profiles/broken.json", false]]);
    const nothing = runAction({ paths: "oscal/*.yaml", package: path.join(root, packed.filename) });
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toContain("::error::No file matches oscal/*.yaml");
  });
});
