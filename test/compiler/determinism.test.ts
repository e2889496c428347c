// Two builds from the same inputs give byte-identical output: a fresh build is compared with generated/.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../../compiler/paths.js";

function fingerprint(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const visit = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub)).sort()) {
      const relative = path.join(sub, name);
      if (statSync(path.join(dir, relative)).isDirectory()) visit(relative);
      else if (name !== "README.md") files[relative] = createHash("sha256").update(readFileSync(path.join(dir, relative))).digest("hex");
    }
  };
  visit("");
  return files;
}

describe("generated output", () => {
  it("is byte-identical across builds of the same inputs", () => {
    const outDir = mkdtempSync(path.join(tmpdir(), "oscal-generated-"));
    try {
      execFileSync(process.execPath, ["--import", "tsx", path.join(repoRoot, "compiler/build.ts")], {
        cwd: repoRoot,
        env: { ...process.env, OSCAL_GENERATED_DIR: outDir },
        stdio: "pipe",
      });
      const fresh = fingerprint(outDir);
      expect(Object.keys(fresh).length).toBeGreaterThan(20);
      expect(fresh).toEqual(fingerprint(path.join(repoRoot, "generated")));
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });

  it("carries a manifest whose sha256 is the hash of the manifest without that field", () => {
    const text = readFileSync(path.join(repoRoot, "generated/manifest.json"), "utf8");
    const { sha256, ...body } = JSON.parse(text) as { sha256: string };
    expect(createHash("sha256").update(JSON.stringify(body)).digest("hex")).toBe(sha256);
    expect(body).toMatchObject({ validator: "1.2.2", schemas: { "oscal_catalog_schema.json": "fdc559f5dff6848b1ebbe1898a69cc08263479f7c796e2f056412059e7489d0c" } });
  });
});
