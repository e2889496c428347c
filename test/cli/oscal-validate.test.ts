// The CLI as CI jobs use it: a real process over real files, exit codes, JSON and SARIF output.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { deeplyNestedCatalog } from "../http/support/documents.js";
import { CLI, INVALID_CATALOG, put, run, tempDir, VALID_CATALOG } from "./support.js";

const dir = tempDir("basic");
const file = (name: string, content: unknown) => put(dir, name, content);

const valid = file("valid.json", VALID_CATALOG);
const invalid = file("invalid.json", INVALID_CATALOG);
const notJson = file("broken.json", '{"catalog": ');

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
    expect(stdout).toContain("error /catalog/uuid: Not a valid UUID: a UUID has five groups of 8-4-4-4-12 hexadecimal digits separated by hyphens; this one has groups of 4. [nist-schema:1.2.2:catalog:pattern:#/definitions/UUIDDatatype/pattern:pattern]");
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

  it("reads a file with a byte-order mark, a file with non-ASCII text, an empty file and a pipe as it reads any file", () => {
    const withMark = file("with-mark.json", `\uFEFF${JSON.stringify(INVALID_CATALOG)}`);
    const accented = file("accented.json", { catalog: { ...VALID_CATALOG.catalog, metadata: { ...VALID_CATALOG.catalog.metadata, title: "Contrôles de sécurité" } } });
    const empty = file("empty.json", "");
    const { stdout } = run(["--format", "json", withMark, accented, empty]);
    const [markReport, accentedReport, emptyReport] = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(markReport).toMatchObject({ valid: false, issueCount: 1, issues: [{ path: "/catalog/uuid", line: 1 }] });
    expect(accentedReport).toMatchObject({ valid: true });
    expect(emptyReport).toMatchObject({ error: { code: "ERR_INVALID_JSON" } });
    // Process substitution hands the CLI a pipe (/dev/fd/N): a file of no known size.
    const piped = spawnSync("bash", ["-c", `exec "${process.execPath}" "${CLI}" --format json <(cat "${invalid}")`], { encoding: "utf8" });
    expect(JSON.parse(piped.stdout)).toEqual([expect.objectContaining({ file: expect.stringMatching(/^\/dev\/fd\/\d+$/), valid: false, issueCount: 1 })]);
  });

  it("reads standard input for -", () => {
    const { status, stdout } = run(["--format", "json", "-"], { input: JSON.stringify(VALID_CATALOG) });
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
