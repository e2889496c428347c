// The CLI as CI jobs use it: a real process over real files, exit codes, JSON and SARIF output.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../../compiler/paths.js";
import { deeplyNestedCatalog } from "../http/support/documents.js";

const cli = path.join(repoRoot, "dist/runtime/cli/oscal-validate.js");
const dir = mkdtempSync(path.join(tmpdir(), "oscal-cli-"));
const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const metadata = { title: "CLI test", "last-modified": "2024-05-01T12:00:00Z", version: "1.0", "oscal-version": "1.2.2" };

function file(name: string, content: unknown): string {
  const target = path.join(dir, name);
  writeFileSync(target, typeof content === "string" ? content : JSON.stringify(content));
  return target;
}

const valid = file("valid.json", { catalog: { uuid, metadata } });
const invalid = file("invalid.json", { catalog: { uuid: "nope", metadata } });
const notJson = file("broken.json", '{"catalog": ');

function run(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [cli, ...args], { input, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("oscal-validate", () => {
  it("exits 0 when every input is valid", () => {
    const { status, stdout } = run([valid]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^VALID +.*valid\.json \(catalog, oscal-version 1\.2\.2, level schema/);
  });

  it("exits 1 when any input is invalid, listing the findings", () => {
    const { status, stdout } = run([valid, invalid]);
    expect(status).toBe(1);
    expect(stdout).toContain("INVALID");
    expect(stdout).toContain("error /catalog/uuid: Must be a version 4 or 5 UUID. [nist-schema:1.2.2:catalog:pattern:#/definitions/UUIDDatatype/pattern:pattern]");
  });

  it("exits 2 for an unreadable file and for usage errors", () => {
    expect(run([path.join(dir, "missing.json")]).status).toBe(2);
    expect(run([]).status).toBe(2);
    const badLevel = run(["--level", "deep", valid]);
    expect(badLevel.status).toBe(2);
    expect(badLevel.stderr).toContain('Unsupported level "deep"');
    expect(run(["--format", "xml", valid]).status).toBe(2);
  });

  it("--format json prints one report per input with its file, and body errors in place", () => {
    const { status, stdout } = run(["--format", "json", valid, invalid, notJson]);
    expect(status).toBe(1);
    const entries = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({ file: valid, valid: true, model: "catalog", issueCount: 0, level: "schema" });
    expect(entries[1]).toMatchObject({ file: invalid, valid: false, issueCount: 1 });
    expect(entries[2]).toMatchObject({ file: notJson, error: { code: "ERR_INVALID_JSON" } });
  });

  it("says how to fix a document nested too deeply to validate", () => {
    const deep = file("deep.json", deeplyNestedCatalog(20_000));
    const { status, stdout } = run([deep]);
    expect(status).toBe(1);
    expect(stdout).toContain("ERR_PAYLOAD_TOO_LARGE: The document nests too deeply");
    expect(stdout).toContain("Restructure the document");
  });

  it("reads standard input for -", () => {
    const { status, stdout } = run(["--format", "json", "-"], JSON.stringify({ catalog: { uuid, metadata } }));
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual([expect.objectContaining({ file: "-", valid: true })]);
  });

  it("--format sarif emits SARIF 2.1.0 results with rule ids and JSON Pointer locations", () => {
    const { status, stdout } = run(["--format", "sarif", invalid]);
    expect(status).toBe(1);
    const sarif = JSON.parse(stdout);
    expect(sarif.version).toBe("2.1.0");
    const [result] = sarif.runs[0].results;
    expect(result).toMatchObject({
      ruleId: "nist-schema:1.2.2:catalog:pattern:#/definitions/UUIDDatatype/pattern:pattern",
      level: "error",
      locations: [{ physicalLocation: { artifactLocation: { uri: pathToFileURL(invalid).href } }, logicalLocations: [{ fullyQualifiedName: "/catalog/uuid" }] }],
    });
    expect(sarif.runs[0].tool.driver.rules.map((rule: { id: string }) => rule.id)).toContain(result.ruleId);
  });

  it("--level full runs the semantic layer on schema-valid documents", () => {
    const { status, stdout } = run(["--level", "full", "--format", "json", valid]);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)[0]).toMatchObject({ level: "full", meta: { semanticRules: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } } });
  });
});
