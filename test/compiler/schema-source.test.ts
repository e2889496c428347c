// The build refuses schema files whose bytes differ from the committed SHA-256 sums, naming the file.
import { describe, expect, it } from "vitest";
import { copyFileSync, cpSync, mkdtempSync, readdirSync, writeFileSync, appendFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildPaths } from "../../compiler/paths.js";
import { readVerifiedSchemas, verifyMetaschemaDir } from "../../compiler/schema-source.js";

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
    expect(hashes["oscal_catalog_schema.json"]).toBe("fdc559f5dff6848b1ebbe1898a69cc08263479f7c796e2f056412059e7489d0c");
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

  describe("metaschema sources", () => {
    function copyOfMetaschema(): string {
      const dir = mkdtempSync(path.join(tmpdir(), "oscal-metaschema-"));
      cpSync(paths.metaschemaDir, dir, { recursive: true });
      return dir;
    }

    it("accepts NIST's v1.2.2 modules and entity files", () => {
      const hashes = verifyMetaschemaDir(paths.metaschemaDir, paths.metaschemaSumsFile);
      expect(Object.keys(hashes)).toContain("oscal_catalog_metaschema.xml");
      expect(Object.keys(hashes)).toContain("shared-constraints/allowed-values-component-type.ent");
    });

    it("refuses a modified entity file and names it", () => {
      const dir = copyOfMetaschema();
      try {
        appendFileSync(path.join(dir, "shared-constraints", "allowed-values-component-type.ent"), " ");
        expect(() => verifyMetaschemaDir(dir, paths.metaschemaSumsFile)).toThrow(
          /shared-constraints\/allowed-values-component-type\.ent does not match its recorded SHA-256/,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("refuses a module the sums do not list", () => {
      const dir = copyOfMetaschema();
      try {
        writeFileSync(path.join(dir, "oscal_extra_metaschema.xml"), "<METASCHEMA/>");
        expect(() => verifyMetaschemaDir(dir, paths.metaschemaSumsFile)).toThrow(/without a recorded SHA-256: oscal_extra_metaschema\.xml/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
