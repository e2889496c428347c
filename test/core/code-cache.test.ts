// The generated modules load through V8's code cache: the first process writes it to a private directory, later ones
// use it; a damaged or foreign cache, one made from other source, or a directory others can write, is never trusted.
import { afterAll, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../helpers/corpus.js";

const SCRIPT = `
import { validatorsFor, semanticChecks } from ${JSON.stringify(path.join(repoRoot, "generated/models.js"))};
const doc = { catalog: { uuid: "00000000-0000-4000-8000-000000000001", metadata: { title: "T", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" } } };
const checks = semanticChecks();
process.stdout.write(JSON.stringify({ valid: validatorsFor("catalog").validate(doc), findings: checks.check("catalog", doc, new Set(checks.rules.map((r) => r.id))).count }));
`;

function runIn(dir: string): { valid: boolean; findings: number } {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", SCRIPT], { env: { ...process.env, OSCAL_CODE_CACHE_DIR: dir, OSCAL_CODE_CACHE: "" } });
  return JSON.parse(out.toString()) as { valid: boolean; findings: number };
}

const directories: string[] = [];
afterAll(() => {
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});

function cacheDirectory(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "oscal-code-cache-"));
  directories.push(dir);
  return dir;
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".v8cache")).sort();

describe("code cache", () => {
  it("is written by the first process, privately, and gives the same results in the next", () => {
    const dir = cacheDirectory();
    const first = runIn(dir);
    const files = cacheFiles(dir);
    expect(files.map((name) => name.replace(/-[0-9a-f]{14}\.v8cache$/, ""))).toEqual(["catalog.cjs", "semantic.cjs"]);
    for (const name of files) expect(statSync(path.join(dir, name)).mode & 0o077).toBe(0);
    const written = files.map((name) => readFileSync(path.join(dir, name)));
    expect(runIn(dir)).toEqual(first);
    expect(first).toEqual({ valid: true, findings: 0 });
    // Accepted, so not rewritten.
    expect(files.map((name) => readFileSync(path.join(dir, name)))).toEqual(written);
  });

  it("replaces a damaged cache instead of running it", () => {
    const dir = cacheDirectory();
    const first = runIn(dir);
    for (const name of cacheFiles(dir)) writeFileSync(path.join(dir, name), Buffer.alloc(4096, 7), { mode: 0o600 });
    expect(runIn(dir)).toEqual(first);
    for (const name of cacheFiles(dir)) expect(readFileSync(path.join(dir, name)).equals(Buffer.alloc(4096, 7))).toBe(false);
  });

  it("does not use a cache made from other source of the same length, and replaces it", () => {
    const dir = cacheDirectory();
    const first = runIn(dir);
    const catalogCache = path.join(dir, cacheFiles(dir).find((name) => name.startsWith("catalog.cjs-"))!);
    const written = readFileSync(catalogCache);
    // The copy of the source in the cache, a little after its header: one character changed, as an edited module would be.
    const stale = Buffer.from(written);
    const at = stale.indexOf("exports.validate");
    expect(at).toBeGreaterThan(0);
    stale.write("E", at);
    writeFileSync(catalogCache, stale, { mode: 0o600 });
    expect(runIn(dir)).toEqual(first);
    expect(readFileSync(catalogCache).subarray(0, written.indexOf("exports.validate") + 100)).toEqual(written.subarray(0, at + 100));
  });

  it("also holds the CLI's bundle, which the bin loads through it, and the CLI answers the same from the cache", () => {
    const dir = cacheDirectory();
    const input = path.join(dir, "catalog.json");
    writeFileSync(input, JSON.stringify({ catalog: { uuid: "nope", metadata: { title: "T", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" } } }));
    const cli = () => {
      const bin = path.join(repoRoot, "dist/runtime/cli/oscal-validate-bin.cjs");
      const { status, stdout } = spawnSync(process.execPath, [bin, "--format", "json", input], { env: { ...process.env, OSCAL_CODE_CACHE_DIR: dir, OSCAL_CODE_CACHE: "" } });
      return { status, report: stdout.toString().replace(/"durationMs": *\d+/g, "") };
    };
    const first = cli();
    expect(first.status).toBe(1);
    expect(cacheFiles(dir).map((name) => name.replace(/-[0-9a-f]{14}\.v8cache$/, ""))).toEqual(["catalog.cjs", "catalog.collect.cjs", "oscal-validate.cjs"]);
    expect(cli()).toEqual(first);
  });

  it("neither reads nor writes a cache in a directory others may write", () => {
    const dir = cacheDirectory();
    chmodSync(dir, 0o777);
    expect(runIn(dir)).toEqual({ valid: true, findings: 0 });
    expect(cacheFiles(dir)).toEqual([]);
  });
});
