// The build refuses schema files whose bytes differ from the committed SHA-256 sums, naming the file.
import { describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync, appendFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildPaths } from "../../compiler/paths.js";
import { readVerifiedSchemas } from "../../compiler/schema-source.js";

const paths = buildPaths();

function copyOfSchemas(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "oscal-schemas-"));
  for (const name of readdirSync(paths.schemaDir)) copyFileSync(path.join(paths.schemaDir, name), path.join(dir, name));
  return dir;
}

describe("schema source verification", () => {
  it("accepts the recorded schemas and reports their hashes", () => {
    const { schemas, hashes } = readVerifiedSchemas(paths.schemaDir, paths.schemaSumsFile);
    expect(schemas.size).toBe(9);
    expect(hashes["oscal_catalog_schema.json"]).toBe("2dc776dba4f8a90401e5d5655c59fce0f18ba377553615f3135c81e5d78bfdea");
  });

  it("refuses a modified schema file and names it", () => {
    const dir = copyOfSchemas();
    try {
      appendFileSync(path.join(dir, "oscal_ssp_schema.json"), " ");
      expect(() => readVerifiedSchemas(dir, paths.schemaSumsFile)).toThrow(/oscal_ssp_schema\.json does not match its recorded SHA-256/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a missing schema file and names it", () => {
    const dir = copyOfSchemas();
    try {
      rmSync(path.join(dir, "oscal_poam_schema.json"));
      expect(() => readVerifiedSchemas(dir, paths.schemaSumsFile)).toThrow(/oscal_poam_schema\.json is missing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a malformed sums file", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "oscal-sums-"));
    const sums = path.join(dir, "SHA256SUMS");
    writeFileSync(sums, "not a checksum line\n");
    expect(() => readVerifiedSchemas(paths.schemaDir, sums)).toThrow(/malformed line/);
    rmSync(dir, { recursive: true, force: true });
  });
});
