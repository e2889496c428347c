// The generated modules load through V8's code cache: the first process writes it to a private directory, later ones
// use it; a damaged or foreign cache, one made from other source, or a directory others can write, is never trusted.
import { afterAll, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
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

  it("keeps its directory to the size limit when it writes, dropping the caches written longest ago, and stale temporary files", () => {
    const dir = cacheDirectory();
    const MB = 1024 * 1024;
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);
    // Caches of other installs, written 3, 2 and 1 hours ago; a temporary file a killed writer left an hour ago, and one
    // a writer may still be filling.
    const others = [3, 2, 1].map((hours) => {
      const file = path.join(dir, `other-${hours}.cjs-0000000000000${hours}.v8cache`);
      writeFileSync(file, Buffer.alloc(MB), { mode: 0o600 });
      utimesSync(file, hoursAgo(hours), hoursAgo(hours));
      return path.basename(file);
    });
    const staleTemporary = path.join(dir, "catalog.cjs-00000000000000.v8cache.123.tmp");
    writeFileSync(staleTemporary, "", { mode: 0o600 });
    utimesSync(staleTemporary, hoursAgo(1), hoursAgo(1));
    const freshTemporary = path.join(dir, "semantic.cjs-00000000000000.v8cache.456.tmp");
    writeFileSync(freshTemporary, "", { mode: 0o600 });

    execFileSync(process.execPath, ["--input-type=module", "-e", SCRIPT], { env: { ...process.env, OSCAL_CODE_CACHE_DIR: dir, OSCAL_CODE_CACHE: "", OSCAL_CODE_CACHE_MAX_MB: "3" } });
    const written = cacheFiles(dir).filter((name) => !name.startsWith("other-"));
    expect(written.map((name) => name.replace(/-[0-9a-f]{14}\.v8cache$/, ""))).toEqual(["catalog.cjs", "semantic.cjs"]);
    const writtenBytes = written.reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);
    // With the two caches just written (under 2 MB), the oldest other must go to get under 3 MB; the newest may stay.
    expect(writtenBytes).toBeLessThan(2 * MB);
    expect(cacheFiles(dir).filter((name) => name.startsWith("other-"))).toEqual(writtenBytes + 2 * MB <= 3 * MB ? others.slice(1).sort() : [others[2]]);
    expect(existsSync(staleTemporary)).toBe(false);
    expect(existsSync(freshTemporary)).toBe(true);
  });

  it("neither reads nor writes a cache in a directory others may write", () => {
    const dir = cacheDirectory();
    chmodSync(dir, 0o777);
    expect(runIn(dir)).toEqual({ valid: true, findings: 0 });
    expect(cacheFiles(dir)).toEqual([]);
  });
});
