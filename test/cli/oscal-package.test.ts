// The oscal-package pack from the command line, on a package in one directory: an SSP importing its baseline profile
// by a relative href, the profile importing the SP 800-53 catalog through its back matter. The profile is read as the
// catalog it resolves to, its import found next to it inside --documents, or, without it, inside the directory named.
// At level full the pack runs without being named.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { corpusDir } from "../helpers/corpus.js";
import { fedrampDir } from "../packs/fedramp-harness.js";
import { put, run, tempDir } from "./support.js";

interface Report {
  complete: boolean;
  issues: { ruleId: string; path: string; message: string; keyword: string; severity: string }[];
}

const lowProfile = path.join(corpusDir(), "profile", "fedramp-rev5-low-baseline-profile.json");
const sp80053 = path.join(corpusDir(), "catalog", "nist-sp800-53-rev5.0.1-catalog-2021.json");
const example = JSON.parse(readFileSync(path.join(fedrampDir, "content", "fedramp-ssp-example.json"), "utf8"));

/** A package directory: ssp.json implementing LOW's controls but its first, plus ac-99; the baseline; its catalog. */
function packageDir({ schemaValid = false } = {}): string {
  const dir = tempDir("package");
  copyFileSync(lowProfile, path.join(dir, "baseline.json"));
  copyFileSync(sp80053, path.join(dir, "NIST_SP-800-53_rev5_catalog.json"));
  const low = JSON.parse(readFileSync(lowProfile, "utf8"));
  const controls = [...(low.profile.imports[0]["include-controls"][0]["with-ids"] as string[]).slice(1), "ac-99"];
  const ssp = structuredClone(example);
  ssp["system-security-plan"]["import-profile"] = { href: "baseline.json" };
  // The example's one schema error, an empty protocol title: the default rules need a schema-valid document.
  if (schemaValid) ssp["system-security-plan"]["system-implementation"].components[7].protocols[0].title = "HTTPS";
  ssp["system-security-plan"]["control-implementation"]["implemented-requirements"] = controls.map((id, i) => ({
    uuid: `6a6c2a1e-4c1f-4d0e-9a55-${String(i).padStart(12, "0")}`,
    "control-id": id,
  }));
  put(dir, "ssp.json", ssp);
  return dir;
}

const packFindings = (report: Report) => report.issues.filter((issue) => issue.ruleId.startsWith("PKG-")).map(({ ruleId, path: at, message, keyword }) => ({ ruleId, path: at, message, keyword }));

describe("oscal-validate --level full: oscal-package on by default", () => {
  it("checks every document of a directory with what it imports, without --constraints", () => {
    const dir = packageDir({ schemaValid: true });
    const { status, stdout } = run(["--level", "full", "--format", "json", dir]);
    expect(status).toBe(1);
    const reports = JSON.parse(stdout) as (Report & { file: string })[];
    const byName = (name: string) => reports.find((report) => path.basename(report.file) === name)!;
    expect(packFindings(byName("ssp.json")).map(({ ruleId, keyword, path: at }) => `${ruleId} ${keyword} ${at}`)).toEqual([
      "PKG-001.a expect /system-security-plan/control-implementation/implemented-requirements/155",
      "PKG-002.a expect /system-security-plan/control-implementation",
    ]);
    expect(packFindings(byName("baseline.json"))).toEqual([]);
    expect(byName("baseline.json").complete).toBe(true);
  });

  it("reports what needs a document the directory lacks as not evaluated, and the report as not complete", () => {
    const dir = packageDir({ schemaValid: true });
    rmSync(path.join(dir, "baseline.json"));
    const { stdout } = run(["--level", "full", "--format", "json", path.join(dir, "ssp.json")]);
    const [report] = JSON.parse(stdout) as Report[];
    expect(report!.complete).toBe(false);
    expect(packFindings(report!).map(({ ruleId, keyword }) => `${ruleId} ${keyword}`)).toEqual(["PKG-001.a not-evaluated", "PKG-002.a not-evaluated"]);
  });
});

describe("oscal-validate --constraints oscal-package", () => {
  it("checks an SSP against its baseline profile, resolved from files next to it", () => {
    const dir = packageDir();
    const { status, stdout } = run(["--level", "full", "--constraints", "oscal-package", "--documents", dir, "--format", "json", path.join(dir, "ssp.json")]);
    expect(status).toBe(1);
    const [report] = JSON.parse(stdout) as Report[];
    expect(packFindings(report!)).toEqual([
      {
        ruleId: "PKG-001.a", keyword: "expect", path: "/system-security-plan/control-implementation/implemented-requirements/155",
        message: 'The implemented requirement names control "ac-99", which the imported baseline (FedRAMP Rev 5 Low Baseline) does not contain.',
      },
      {
        ruleId: "PKG-002.a", keyword: "expect", path: "/system-security-plan/control-implementation",
        message: "1 control(s) of the imported baseline (FedRAMP Rev 5 Low Baseline) have no implemented requirement: ac-1.",
      },
    ]);
  });

  it("checks a package walked at once: the SSP finds its baseline beside it, without --documents", () => {
    const dir = packageDir();
    const { status, stdout } = run(["--level", "full", "--constraints", "oscal-package", "--format", "json", dir]);
    expect(status).toBe(1);
    const reports = JSON.parse(stdout) as (Report & { file: string })[];
    expect(reports.map((report) => path.basename(report.file)).sort()).toEqual(["NIST_SP-800-53_rev5_catalog.json", "baseline.json", "ssp.json"]);
    const ssp = reports.find((report) => report.file.endsWith("ssp.json"))!;
    expect(packFindings(ssp).map(({ ruleId, path: at }) => `${ruleId} ${at}`)).toEqual([
      "PKG-001.a /system-security-plan/control-implementation/implemented-requirements/155",
      "PKG-002.a /system-security-plan/control-implementation",
    ]);
  });

  it("looks a relative href up beside its document, never outside the directory named", () => {
    const dir = packageDir();
    const inner = path.join(dir, "ssp");
    mkdirSync(inner);
    const ssp = JSON.parse(readFileSync(path.join(dir, "ssp.json"), "utf8"));
    ssp["system-security-plan"]["import-profile"] = { href: "../baseline.json" };
    put(inner, "ssp.json", ssp);
    // Named alone, the SSP's package is its own directory: the baseline one level up is not read, nor said missing.
    const alone = JSON.parse(run(["--level", "full", "--constraints", "oscal-package", "--format", "json", path.join(inner, "ssp.json")]).stdout) as Report[];
    expect(alone[0]!.complete).toBe(false);
    expect(packFindings(alone[0]!).map(({ ruleId, keyword, message }) => `${ruleId} ${keyword} ${message}`)).toEqual([
      'PKG-001.a not-evaluated Not evaluated: it needs the document "../baseline.json", which was not supplied.',
      'PKG-002.a not-evaluated Not evaluated: it needs the document "../baseline.json", which was not supplied.',
    ]);
    // A file the package should hold and does not is missing, not unsupplied.
    ssp["system-security-plan"]["import-profile"] = { href: "missing.json" };
    put(inner, "ssp.json", ssp);
    const missing = JSON.parse(run(["--level", "full", "--constraints", "oscal-package", "--format", "json", path.join(inner, "ssp.json")]).stdout) as Report[];
    expect(packFindings(missing[0]!)[0]!.message).toBe('Not evaluated: the document "missing.json" is not available.');
    put(inner, "ssp.json", { ...ssp, "system-security-plan": { ...ssp["system-security-plan"], "import-profile": { href: "../baseline.json" } } });
    // Walked from the directory above, the same href reaches the baseline.
    const walked = JSON.parse(run(["--level", "full", "--constraints", "oscal-package", "--format", "json", dir]).stdout) as (Report & { file: string })[];
    const nested = walked.find((report) => report.file.endsWith(path.join("ssp", "ssp.json")))!;
    expect(packFindings(nested).map(({ ruleId }) => ruleId)).toEqual(["PKG-001.a", "PKG-002.a"]);
  });

  it("without documents (standard input), reports the rules as not evaluated and the report as not complete", () => {
    const dir = packageDir();
    const { stdout } = run(["--level", "full", "--constraints", "oscal-package", "--format", "json", "-"], { input: readFileSync(path.join(dir, "ssp.json"), "utf8") });
    const [report] = JSON.parse(stdout) as Report[];
    expect(report!.complete).toBe(false);
    expect(packFindings(report!).map(({ ruleId, keyword }) => `${ruleId} ${keyword}`)).toEqual(["PKG-001.a not-evaluated", "PKG-002.a not-evaluated"]);
    expect(packFindings(report!)[0]!.message).toBe('Not evaluated: it needs the document "baseline.json" and no documents were supplied.');
  });
});
