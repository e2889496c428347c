// The CLI's thread pool, run from the build (its workers are the built bundle): the same outcomes in the same order on
// two threads as on one, and no second thread for an input too small to repay its start-up, whatever --jobs allows.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../../compiler/paths.js";
import { fedrampDir } from "../packs/fedramp-harness.js";
import { INVALID_CATALOG, put, tempDir, VALID_CATALOG } from "./support.js";

type Pool = typeof import("../../runtime/cli/worker-pool.js");
type Arguments = typeof import("../../runtime/cli/arguments.js");
type Outcome = Awaited<ReturnType<Pool["validateFiles"]>>[number];

const built = async <T>(module: string) => (await import(pathToFileURL(path.join(repoRoot, "dist/runtime/cli", module)).href)) as T;
const { threadCount, validateFiles } = await built<Pool>("worker-pool.js");
const { parseCommandLine } = await built<Arguments>("arguments.js");

/** The validation settings a command line makes, and its inputs as files to validate. */
function settingsOf(args: string[], walked: (file: string) => boolean = () => false) {
  const command = parseCommandLine(args);
  if (command.command !== "validate") throw new Error("not a validation");
  const settings = { options: command.options, stdinFormat: command.stdinFormat, documents: command.documents, maxFileBytes: command.maxFileBytes };
  return { settings, files: command.inputs.map((file) => ({ file, onlyOscal: walked(file) })) };
}

const withoutTimes = (outcomes: Outcome[]) => outcomes.map(({ report, ...rest }) => (report ? { ...rest, report: { ...report, meta: { ...report.meta, durationMs: 0 } } } : rest));

describe("the CLI's thread pool", () => {
  it("gives the same outcomes, in input order, on two threads as on one", { timeout: 60_000 }, async () => {
    const dir = tempDir("pool");
    const files = Array.from({ length: 12 }, (_, index) => put(dir, `f${String(index).padStart(2, "0")}.json`, index % 3 === 0 ? INVALID_CATALOG : VALID_CATALOG));
    const notOscal = put(dir, "package.json", { name: "x" });
    const { settings, files: inputs } = settingsOf(["--level", "full", notOscal, ...files], (file) => file === notOscal);
    const finished: string[] = [];
    const one = await validateFiles(inputs, settings, 1, () => {});
    const two = await validateFiles(inputs, settings, 2, (_, file) => finished.push(file));
    expect(finished.sort()).toEqual([notOscal, ...files].sort());
    expect(two.map((outcome) => outcome.file)).toEqual([notOscal, ...files]);
    expect(two[0]).toEqual({ file: notOscal, skipped: true });
    expect(withoutTimes(two)).toEqual(withoutTimes(one));
  });

  it("loads the documents pack constraints read in each thread", { timeout: 60_000 }, async () => {
    const content = (name: string) => path.join(fedrampDir, "content", name);
    const catalog = path.join(fedrampDir, "resources", "FedRAMP_rev5_MODERATE-baseline-resolved-profile_catalog.json");
    const href = "../../../baselines/xml/FedRAMP_rev5_MODERATE-baseline_profile.xml";
    const ssps = ["fedramp-ssp-example.json", "ssp-import-profile-resolves-to-fedramp-content-VALID-1.json", "ssp-marking-INVALID.json", "ssp-has-required-response-points-INVALID.json"].map(content);
    const { settings, files } = settingsOf(["--level", "full", "--constraints", "fedramp", "--now", "2026-01-01T00:00:00Z", "--document", `${href}=${catalog}`, ...ssps]);
    const one = await validateFiles(files, settings, 1, () => {});
    const two = await validateFiles(files, settings, 2, () => {});
    expect(one.every((outcome) => outcome.report !== undefined)).toBe(true);
    expect(withoutTimes(two)).toEqual(withoutTimes(one));
  });

  it("starts no second thread for a small input, whatever --jobs allows", () => {
    const dir = tempDir("threads");
    const files = Array.from({ length: 40 }, (_, index) => put(dir, `f${index}.json`, VALID_CATALOG));
    expect(threadCount(files, 8)).toBe(1);
    expect(threadCount(files, undefined)).toBe(1);
    expect(threadCount([], 4)).toBe(1);
  });
});
