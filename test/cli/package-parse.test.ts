// A package walked from the command line, its files validated in one thread: an SSP, the baseline profile it imports
// and the catalog the profile imports. Each file is parsed once, whether it is validated before or after the document
// that imports it (the document reader's filesParsed counts every parse, the validated files' included), and the
// SSP's report is the one it gets alone.
import { copyFileSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesParsed } from "../../runtime/cli/documents.js";
import { validateFile, type ValidationSettings } from "../../runtime/cli/file-outcome.js";
import type { ValidationReport } from "../../runtime/core/report.js";
import { corpusDir } from "../helpers/corpus.js";
import { fedrampDir } from "../packs/fedramp-harness.js";
import { put, tempDir } from "./support.js";

const lowProfile = path.join(corpusDir(), "profile", "fedramp-rev5-low-baseline-profile.json");
const sp80053 = path.join(corpusDir(), "catalog", "nist-sp800-53-rev5.0.1-catalog-2021.json");
const NOW = new Date("2026-06-01T00:00:00Z");

/** The package: ssp.json importing baseline.json, which imports the catalog by the name its back matter gives. */
function packageDir(): string {
  const dir = realpathSync(tempDir("parse-once"));
  copyFileSync(lowProfile, path.join(dir, "baseline.json"));
  copyFileSync(sp80053, path.join(dir, "NIST_SP-800-53_rev5_catalog.json"));
  const ssp = JSON.parse(readFileSync(path.join(fedrampDir, "content", "fedramp-ssp-example.json"), "utf8"));
  ssp["system-security-plan"]["import-profile"] = { href: "baseline.json" };
  put(dir, "ssp.json", ssp);
  return dir;
}

/** As `oscal-validate --level full --constraints oscal-package DIR` sets up each thread. */
function settingsFor(dir: string): ValidationSettings {
  return { options: { level: "full", constraints: ["oscal-package"], now: NOW, maxIssues: Infinity }, stdinFormat: "json", documents: { files: {}, roots: [dir] }, maxFileBytes: 64 * 1024 * 1024 };
}

/** A report's oscal-package findings. */
const packFindings = (report: ValidationReport) => report.issues.filter((issue) => issue.ruleId.startsWith("PKG-")).map(({ ruleId, path: at, message }) => ({ ruleId, path: at, message }));

describe("a package's files in one thread", () => {
  for (const order of [["ssp.json", "baseline.json", "NIST_SP-800-53_rev5_catalog.json"], ["baseline.json", "NIST_SP-800-53_rev5_catalog.json", "ssp.json"]]) {
    it(`parses each file once, validated in the order ${order.join(", ")}`, async () => {
      const dir = packageDir();
      const settings = settingsFor(dir);
      const before = filesParsed();
      const outcomes = [];
      for (const name of order) outcomes.push(await validateFile(path.join(dir, name), settings, true));
      expect(filesParsed() - before).toBe(3);
      expect(outcomes.map((outcome) => outcome.report?.model)).toEqual(order.map((name) => (name === "ssp.json" ? "system-security-plan" : name === "baseline.json" ? "profile" : "catalog")));
      const ssp = outcomes[order.indexOf("ssp.json")]!.report!;
      expect(ssp.issues.filter((issue) => issue.message.startsWith("Not evaluated"))).toEqual([]);
      // The SSP's findings are those of a thread that validates it alone (from a package of its own).
      const alone = packageDir();
      expect(packFindings(ssp).length).toBeGreaterThan(0);
      expect(packFindings(ssp)).toEqual(packFindings((await validateFile(path.join(alone, "ssp.json"), settingsFor(alone), true)).report!));
    });
  }
});
