// Whole trees: directories, globs, --exclude, worker threads with deterministic output, -o and the summary line.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { INVALID_CATALOG, put, run, tempDir, VALID_CATALOG } from "./support.js";

const cwd = tempDir("tree");
put(cwd, "repo/catalogs/a.json", VALID_CATALOG);
put(cwd, "repo/catalogs/b.json", INVALID_CATALOG);
put(cwd, "repo/catalogs/notes.txt", "not an input");
put(cwd, "repo/ssp/z.json", VALID_CATALOG);
put(cwd, "repo/ssp/drafts/d.json", INVALID_CATALOG);
put(cwd, "repo/.git/hidden.json", INVALID_CATALOG);
put(cwd, "repo/node_modules/dep/dep.json", INVALID_CATALOG);
put(cwd, "repo/yaml/c.yaml", "catalog: {}");

/** The files a run reported, in output order. */
function filesOf(args: string[]): string[] {
  const { stdout } = run(["--format", "json", ...args], { cwd });
  return (JSON.parse(stdout) as Array<{ file: string }>).map((entry) => entry.file);
}

describe("oscal-validate over trees", () => {
  it("walks a directory for .json, .yaml and .yml files, sorted, skipping hidden directories and node_modules", () => {
    expect(filesOf(["repo"])).toEqual(["repo/catalogs/a.json", "repo/catalogs/b.json", "repo/ssp/drafts/d.json", "repo/ssp/z.json", "repo/yaml/c.yaml"]);
  });

  it("expands a quoted glob itself, and keeps argument order across inputs", () => {
    expect(filesOf(["repo/ssp/**/*.json", "repo/catalogs/b.json"])).toEqual(["repo/ssp/drafts/d.json", "repo/ssp/z.json", "repo/catalogs/b.json"]);
    expect(filesOf(["./repo/*/a.json"])).toEqual(["repo/catalogs/a.json"]);
  });

  it("reports a glob that matches nothing as an unreadable input", () => {
    const { status, stdout } = run(["--format", "json", "repo/**/*.xml"], { cwd });
    expect(status).toBe(2);
    expect(JSON.parse(stdout)).toEqual([{ file: "repo/**/*.xml", error: { code: "ERR_UNREADABLE_INPUT", detail: "No file matches repo/**/*.xml." } }]);
  });

  it("--exclude drops matching files and directories, by name at any depth or by path", () => {
    expect(filesOf(["--exclude", "drafts", "--exclude", "*.yaml", "repo"])).toEqual(["repo/catalogs/a.json", "repo/catalogs/b.json", "repo/ssp/z.json"]);
    expect(filesOf(["--exclude", "repo/catalogs/**", "repo"])).toEqual(["repo/ssp/drafts/d.json", "repo/ssp/z.json", "repo/yaml/c.yaml"]);
  });

  it("routes YAML files by extension to the YAML reader, and standard input by --input-format", () => {
    const [entry] = JSON.parse(run(["--format", "json", "repo/yaml/c.yaml"], { cwd }).stdout);
    expect(entry).toMatchObject({ file: "repo/yaml/c.yaml", model: "catalog", valid: false });
    expect(entry.issues).toContainEqual(expect.objectContaining({ path: "/catalog", keyword: "required", line: 1, column: 10 }));
    const fromStdin = run(["--format", "json", "--input-format", "yaml", "-"], { cwd, input: "catalog:\n  uuid: x\n" });
    expect(JSON.parse(fromStdin.stdout)[0].issues).toContainEqual(expect.objectContaining({ path: "/catalog/uuid", line: 2, column: 9 }));
    const broken = JSON.parse(run(["--format", "json", "-"], { cwd, input: "catalog: [1, 2", }).stdout)[0];
    expect(broken.error.code).toBe("ERR_INVALID_JSON");
  });

  it("gives the same output with --jobs 1 and --jobs 2", () => {
    const many = Array.from({ length: 12 }, (_, index) => put(cwd, `jobs/f${String(index).padStart(2, "0")}.json`, index % 3 === 0 ? INVALID_CATALOG : VALID_CATALOG));
    expect(many).toHaveLength(12);
    for (const format of ["sarif", "github"]) {
      const inProcess = run(["--format", format, "--jobs", "1", "jobs", "repo"], { cwd });
      const threaded = run(["--format", format, "--jobs", "2", "jobs", "repo"], { cwd });
      expect(threaded.status).toBe(1);
      expect(threaded.stdout).toBe(inProcess.stdout);
    }
  });

  it("-o writes the output to a file, and a one-line summary goes to standard error", () => {
    const target = path.join(cwd, "out.json");
    const { status, stdout, stderr } = run(["--format", "json", "-o", target, "repo"], { cwd });
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(JSON.parse(readFileSync(target, "utf8"))).toHaveLength(5);
    expect(stderr).toMatch(/^oscal-validate: 5 files: 2 valid, 3 invalid, 0 not validated; 4 errors, 0 warnings; \d+\.\d\d s\n$/);
  });

  it("says so on standard error when -o cannot be written", () => {
    const { status, stderr } = run(["-o", path.join(cwd, "no/such/dir/out.txt"), "repo/catalogs/a.json"], { cwd });
    expect(status).toBe(2);
    expect(stderr).toContain("cannot write");
  });
});
