// The CLI in an ordinary repository: package.json, tsconfig.json, node_modules and workflow files beside the OSCAL
// documents. The README's commands are run as written, from the repository's root.
import { describe, expect, it } from "vitest";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { INVALID_CATALOG, put, run, sarifSchemaErrors, tempDir, VALID_CATALOG } from "./support.js";

const root = tempDir("project");
put(root, "package.json", { name: "compliance", version: "1.0.0", scripts: { test: "oscal-validate ." } });
put(root, "package-lock.json", { name: "compliance", lockfileVersion: 3, packages: { "": { name: "compliance" } } });
put(root, "tsconfig.json", '{\n  // tsc allows comments\n  "compilerOptions": { "strict": true, "catalog": "not a model here" }\n}\n');
put(root, "node_modules/dep/package.json", { name: "dep" });
put(root, "node_modules/dep/catalog.json", INVALID_CATALOG);
put(root, ".github/workflows/ci.yml", "name: ci\non: push\njobs:\n  validate:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npx oscal-validate .\n");
put(root, "oscal/catalog.json", VALID_CATALOG);
put(root, "oscal/ssp/catalog-copy.yaml", stringify(VALID_CATALOG));
put(root, "oscal/ssp/$schema-first.json", { $schema: "https://example.com/oscal.json", ...VALID_CATALOG });
put(root, "oscal/drafts/invalid.json", INVALID_CATALOG);
put(root, "oscal/drafts/truncated.json", '{"catalog": {"uuid": ');
put(root, "oscal/mkdocs.yml", "site_name: compliance\nnav:\n  - catalog: catalog.md\n");

const DOCUMENTS = ["oscal/catalog.json", "oscal/drafts/invalid.json", "oscal/drafts/truncated.json", "oscal/ssp/$schema-first.json", "oscal/ssp/catalog-copy.yaml"];
const SKIPPED = ["oscal/mkdocs.yml", "package-lock.json", "package.json", "tsconfig.json"];

/** The files a JUnit report has a testcase for. */
function testcases(xml: string): string[] {
  return [...xml.matchAll(/<testcase classname="oscal-validate" name="([^"]*)"/g)].map((match) => match[1]!);
}

describe("oscal-validate in an ordinary repository", () => {
  it("the README's JUnit command reports the OSCAL documents only, and fails on the invalid ones", () => {
    const { status, stdout, stderr } = run(["--format", "junit", "-o", "x.xml", "--fail-on", "warning", "."], { cwd: root });
    expect(stdout).toBe("");
    expect(status).toBe(1);
    const xml = readFileSync(path.join(root, "x.xml"), "utf8");
    expect(testcases(xml)).toEqual(DOCUMENTS);
    expect(xml).toContain('<testsuite name="oscal-validate" tests="5" failures="2" errors="0"');
    expect(stderr).toMatch(/^oscal-validate: 5 files: 3 valid, 1 invalid, 1 not validated; 1 error, 0 warnings; 4 files skipped: not OSCAL \(--verbose lists them\); \d+\.\d\d s\n$/);
  });

  it("exits 0 once the invalid documents are excluded", () => {
    const { status } = run(["--format", "junit", "-o", "x.xml", "--fail-on", "warning", "--exclude", "drafts", "."], { cwd: root });
    expect(status).toBe(0);
    expect(testcases(readFileSync(path.join(root, "x.xml"), "utf8"))).toEqual(["oscal/catalog.json", "oscal/ssp/$schema-first.json", "oscal/ssp/catalog-copy.yaml"]);
  });

  it("--verbose lists the skipped files on standard error, and JSON lists them where they were found", () => {
    const { stderr } = run(["--verbose", "-o", "out.txt", "."], { cwd: root });
    expect(stderr.split("\n").filter((line) => line.includes("skipped ")).map((line) => /skipped (\S+):/.exec(line)?.[1])).toEqual(SKIPPED);
    expect(stderr).toContain("4 files skipped: not OSCAL; ");
    const entries = JSON.parse(run(["--format", "json", "."], { cwd: root }).stdout) as Array<{ file: string; skipped?: string }>;
    // Depth first and sorted by name within each directory, the skipped files among the others.
    expect(entries.map((entry) => entry.file)).toEqual([
      "oscal/catalog.json",
      "oscal/drafts/invalid.json",
      "oscal/drafts/truncated.json",
      "oscal/mkdocs.yml",
      "oscal/ssp/$schema-first.json",
      "oscal/ssp/catalog-copy.yaml",
      "package-lock.json",
      "package.json",
      "tsconfig.json",
    ]);
    expect(entries.filter((entry) => entry.skipped !== undefined)).toEqual(SKIPPED.map((file) => ({ file, skipped: "not an OSCAL document" })));
  });

  it("validates a file named explicitly whatever it holds", () => {
    const { status, stdout } = run(["package.json"], { cwd: root });
    expect(status).toBe(1);
    expect(stdout).toContain("package.json: ERR_UNKNOWN_MODEL");
  });

  it("exits 2, naming the path, for a directory or glob with no OSCAL document", () => {
    const workflows = run([".github"], { cwd: root });
    expect(workflows.status).toBe(2);
    expect(workflows.stdout).toContain("ERROR   .github: ERR_UNREADABLE_INPUT: No OSCAL documents found under .github: 1 JSON or YAML file skipped, not OSCAL");
    mkdirSync(path.join(root, "empty"), { recursive: true });
    const empty = run(["empty"], { cwd: root });
    expect(empty.status).toBe(2);
    expect(empty.stdout).toContain("No OSCAL documents found under empty: it holds no .json, .yaml or .yml file.");
    const glob = run(["*.json"], { cwd: root });
    expect(glob.status).toBe(2);
    expect(glob.stdout).toContain("No OSCAL documents match *.json: 3 JSON or YAML files skipped");
    // Another input with documents does not hide the empty one.
    expect(run(["oscal/catalog.json", "empty"], { cwd: root }).status).toBe(2);
  });

  it("runs the README's other examples with the exit codes they promise", () => {
    expect(run(["--level", "full", "oscal/"], { cwd: root }).status).toBe(1);
    const sarif = run(["--format", "sarif", "-o", "results.sarif", "--exclude", "drafts", "."], { cwd: root });
    expect(sarif.status).toBe(0);
    const log = JSON.parse(readFileSync(path.join(root, "results.sarif"), "utf8"));
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0].results).toEqual([]);
    const github = run(["--format", "github", "oscal/**/*.json"], { cwd: root });
    expect(github.status).toBe(1);
    expect(github.stdout).toMatch(/^::error file=oscal\/drafts\/invalid\.json,line=1,col=\d+,title=nist-schema/m);
    const stdin = run(["--format", "json", "-"], { cwd: root, input: readFileSync(path.join(root, "oscal/catalog.json"), "utf8") });
    expect(stdin.status).toBe(0);
    expect(run(["rules", "--format", "json"], { cwd: root }).status).toBe(0);
  });
});

describe("oscal-validate's messages", () => {
  it("says a missing file is not found", () => {
    const { status, stdout } = run(["missing.json"], { cwd: root });
    expect(status).toBe(2);
    expect(stdout).toBe("ERROR   missing.json: ERR_UNREADABLE_INPUT: File not found: missing.json.\n");
  });

  it("hints at --input-format yaml for YAML on standard input", () => {
    const yaml = readFileSync(path.join(root, "oscal/ssp/catalog-copy.yaml"), "utf8");
    const { status, stdout } = run(["-"], { cwd: root, input: yaml });
    expect(status).toBe(1);
    expect(stdout).toContain("ERR_INVALID_JSON");
    expect(stdout).toContain("if it is YAML, add --input-format yaml");
    expect(run(["--input-format", "yaml", "-"], { cwd: root, input: yaml }).status).toBe(0);
    expect(run(["-"], { cwd: root, input: '{"catalog": ' }).stdout).not.toContain("YAML");
  });

  it("says what --max-issues and --jobs accept when given a negative number", () => {
    const issues = run(["--max-issues", "-1", "oscal/catalog.json"], { cwd: root });
    expect(issues.status).toBe(2);
    expect(issues.stderr).toContain('--max-issues must be a whole number of at least 0; got "-1"');
    expect(run(["--jobs", "-2", "oscal/catalog.json"], { cwd: root }).stderr).toContain('--jobs must be a whole number of at least 1; got "-2"');
    expect(run(["-j", "-2", "oscal/catalog.json"], { cwd: root }).stderr).toContain('--jobs must be a whole number of at least 1; got "-2"');
    expect(run(["--max-issues", "0", "oscal/drafts/invalid.json"], { cwd: root }).stdout).toContain("1 finding (first 0 shown: --max-issues)");
  });

  it("names the one reason a report is incomplete", () => {
    const unpublished = put(tempDir("unpublished"), "unpublished.json", { catalog: { ...VALID_CATALOG.catalog, metadata: { ...VALID_CATALOG.catalog.metadata, "oscal-version": "9.9.9" } } });
    expect(run([unpublished]).stdout).toContain('[incomplete: oscal-version "9.9.9" is not a published OSCAL release]');
    expect(run(["--level", "full", "oscal/drafts/invalid.json"], { cwd: root }).stdout).toContain("[incomplete: the constraint checks did not run, as the schema rejected the document]");
  });
});
