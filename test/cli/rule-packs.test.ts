// Rule packs from the command line: --constraints, the local documents their constraints may read (--documents,
// --document), the clock (--now), and pack findings in every output format, on FedRAMP's own test content.
import { describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { RULE_CATALOG } from "../../runtime/core/rule-catalog.js";
import { fedrampDir } from "../packs/fedramp-harness.js";
import { put, run, sarifSchemaErrors, tempDir } from "./support.js";

const content = (name: string) => path.join(fedrampDir, "content", name);
const resource = (name: string) => path.join(fedrampDir, "resources", name);
const exampleSsp = content("fedramp-ssp-example.json");
/** The example SSP's import-profile href, as written, and the local copy of the profile it names, resolved. */
const exampleProfileHref = "../../../baselines/xml/FedRAMP_rev5_MODERATE-baseline_profile.xml";
const moderateCatalog = resource("FedRAMP_rev5_MODERATE-baseline-resolved-profile_catalog.json");

/** The pack rule id of a FedRAMP constraint id. */
function frr(constraintId: string): string {
  const rule = RULE_CATALOG.find((entry) => entry.set === "fedramp" && entry.constraintId === constraintId);
  if (rule === undefined) throw new Error(`no FedRAMP rule for ${constraintId}`);
  return rule.id;
}

interface Finding {
  ruleId: string;
  keyword: string;
  severity: string;
  message: string;
}
interface Report {
  file: string;
  complete: boolean;
  issues: Finding[];
  meta: { durationMs: number; semanticRules?: { count: number } };
  error?: { code: string; detail: string };
}

function reportsOf(args: string[], cwd?: string): { status: number | null; reports: Report[]; stderr: string } {
  const result = run(["--format", "json", ...args], { cwd });
  return { status: result.status, reports: result.stdout === "" ? [] : (JSON.parse(result.stdout) as Report[]), stderr: result.stderr };
}

const notEvaluated = (report: Report) => report.issues.filter((issue) => issue.keyword === "not-evaluated").map((issue) => issue.ruleId);
const ruleIds = (report: Report) => new Set(report.issues.map((issue) => issue.ruleId));

/** An SSP fragment (FedRAMP checks partial documents) that imports `href`. */
const importing = (href: string) => ({ "system-security-plan": { uuid: "12345678-1234-4321-8765-123456789012", "import-profile": { href } } });

describe("oscal-validate --constraints", () => {
  it("reports FedRAMP findings on the example SSP, incomplete without documents", () => {
    const { status, reports } = reportsOf(["--level", "full", "--constraints", "fedramp", exampleSsp]);
    expect(status).toBe(1);
    const [report] = reports;
    expect([...ruleIds(report!)].filter((id) => id.startsWith("FRR-")).length).toBeGreaterThan(3);
    expect(report!.complete).toBe(false);
    expect(notEvaluated(report!)).toEqual(expect.arrayContaining([frr("import-profile-has-available-document"), frr("has-required-response-points"), frr("incomplete-implemented-requirements")]));
    // Every NIST and own rule on by default, plus every FedRAMP rule.
    expect(report!.meta.semanticRules!.count).toBe(RULE_CATALOG.filter((rule) => rule.level === "full" && (rule.defaultOn || rule.set === "fedramp")).length);
  });

  it("shows a finding in the imported baseline at the SSP, naming the baseline, in text and SARIF", () => {
    const args = ["--level", "full", "--rules", frr("has-required-parameters"), "--document", `${exampleProfileHref}=${moderateCatalog}`, exampleSsp];
    const text = run(["--format", "text", ...args]).stdout;
    const first = text.split("\n").find((line) => line.includes(`[${frr("has-required-parameters")}]`))!;
    expect(first.startsWith("  error /system-security-plan: A FedRAMP SSP must define all parameters")).toBe(true);
    expect(first).toMatch(/\(In the catalog the imported document "\.\.\/\.\.\/\.\.\/baselines\/xml\/FedRAMP_rev5_MODERATE-baseline_profile\.xm…" resolves to, at \/catalog\/groups\/\d+\/[\d/a-z]+\/params\/\d+\.\) \[FRR-\d+\.a\] \(line 3, column 5\)$/);

    const sarif = JSON.parse(run(["--format", "sarif", ...args]).stdout);
    expect(sarifSchemaErrors(sarif)).toEqual([]);
    const results = (sarif.runs[0].results as { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[]; partialFingerprints: Record<string, string>; properties: Record<string, string> }[]).filter(
      (result) => result.ruleId === frr("has-required-parameters"),
    );
    expect(results.length).toBeGreaterThan(1);
    for (const result of results) {
      expect(result.properties).toMatchObject({ jsonPointer: "/system-security-plan", document: exampleProfileHref, documentPath: expect.stringMatching(/^\/catalog\/groups\//) });
      expect(result.locations[0]!.physicalLocation.region.startLine).toBe(3);
    }
    // One place in the SSP, distinct findings in the baseline: their fingerprints stay distinct.
    expect(new Set(results.map((result) => Object.values(result.partialFingerprints)[0])).size).toBe(results.length);
  });

  it("marks a rule that could not run as neither passed nor failed in SARIF (kind open, level none)", () => {
    const result = run(["--level", "full", "--constraints", "fedramp", "--format", "sarif", exampleSsp]);
    const results = JSON.parse(result.stdout).runs[0].results as { kind?: string; level: string; properties: { keyword: string } }[];
    const open = results.filter((entry) => entry.properties.keyword === "not-evaluated");
    expect(open.length).toBeGreaterThan(0);
    for (const entry of open) expect(entry).toMatchObject({ kind: "open", level: "none" });
    for (const entry of results.filter((other) => other.properties.keyword !== "not-evaluated")) expect(entry.kind).toBeUndefined();
  });

  it("--document maps the imported profile to its resolved catalog: the resolved-profile rules are evaluated", () => {
    const { reports } = reportsOf(["--level", "full", "--constraints", "fedramp", "--document", `${exampleProfileHref}=${moderateCatalog}`, exampleSsp]);
    const [report] = reports;
    expect(notEvaluated(report!)).toEqual([]);
    // The pre-resolved catalog predates the constraints (see the shared README): its controls lack what they require.
    expect(report!.issues.filter((issue) => issue.ruleId === frr("has-required-parameters") && issue.keyword === "index-has-key").length).toBeGreaterThan(0);
    expect(ruleIds(report!).has(frr("import-profile-has-available-document"))).toBe(false);
  });

  it("--documents DIR answers relative hrefs inside DIR only; other hrefs are not available", () => {
    const dir = tempDir("documents");
    const documents = path.join(dir, "docs");
    copyFileSync(resource("FedRAMP_rev5_MODERATE-baseline_profile.json"), path.join(documents, "..", "outside-profile.json"));
    mkdirSync(path.join(documents, "baselines"), { recursive: true });
    copyFileSync(resource("FedRAMP_rev5_MODERATE-baseline_profile.json"), path.join(documents, "baselines/moderate profile.json"));
    symlinkSync(path.join(dir, "outside-profile.json"), path.join(documents, "link.json"));
    const available = frr("import-profile-has-available-document");
    const check = (href: string) => {
      const file = put(dir, `ssp-${Math.random().toString(36).slice(2)}.json`, importing(href));
      const { reports } = reportsOf(["--level", "full", "--rules", available, "--documents", documents, file]);
      return reports[0]!.issues.filter((issue) => issue.ruleId === available).map((issue) => issue.keyword);
    };
    expect(check("baselines/moderate%20profile.json")).toEqual([]);
    expect(check("./baselines/../baselines/moderate%20profile.json")).toEqual([]);
    expect(check("../outside-profile.json")).toEqual(["expect"]);
    expect(check(path.join(dir, "outside-profile.json"))).toEqual(["expect"]);
    expect(check("link.json")).toEqual(["expect"]);
    expect(check("https://example.org/profile.json")).toEqual(["expect"]);
    expect(check("missing.json")).toEqual(["expect"]);
  });

  it("a document in DIR that does not parse makes the input unreadable (exit 2), naming the document", () => {
    const dir = tempDir("bad-document");
    put(dir, "docs/profile.json", '{"profile": ');
    const ssp = put(dir, "ssp.json", importing("profile.json"));
    const { status, reports } = reportsOf(["--level", "full", "--constraints", "fedramp", "--documents", path.join(dir, "docs"), ssp]);
    expect(status).toBe(2);
    expect(reports[0]!.error).toEqual({ code: "ERR_UNREADABLE_INPUT", detail: expect.stringContaining(`${path.join(dir, "docs", "profile.json")} cannot be used: ERR_INVALID_JSON`) });
  });

  it("reads YAML documents by their extension", () => {
    const dir = tempDir("yaml-document");
    const yamlFile = put(dir, "profile.yaml", "profile:\n  uuid: 12345678-1234-4321-8765-123456789012\n");
    const ssp = put(dir, "ssp.json", importing("remote.xml"));
    const available = frr("import-profile-has-available-document");
    const { reports } = reportsOf(["--level", "full", "--rules", available, "--document", `remote.xml=${yamlFile}`, ssp]);
    expect(reports[0]!.issues.filter((issue) => issue.ruleId === available)).toEqual([]);
  });

  it("--now fixes the clock of date constraints", () => {
    const dateRule = frr("fully-operational-date-is-valid");
    const file = content("ssp-fully-operational-date-is-valid-INVALID.json"); // fully operational on 2027-01-01
    const findings = (now: string) => reportsOf(["--level", "full", "--rules", dateRule, "--now", now, file]).reports[0]!.issues.filter((issue) => issue.ruleId === dateRule);
    expect(findings("2026-06-01T00:00:00Z")).toEqual([expect.objectContaining({ keyword: "expect", severity: "error" })]);
    expect(findings("2027-06-01T00:00:00Z")).toEqual([]);
  });

  it("gives the same reports with --jobs 2 as with --jobs 1, documents loaded by each thread", () => {
    const files = [exampleSsp, content("ssp-import-profile-resolves-to-fedramp-content-VALID-1.json"), content("ssp-marking-INVALID.json"), content("ssp-has-required-response-points-INVALID.json")];
    const args = ["--level", "full", "--constraints", "fedramp", "--now", "2026-01-01T00:00:00Z", "--document", `${exampleProfileHref}=${moderateCatalog}`, ...files];
    const withoutTimes = (reports: Report[]) => reports.map((report) => ({ ...report, meta: { ...report.meta, durationMs: 0 } }));
    const one = reportsOf(["--jobs", "1", ...args]);
    const two = reportsOf(["--jobs", "2", ...args]);
    expect(one.reports).toHaveLength(files.length);
    expect(withoutTimes(two.reports)).toEqual(withoutTimes(one.reports));
  });

  it("shows pack findings in every format", () => {
    const file = content("ssp-marking-INVALID.json");
    const marking = frr("marking");
    const formats = ["text", "github", "junit", "sarif"].map((format) => run(["--level", "full", "--constraints", "fedramp", "--format", format, file]));
    for (const output of formats) {
      expect(output.status).toBe(1);
      expect(output.stdout).toContain(marking);
    }
    const sarif = JSON.parse(formats[3]!.stdout);
    expect(sarifSchemaErrors(sarif)).toEqual([]);
    const rule = sarif.runs[0].tool.driver.rules.find((descriptor: { id: string }) => descriptor.id === marking);
    expect(rule.properties).toMatchObject({ constraintId: "marking", tags: expect.arrayContaining(["fedramp"]) });
    expect(rule.fullDescription.text).toContain("fedramp rule pack (marking)");
    expect(rule.fullDescription.text).toContain(`--rules ${marking} or --constraints fedramp`);
    expect(formats[0]!.stdout).toContain("[incomplete: the document declares no oscal-version; the constraint checks did not run, as the schema rejected the document]");
  });

  it("usage errors exit 2 and say what is wrong", () => {
    const file = content("ssp-marking-INVALID.json");
    const usage = (...args: string[]) => {
      const { status, stderr } = run([...args, file]);
      expect(status).toBe(2);
      return stderr;
    };
    expect(usage("--constraints", "fedramp")).toContain("--constraints selects rule packs and works only with --level full");
    expect(usage("--level", "full", "--constraints", "fisma")).toContain('--constraints: Unknown rule pack "fisma". This build holds: fedramp, oscal-package.');
    expect(usage("--documents", fedrampDir)).toContain("--documents is read by rule pack constraints and works only with --level full");
    expect(usage("--level", "full", "--documents", exampleSsp)).toContain("--documents must name a directory");
    expect(usage("--level", "full", "--document", "profile.xml")).toContain('--document must be HREF=FILE; got "profile.xml"');
    expect(usage("--level", "full", "--document", "profile.xml=/nonexistent/profile.json")).toContain("--document: cannot read the document: File not found: /nonexistent/profile.json");
    const notJson = put(tempDir("not-json"), "profile.json", "profile:");
    expect(usage("--level", "full", "--document", `profile.xml=${notJson}`)).toContain(`--document: the document ${notJson} cannot be used: ERR_INVALID_JSON: Not well-formed JSON`);
    expect(usage("--level", "full", "--now", "2026-01-01")).toContain("--now must be a date-time with a timezone");
  });
});

describe("oscal-validate rules --set", () => {
  it("lists only the rules of the sets named", () => {
    const fedramp = JSON.parse(run(["rules", "--format", "json", "--set", "fedramp"]).stdout) as Array<{ set: string; constraintId: string }>;
    expect(fedramp).toHaveLength(RULE_CATALOG.filter((rule) => rule.set === "fedramp").length);
    expect(fedramp.every((rule) => rule.set === "fedramp" && rule.constraintId !== undefined)).toBe(true);
    const lines = run(["rules", "--set", "ours", "--set", "fedramp"]).stdout.trimEnd().split("\n").slice(1);
    expect(new Set(lines.map((line) => line.split(/ +/)[1]))).toEqual(new Set(["ours", "fedramp"]));
    expect(run(["rules", "--set", "fisma"]).status).toBe(2);
  });
});
