// Inputs that must not hurt the CLI: symbolic link loops, unreadable directories, FIFOs, devices, huge files and
// names crafted to print lines of their own. Each run is bounded by the test's timeout (the CLI must not hang) and,
// where it reads a stream that never ends, by the memory it may use; no test measures wall time.
import { describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { INVALID_CATALOG, put, run, runMeasuringMemory, tempDir, VALID_CATALOG } from "./support.js";

/** A stack trace or a raw error code on standard error means the CLI crashed rather than reported. */
const CRASH = /\n\s+at |ELOOP|ENOENT|EACCES|Error:/;

describe("oscal-validate and hostile inputs", () => {
  it("reports symbolic link loops as unreadable and validates everything else", { timeout: 20_000 }, () => {
    const cwd = tempDir("loops");
    put(cwd, "tree/a.json", VALID_CATALOG);
    put(cwd, "tree/sub/b.json", INVALID_CATALOG);
    symlinkSync("self.json", path.join(cwd, "tree/self.json"));
    symlinkSync("loop", path.join(cwd, "tree/sub/loop"));
    symlinkSync("..", path.join(cwd, "tree/sub/up"));
    const { status, stdout, stderr } = run(["--format", "json", "tree"], { cwd });
    expect(stderr).not.toMatch(CRASH);
    expect(status).toBe(2);
    expect(JSON.parse(stdout)).toEqual([
      expect.objectContaining({ file: "tree/a.json", valid: true }),
      { file: "tree/self.json", error: { code: "ERR_UNREADABLE_INPUT", detail: "Symbolic link loop: tree/self.json cannot be resolved." } },
      expect.objectContaining({ file: "tree/sub/b.json", valid: false }),
      { file: "tree/sub/loop", error: { code: "ERR_UNREADABLE_INPUT", detail: "Symbolic link loop: tree/sub/loop cannot be resolved." } },
    ]);
    // Named explicitly, a loop is reported the same way.
    expect(run(["tree/self.json"], { cwd }).stdout).toContain("Symbolic link loop: tree/self.json cannot be resolved.");
  });

  it("reports a directory it may not read and validates everything else", { timeout: 20_000 }, () => {
    const cwd = tempDir("unreadable");
    put(cwd, "tree/a.json", VALID_CATALOG);
    put(cwd, "tree/locked/b.json", VALID_CATALOG);
    chmodSync(path.join(cwd, "tree/locked"), 0o000);
    // Root reads every directory whatever its mode: the CLI then runs as an ordinary user, who may enter the tree.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chmodSync(cwd, 0o755);
    const { status, stdout, stderr } = run(["--format", "json", "tree"], { cwd, ...(asRoot ? { uid: 65534 } : {}) });
    expect(stderr).not.toMatch(CRASH);
    expect(status).toBe(2);
    expect(JSON.parse(stdout)).toEqual([
      expect.objectContaining({ file: "tree/a.json", valid: true }),
      { file: "tree/locked", error: { code: "ERR_UNREADABLE_INPUT", detail: "Permission denied: tree/locked." } },
    ]);
  });

  it("refuses a FIFO a walk finds without opening it, and a device named on the command line without reading it", { timeout: 20_000 }, () => {
    const cwd = tempDir("fifo");
    put(cwd, "tree/a.json", VALID_CATALOG);
    expect(spawnSync("mkfifo", [path.join(cwd, "tree/pipe.json")]).status).toBe(0);
    const walked = run(["--format", "json", "tree"], { cwd });
    expect(walked.status).toBe(2);
    expect(JSON.parse(walked.stdout)).toEqual([
      expect.objectContaining({ file: "tree/a.json", valid: true }),
      { file: "tree/pipe.json", error: { code: "ERR_UNREADABLE_INPUT", detail: "Not a regular file: tree/pipe.json is a FIFO (named pipe); it was not read." } },
    ]);
    const device = run(["/dev/zero"], { cwd });
    expect(device.status).toBe(2);
    expect(device.stdout).toBe("ERROR   /dev/zero: ERR_UNREADABLE_INPUT: Not a regular file: /dev/zero is a character device; it was not read.\n");
  });

  it("stops reading standard input that never ends at --max-file-size, holding no more than that", { timeout: 30_000 }, async () => {
    const small = await runMeasuringMemory(["--max-file-size", "1M", "-"], "/dev/zero");
    expect(small.status).toBe(2);
    expect(small.stdout).toBe("ERROR   -: ERR_UNREADABLE_INPUT: Too large: standard input holds more than the 1 MiB --max-file-size allows; reading stopped there.\n");
    // At the default bound, what the process holds stays near it: the 256 MiB read, twice at most while joining it.
    const atDefault = await runMeasuringMemory(["-"], "/dev/zero");
    expect(atDefault.status).toBe(2);
    expect(atDefault.stdout).toContain("more than the 256 MiB --max-file-size allows");
    expect(atDefault.peakRssBytes).toBeGreaterThan(0);
    expect(atDefault.peakRssBytes).toBeLessThan(768 * 1024 * 1024);
  });

  it("refuses a file larger than --max-file-size before reading it, and skips one a walk finds that is not OSCAL", { timeout: 20_000 }, () => {
    const cwd = tempDir("huge");
    const huge = path.join(cwd, "tree/zeros.json");
    mkdirSync(path.dirname(huge), { recursive: true });
    writeFileSync(huge, "");
    truncateSync(huge, 1.5 * 1024 ** 3); // sparse: 1.5 GiB of NULs that take no disk
    const named = run(["tree/zeros.json"], { cwd });
    expect(named.status).toBe(2);
    expect(named.stdout).toBe("ERROR   tree/zeros.json: ERR_UNREADABLE_INPUT: Too large: tree/zeros.json is 1.5 GiB, more than the 256 MiB --max-file-size allows; it was not read.\n");
    // Found by a walk, its first bytes show it is no OSCAL document.
    const walked = run(["tree"], { cwd });
    expect(walked.status).toBe(2);
    expect(walked.stdout).toContain("No OSCAL documents found under tree: 1 JSON or YAML file skipped, not OSCAL");
    // An OSCAL document over the bound is refused, not skipped.
    put(cwd, "tree/big.json", VALID_CATALOG);
    const bounded = run(["--max-file-size", "100", "--format", "json", "tree"], { cwd });
    expect(JSON.parse(bounded.stdout)).toContainEqual({ file: "tree/big.json", error: { code: "ERR_UNREADABLE_INPUT", detail: expect.stringMatching(/^Too large: tree\/big\.json is \d+ bytes, more than the 100 bytes --max-file-size allows/) } });
  });

  it("escapes control characters in file names and member names in the text format", { timeout: 20_000 }, () => {
    const cwd = tempDir("names");
    const name = "x\n::error file=a.json::injected\r\x1b[31mred\x7f\x9b.json";
    put(cwd, name, { catalog: { ...INVALID_CATALOG.catalog, "evil\n::error::member\x1b]0;title\x07": 1 } });
    const { status, stdout } = run(["--format", "text", name], { cwd });
    expect(status).toBe(1);
    expect(stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(stdout.split("\n").filter((line) => line.startsWith("::"))).toEqual([]);
    expect(stdout).toContain("x\\n::error file=a.json::injected\\r\\u001b[31mred\\u007f\\u009b.json");
    expect(stdout).toContain("/catalog/evil\\n::error::member\\u001b]0;title\\u0007");
    // A name --verbose lists on standard error is escaped too.
    put(cwd, "skipped\n::error::\x1b[2J.json", { name: "not OSCAL" });
    const walked = run(["--verbose", "--format", "github", "."], { cwd });
    expect(walked.stderr).toContain("skipped skipped\\n::error::\\u001b[2J.json: not an OSCAL document");
    expect(walked.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    // The github format keeps its own escapes of line breaks (%0A) and escapes every other control character.
    const annotations = run(["--format", "github", name], { cwd }).stdout;
    expect(annotations).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(annotations).toContain("evil%0A::error::member\\u001b]0;title\\u0007");
  });
});
