// SARIF from a mixed run, checked the way code-scanning services check it: against the official SARIF 2.1.0 schema
// and by Microsoft's SARIF multitool with its GitHub rules.
import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../../compiler/paths.js";
import { RULE_CATALOG } from "../../runtime/core/rule-catalog.js";
import { PACKAGE_DOCS_URL } from "../../runtime/package-info.js";
import { INVALID_CATALOG, MANY_FINDINGS_CATALOG, put, run, sarifSchemaErrors, tempDir, VALID_CATALOG, WARNING_ONLY_CATALOG } from "./support.js";

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number; startColumn: number } }; logicalLocations?: Array<{ fullyQualifiedName: string }> }>;
  partialFingerprints: Record<string, string>;
}

interface SarifRule {
  id: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri?: string;
}

const packageVersion = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
const cwd = tempDir("sarif");
const outside = tempDir("sarif-outside");
const outsideFile = put(outside, "outside.json", INVALID_CATALOG);
const manyFindingsFile = put(cwd, "big/many findings.json", MANY_FINDINGS_CATALOG);
put(cwd, "My SSP.json", INVALID_CATALOG);
put(cwd, "sub/a#b.json", VALID_CATALOG);
put(cwd, "not-oscal.json", "[1, 2]");
put(cwd, "broken.json", '{\n  "catalog": }');
put(cwd, "warned.json", WARNING_ONLY_CATALOG);
const DOCS = "https://docs.example.org/oscal";
const inputs = ["My SSP.json", "sub/a#b.json", outsideFile, "-", "big/many findings.json", "missing.json", "not-oscal.json", "broken.json", "warned.json"];

function sarifOf(args: string[], input = JSON.stringify(INVALID_CATALOG)) {
  const result = run(["--format", "sarif", ...args], { cwd, input });
  return { ...result, sarif: JSON.parse(result.stdout) };
}

function resultsFor(sarif: any, uri: string): SarifResult[] {
  return sarif.runs[0].results.filter((result: SarifResult) => result.locations[0]!.physicalLocation.artifactLocation.uri === uri);
}

describe("oscal-validate --format sarif", () => {
  let mixed: ReturnType<typeof sarifOf>;
  beforeAll(() => {
    mixed = sarifOf(["--level", "full", "--docs-base-url", DOCS, ...inputs]);
  });

  it("is valid against the official SARIF 2.1.0 schema", () => {
    expect(sarifSchemaErrors(mixed.sarif)).toEqual([]);
  });

  it("passes the SARIF multitool's SARIF and GitHub rules with no error or warning", () => {
    const logFile = path.join(cwd, "mixed.sarif");
    const verdictFile = path.join(cwd, "multitool.sarif");
    writeFileSync(logFile, mixed.stdout);
    const multitool = createRequire(import.meta.url)("@microsoft/sarif-multitool") as string;
    const checked = spawnSync(multitool, ["validate", "--rule-kind", "Gh;Sarif", logFile, "-o", verdictFile, "--log", "ForceOverwrite"], {
      encoding: "utf8",
      env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: "1" },
    });
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    // The multitool writes its findings as SARIF; a result's level defaults to its rule's, and then to "warning".
    const verdict = JSON.parse(readFileSync(verdictFile, "utf8")).runs[0];
    const levelOf = (result: { level?: string; ruleIndex?: number }) => result.level ?? verdict.tool.driver.rules?.[result.ruleIndex ?? -1]?.defaultConfiguration?.level ?? "warning";
    const problems = (verdict.results as Array<{ level?: string; ruleIndex?: number; ruleId: string; message: { arguments?: string[] } }>)
      .filter((result) => ["error", "warning"].includes(levelOf(result)))
      .map((result) => `${result.ruleId}: ${result.message.arguments?.join(" | ")}`);
    expect(problems).toEqual([]);
    expect(verdict.invocations[0].executionSuccessful).toBe(true);
  });

  it("names files by percent-encoded URIs relative to %SRCROOT%, absolute file: URIs outside it, and stdin", () => {
    const run0 = mixed.sarif.runs[0];
    expect(run0.originalUriBaseIds["%SRCROOT%"].uri).toBe(`${pathToFileURL(cwd).href}/`);
    const uris = run0.results.map((result: SarifResult) => result.locations[0]!.physicalLocation.artifactLocation);
    expect(uris).toContainEqual({ uri: "My%20SSP.json", uriBaseId: "%SRCROOT%" });
    expect(uris).toContainEqual({ uri: "big/many%20findings.json", uriBaseId: "%SRCROOT%" });
    expect(uris).toContainEqual({ uri: pathToFileURL(outsideFile).href });
    expect(uris).toContainEqual(expect.objectContaining({ uri: "stdin" }));
    expect(resultsFor(mixed.sarif, "sub/a%23b.json")).toEqual([]); // valid: no results, but a URI that would parse
  });

  it("reports every one of 3,200 findings in a file, with a region on every result", () => {
    const many = resultsFor(mixed.sarif, "big/many%20findings.json");
    const { issueCount } = JSON.parse(run(["--format", "json", manyFindingsFile]).stdout)[0];
    expect(issueCount).toBe(3200);
    expect(many).toHaveLength(3200);
    for (const result of mixed.sarif.runs[0].results as SarifResult[]) {
      const { region } = result.locations[0]!.physicalLocation;
      expect(region.startLine).toBeGreaterThanOrEqual(1);
      expect(region.startColumn).toBeGreaterThanOrEqual(1);
    }
  });

  it("reports an input that is not OSCAL as a result, and an unreadable one as a failed tool execution", () => {
    expect(mixed.status).toBe(2);
    const [invocation] = mixed.sarif.runs[0].invocations;
    expect(invocation).toMatchObject({ executionSuccessful: false, exitCode: 2 });
    expect(invocation.toolExecutionNotifications).toEqual([
      expect.objectContaining({ level: "error", descriptor: { id: "ERR_UNREADABLE_INPUT" }, message: { text: "File not found: missing.json." } }),
    ]);
    expect(resultsFor(mixed.sarif, "not-oscal.json")).toEqual([expect.objectContaining({ ruleId: "ERR_UNKNOWN_MODEL", level: "error" })]);
    const [broken] = resultsFor(mixed.sarif, "broken.json");
    expect(broken).toMatchObject({ ruleId: "ERR_INVALID_JSON", message: { text: expect.stringMatching(/^Not well-formed JSON: .* at line 2, column 14\.$/) } });
    expect(broken!.locations[0]!.physicalLocation.region).toEqual({ startLine: 2, startColumn: 14 });
  });

  it("describes every rule it uses, with help and a documentation link, semantic rules from the rule catalog", () => {
    const { rules } = mixed.sarif.runs[0].tool.driver as { rules: SarifRule[] };
    for (const result of mixed.sarif.runs[0].results as SarifResult[]) expect(rules[result.ruleIndex]!.id).toBe(result.ruleId);
    for (const rule of rules) {
      expect(rule.fullDescription.text.length).toBeGreaterThan(rule.shortDescription.text.length);
      expect(rule.help.text).not.toBe("");
      expect(rule.help.markdown).toContain(rule.helpUri!);
    }
    const semantic = rules.find((rule) => rule.id === "MET-045.a")!;
    expect(semantic.shortDescription.text).toBe(RULE_CATALOG.find((rule) => rule.id === "MET-045.a")!.description);
    expect(semantic.helpUri).toBe(`${DOCS}/docs/rules#MET-045.a`);
    expect(rules.find((rule) => rule.id === "ERR_UNKNOWN_MODEL")!.helpUri).toBe(`${DOCS}/docs/errors#ERR_UNKNOWN_MODEL`);
    const schemaRule = rules.find((rule) => rule.id.startsWith("nist-schema:1.2.2:catalog:pattern:"))!;
    expect(schemaRule.shortDescription.text).toBe("OSCAL JSON schema: pattern");
    // Schema rule ids are too many to list: their link is the rules page's explanation of how they are formed.
    expect(schemaRule.helpUri).toBe(`${DOCS}/docs/rules#schema-rule-ids`);
  });

  it("names the tool by its package version, with the OSCAL release and rule manifest as properties", () => {
    const { driver } = mixed.sarif.runs[0].tool;
    expect(driver).toMatchObject({ name: "oscal-validate", version: packageVersion, informationUri: `${DOCS}/` });
    expect(driver.properties).toEqual({ oscalRelease: "1.2.2", ruleManifestSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("links by default to the pages published for its version, or, in a build that names none, carries help text only", () => {
    const { sarif, stdout } = sarifOf(["My SSP.json"]);
    expect(stdout).not.toContain("localhost");
    const { driver } = sarif.runs[0].tool;
    for (const rule of driver.rules as SarifRule[]) {
      expect(rule.help.text).not.toBe("");
      if (PACKAGE_DOCS_URL === undefined) expect(rule.helpUri).toBeUndefined();
      else expect(rule.helpUri!.startsWith(`${PACKAGE_DOCS_URL}/docs/`)).toBe(true);
    }
    expect(driver.informationUri).toBe(PACKAGE_DOCS_URL === undefined ? undefined : `${PACKAGE_DOCS_URL}/`);
  });

  it("links to --docs-base-url", () => {
    const { sarif } = sarifOf(["--docs-base-url", "https://docs.example.org/oscal/", "My SSP.json"]);
    expect(sarif.runs[0].tool.driver.informationUri).toBe("https://docs.example.org/oscal/");
    expect(sarif.runs[0].tool.driver.rules[0].helpUri).toBe("https://docs.example.org/oscal/docs/rules#schema-rule-ids");
  });

  it("keeps fingerprints when a file's layout changes, and tells findings at different paths apart", () => {
    const fingerprints = () => resultsFor(sarifOf(["layout.json"]).sarif, "layout.json").map((result) => Object.values(result.partialFingerprints)[0]);
    put(cwd, "layout.json", JSON.stringify({ catalog: { uuid: "nope", metadata: { ...VALID_CATALOG.catalog.metadata, "last-modified": "soon" } } }));
    const compact = fingerprints();
    put(cwd, "layout.json", `\n\n${JSON.stringify({ catalog: { uuid: "nope", metadata: { ...VALID_CATALOG.catalog.metadata, "last-modified": "soon" } } }, null, 4)}`);
    expect(compact.length).toBeGreaterThanOrEqual(2);
    expect(new Set(compact).size).toBe(compact.length);
    expect(fingerprints()).toEqual(compact);
  });

  it("tells apart the findings of one value under each allowed-values rule it fails", () => {
    // A control's prop in the OSCAL namespace named "bogus": the control's constraint and every prop's own both fail it.
    const control = { id: "c1", title: "C", props: [{ name: "bogus", value: "x" }], parts: [{ id: "c1_smt", name: "statement", prose: "Do it." }] };
    put(cwd, "pooled.json", { catalog: { ...VALID_CATALOG.catalog, controls: [control] } });
    const results = resultsFor(sarifOf(["--level", "full", "pooled.json"]).sarif, "pooled.json");
    expect(results.map((result) => [result.ruleId, result.locations[0]!.logicalLocations![0]!.fullyQualifiedName])).toEqual(
      ["CAT-002.a", "MET-001.a"].map((ruleId) => [ruleId, "/catalog/controls/0/props/0/name"]),
    );
    expect(new Set(results.map((result) => Object.values(result.partialFingerprints)[0])).size).toBe(2);
  });

  it("with --max-issues, reports the cap as a notification per cut file", () => {
    const { sarif } = sarifOf(["--max-issues", "10", "big/many findings.json"]);
    expect(sarif.runs[0].results).toHaveLength(10);
    expect(sarif.runs[0].invocations[0].toolExecutionNotifications).toEqual([
      expect.objectContaining({ level: "warning", message: { text: "10 of 3200 findings reported for this file; 3190 more not reported because of --max-issues." } }),
    ]);
  });

  // Findings carry line and column once the core locates them; until then every region is line 1, column 1.
  it("places a finding's region at its value's line and column", () => {
    put(cwd, "pretty.json", JSON.stringify(INVALID_CATALOG, null, 2)); // line 3 is `    "uuid": "nope",`
    const [result] = resultsFor(sarifOf(["pretty.json"]).sarif, "pretty.json");
    expect(result!.locations[0]!.physicalLocation.region).toEqual({ startLine: 3, startColumn: 13 });
  });
});

describe("SARIF rule help", () => {
  it("gives a rule's why, from its constraint's remarks, in the help a reader opens, not in its descriptions", () => {
    const { catalog } = VALID_CATALOG;
    const linked = { catalog: { ...catalog, metadata: { ...catalog.metadata, links: [{ href: "#nowhere", "media-type": "text/plain" }] } } };
    const result = run(["--format", "sarif", "--level", "full", "-"], { input: JSON.stringify(linked) });
    const { rules } = JSON.parse(result.stdout).runs[0].tool.driver as { rules: SarifRule[] };
    const rule = rules.find((entry) => entry.id === "MET-003.a")!;
    const remarks = RULE_CATALOG.find((entry) => entry.id === "MET-003.a")!.remarks!;
    expect(remarks.length).toBeGreaterThan(20);
    expect(rule.help.text).toContain(` Why: ${remarks}`);
    expect(rule.help.markdown).toContain(` Why: ${remarks}`);
    expect(rule.fullDescription.text).not.toContain(remarks);
  });
});
