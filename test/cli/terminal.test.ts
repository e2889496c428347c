// The CLI in terminals and pipelines: colours, a reader that goes away, exit codes, usage errors, help and version.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../compiler/paths.js";
import { INVALID_CATALOG, MANY_FINDINGS_CATALOG, put, run, runClosingStdoutEarly, runIntoNonBlockingPipe, runWithStderrClosed, tempDir, VALID_CATALOG, WARNING_ONLY_CATALOG } from "./support.js";

const cwd = tempDir("terminal");
put(cwd, "valid.json", VALID_CATALOG);
put(cwd, "invalid.json", INVALID_CATALOG);
put(cwd, "warned.json", WARNING_ONLY_CATALOG);
put(cwd, "many.json", MANY_FINDINGS_CATALOG);
put(cwd, "list.json", "[]");
const ESC = "\x1b[";

describe("oscal-validate in a terminal and a pipeline", () => {
  it("colours only when FORCE_COLOR asks (stdout here is a pipe), and never with NO_COLOR set", () => {
    expect(run(["valid.json"], { cwd }).stdout).not.toContain(ESC);
    expect(run(["valid.json"], { cwd, env: { FORCE_COLOR: "1" } }).stdout).toContain(`${ESC}32mVALID`);
    expect(run(["valid.json"], { cwd, env: { FORCE_COLOR: "1", NO_COLOR: "1" } }).stdout).not.toContain(ESC);
    expect(run(["valid.json"], { cwd, env: { FORCE_COLOR: "0" } }).stdout).not.toContain(ESC);
  });

  it("exits quietly, with the run's status, when standard output closes early (| head -c 10)", async () => {
    const { status, stderr, firstChunk } = await runClosingStdoutEarly(["--format", "json", "many.json", "invalid.json"], { cwd });
    expect(firstChunk).toBe("[\n  {\n    ");
    expect(status).toBe(1);
    expect(stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
  });

  it("writes all of a large report into a non-blocking pipe whose reader starts late", async () => {
    const { status, stdout } = await runIntoNonBlockingPipe(["--format", "json", "many.json"], 300, { cwd });
    expect(status).toBe(1);
    expect(stdout.length).toBeGreaterThan(256 * 1024); // several times what the pipe holds
    const withoutDuration = (text: string) => text.replace(/"durationMs": \d+/g, "");
    expect(withoutDuration(stdout.toString())).toBe(withoutDuration(run(["--format", "json", "many.json"], { cwd }).stdout));
  });

  it("exits 0 for valid inputs, 1 for findings or a non-OSCAL input, 2 for an unreadable one, whatever else fails", () => {
    expect(run(["valid.json"], { cwd }).status).toBe(0);
    expect(run(["valid.json", "invalid.json"], { cwd }).status).toBe(1);
    expect(run(["valid.json", "list.json"], { cwd }).status).toBe(1);
    expect(run(["invalid.json", "missing.json"], { cwd }).status).toBe(2);
  });

  it("--fail-on warning fails on warnings, which pass by default", () => {
    expect(run(["--level", "full", "warned.json"], { cwd }).status).toBe(0);
    expect(run(["--level", "full", "--fail-on", "warning", "warned.json"], { cwd }).status).toBe(1);
    expect(run(["--level", "full", "--fail-on", "warning", "valid.json"], { cwd }).status).toBe(0);
  });

  it("names a bad option in a usage error and exits 2, without parseArgs' own wording", () => {
    const unknown = run(["--colour", "valid.json"], { cwd });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe('oscal-validate: unknown option --colour\nRun "oscal-validate --help" for usage.\n');
    expect(run(["--jobs", "0", "valid.json"], { cwd }).stderr).toContain('--jobs must be a whole number of at least 1; got "0"');
    expect(run(["--fail-on", "note", "valid.json"], { cwd }).stderr).toContain("--fail-on must be one of error, warning");
    expect(run(["--output"], { cwd }).stderr).toContain("option --output needs a value");
  });

  it("exits 2 for a usage error even when nobody reads standard error", async () => {
    expect(await runWithStderrClosed(["--colour", "valid.json"], { cwd })).toBe(2);
  });

  it("words option errors for the command line, not for HTTP", () => {
    const { status, stderr } = run(["--rules", "MET-045.a", "valid.json"], { cwd });
    expect(status).toBe(2);
    expect(stderr).toContain("--rules selects semantic rules and works only with --level full");
    expect(stderr).not.toMatch(/parameter|body/);
    expect(run(["--level", "full", "--rules", "NOPE-1", "valid.json"], { cwd }).stderr).toContain('Unknown semantic rule id "NOPE-1"');
  });

  it("words input errors for files: not well-formed JSON, not 'the body'", () => {
    put(cwd, "broken.json", '{"catalog": ');
    const { stdout } = run(["broken.json"], { cwd });
    expect(stdout).toContain("ERR_INVALID_JSON: Not well-formed JSON: ");
    expect(stdout).not.toContain("body");
  });

  it("--max-issues caps findings per file and the text output and summary say so", () => {
    const { stdout, stderr } = run(["--max-issues", "3", "many.json"], { cwd });
    expect(stdout.split("\n").filter((line) => line.startsWith("  error"))).toHaveLength(3);
    expect(stdout).toContain("3200 findings (first 3 shown: --max-issues)");
    expect(stderr).toContain("3 errors, 0 warnings (3197 more not shown: --max-issues)");
  });

  it("prints every finding by default", () => {
    const { stdout } = run(["many.json"], { cwd });
    expect(stdout.split("\n").filter((line) => line.startsWith("  error"))).toHaveLength(3200);
  });

  it("--version names the package version, the OSCAL release and the rule manifest", () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
    const { status, stdout } = run(["--version"]);
    expect(status).toBe(0);
    expect(stdout).toMatch(new RegExp(`^oscal-validate ${version.replace(/\./g, "\\.")} \\(OSCAL 1\\.2\\.2, rule manifest sha256:[0-9a-f]{64}\\)\\n$`));
  });

  it("--help documents every option and the exit codes", () => {
    const { status, stdout } = run(["--help"]);
    expect(status).toBe(0);
    for (const option of ["--level", "--rules", "--constraints", "--documents", "--document", "--now", "--input-format", "--exclude", "--jobs", "--format", "--output", "--max-issues", "--max-file-size", "--verbose", "--fail-on", "--docs-base-url", "--version", "NO_COLOR", "FORCE_COLOR", "Exit status"]) {
      expect(stdout).toContain(option);
    }
  });
});
