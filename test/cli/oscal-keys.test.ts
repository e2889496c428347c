// oscal-keys names the key store it used, by absolute path, and says where it looks by default.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../compiler/paths.js";
import { tempDir } from "./support.js";

const KEYS_CLI = path.join(repoRoot, "dist/runtime/cli/oscal-keys.js");

function keys(args: string[], cwd: string, env: Record<string, string> = {}) {
  const { REDIS_URL: _redis, KEYS_FILE: _file, ...inherited } = process.env;
  return spawnSync(process.execPath, [KEYS_CLI, ...args], { cwd, env: { ...inherited, ...env }, encoding: "utf8" });
}

describe("oscal-keys", () => {
  it("says which key file it read and wrote, by absolute path, and that it is the default", () => {
    const cwd = tempDir("keys");
    const created = keys(["create", "--label", "ci"], cwd);
    expect(created.status).toBe(0);
    const file = path.join(cwd, ".data/keys.json");
    expect(existsSync(file)).toBe(true);
    expect(created.stderr).toContain(`oscal-keys: key store ${file} (the default, .data/keys.json under the current directory; KEYS_FILE sets another)`);
    const listed = keys(["list"], cwd);
    expect(listed.stderr).toContain(`key store ${file} (the default`);
    expect(listed.stdout).toContain("\tci\t");
  });

  it("names a KEYS_FILE given relative to the current directory by its absolute path", () => {
    const cwd = tempDir("keys-file");
    const { status, stderr } = keys(["list"], cwd, { KEYS_FILE: "conf/keys.json" });
    expect(status).toBe(0);
    expect(stderr).toBe(`oscal-keys: key store ${path.join(cwd, "conf/keys.json")} (KEYS_FILE)\n`);
  });

  it("says in its help where the key file is by default, from here", () => {
    const cwd = tempDir("keys-help");
    expect(keys(["--help"], cwd).stdout).toContain(`default .data/keys.json under\nthe current directory, here ${path.join(cwd, ".data/keys.json")})`);
  });
});
