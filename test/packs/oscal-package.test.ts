// The oscal-package pack through the library: cross-document rules on FedRAMP's example SSP with its baseline (and a
// leveraged SSP), on FedRAMP's LOW baseline profile with the SP 800-53 catalog it imports, on NIST's profile-resolution
// examples, and on plans, results and POA&Ms with the plan or SSP they import.
// A passing and a failing case per rule (the failing ones mutate a copy in memory), the reports when the imported
// document is not supplied, and the pack on by default at level full.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import manifest from "#generated/manifest.json" with { type: "json" };
import { validate, type ValidateOptions, type ValidationIssue, type ValidationReport } from "../../runtime/index.js";
import { RULE_CATALOG } from "../../runtime/core/rule-catalog.js";
import { corpusDir, repoRoot } from "../helpers/corpus.js";
import { fedrampDir } from "./fedramp-harness.js";

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, any>;
const copy = <T>(value: T): T => structuredClone(value);

const publishedSsp = readJson(path.join(fedrampDir, "content", "fedramp-ssp-example.json"));
const BASELINE_HREF = "../../../baselines/xml/FedRAMP_rev5_MODERATE-baseline_profile.xml";
const moderate = readJson(path.join(fedrampDir, "resources", "FedRAMP_rev5_MODERATE-baseline-resolved-profile_catalog.json"));
const BASELINE = "FedRAMP Rev 5 Moderate Baseline";

/** The example's references the rev5 (5.1.1) baseline lacks: rev 5.0 parameter ids, and statement ids of rev 4 or mistyped. */
const STALE_PARAMETER = /_prm_/;
const STALE_STATEMENT = /^(?:[a-z]{2}-1_smt\.b\.[12]|_smt|ac-20\.1_smt)$/;

/** The example with its stale references removed and its one schema error (an empty protocol title) fixed. */
function cleanSsp(): Record<string, any> {
  const ssp = copy(publishedSsp);
  const plan = ssp["system-security-plan"];
  plan["system-implementation"].components[7].protocols[0].title = "HTTPS";
  /** Keeps the items of an array member that pass; an array left empty is removed, as the schema wants. */
  const keep = (holder: Record<string, any>, member: string, passes: (item: any) => boolean) => {
    if (holder[member] === undefined) return;
    holder[member] = holder[member].filter(passes);
    if (holder[member].length === 0) delete holder[member];
  };
  for (const requirement of plan["control-implementation"]["implemented-requirements"]) {
    keep(requirement, "statements", (statement) => !STALE_STATEMENT.test(statement["statement-id"]));
    const statements = requirement.statements ?? [];
    for (const holder of [requirement, ...statements, ...statements.flatMap((s: any) => s["by-components"] ?? [])]) {
      keep(holder, "set-parameters", (parameter) => !STALE_PARAMETER.test(parameter["param-id"]));
    }
  }
  return ssp;
}

function report(document: object, options: ValidateOptions = {}): ValidationReport {
  const result = validate(document, { level: "full", constraints: ["oscal-package"], maxIssues: Infinity, ...options });
  if (result.kind !== "report") throw new Error(`no report: ${result.error.detail}`);
  return result.report;
}

const packIssues = (r: ValidationReport, ruleId?: string): ValidationIssue[] =>
  r.issues.filter((issue) => issue.ruleId.startsWith("PKG-") && (ruleId === undefined || issue.ruleId === ruleId));
const brief = (issues: ValidationIssue[]) => issues.map(({ ruleId, path, message, keyword, severity }) => ({ ruleId, path, message, keyword, severity }));

const withBaseline = { documents: { [BASELINE_HREF]: moderate } };
const requirements = (ssp: Record<string, any>) => ssp["system-security-plan"]["control-implementation"]["implemented-requirements"] as any[];
const IR = "/system-security-plan/control-implementation/implemented-requirements";

describe("oscal-package on a system security plan and its baseline", () => {
  it("finds the published example's stale parameter and statement references, and nothing else", () => {
    const r = report(publishedSsp, withBaseline);
    expect(packIssues(r, "PKG-001.a")).toEqual([]);
    expect(packIssues(r, "PKG-002.a")).toEqual([]);
    const parameters = packIssues(r, "PKG-003.a");
    expect(parameters).toHaveLength(42);
    expect(parameters.every((issue) => STALE_PARAMETER.test(issue.message))).toBe(true);
    expect(brief(parameters.slice(0, 1))).toEqual([{
      ruleId: "PKG-003.a", keyword: "expect", severity: "error",
      path: `${IR}/1/statements/0/by-components/0/set-parameters/0`,
      message: `The set-parameter names parameter "ac-2_prm_1", which the imported baseline (${BASELINE}) does not define.`,
    }]);
    const statements = packIssues(r, "PKG-004.a");
    expect(statements).toHaveLength(37);
    expect(statements.every((issue) => STALE_STATEMENT.test(/names "([^"]*)"/.exec(issue.message)![1]!))).toBe(true);
    expect(brief(statements.slice(0, 1))).toEqual([{
      ruleId: "PKG-004.a", keyword: "expect", severity: "error",
      path: `${IR}/0/statements/2`,
      message: `The statement names "ac-1_smt.b.1", which is not a part of control "ac-1" in the imported baseline (${BASELINE}).`,
    }]);
  });

  it("passes a plan whose references all reach its baseline, and the report is complete", () => {
    const r = report(cleanSsp(), withBaseline);
    expect(brief(packIssues(r))).toEqual([]);
    expect(r.complete).toBe(true);
  });

  it("PKG-001.a: an implemented requirement for a control the baseline lacks", () => {
    const ssp = cleanSsp();
    requirements(ssp).push({ uuid: "6a6c2a1e-4c1f-4d0e-9a55-0f8f7c3b1d01", "control-id": "ac-99" });
    expect(brief(packIssues(report(ssp, withBaseline)))).toEqual([{
      ruleId: "PKG-001.a", keyword: "expect", severity: "error", path: `${IR}/323`,
      message: `The implemented requirement names control "ac-99", which the imported baseline (${BASELINE}) does not contain.`,
    }]);
  });

  it("PKG-002.a: a control of the baseline without an implemented requirement, a warning", () => {
    const ssp = cleanSsp();
    requirements(ssp).splice(0, 1);
    const r = report(ssp, withBaseline);
    expect(brief(packIssues(r))).toEqual([{
      ruleId: "PKG-002.a", keyword: "expect", severity: "warning", path: "/system-security-plan/control-implementation",
      message: `1 control(s) of the imported baseline (${BASELINE}) have no implemented requirement: ac-1.`,
    }]);
  });

  it("PKG-003.a: a set-parameter naming a parameter the baseline does not define", () => {
    const ssp = cleanSsp();
    requirements(ssp)[0]["set-parameters"][0]["param-id"] = "ac-01_odp.99";
    expect(brief(packIssues(report(ssp, withBaseline)))).toEqual([{
      ruleId: "PKG-003.a", keyword: "expect", severity: "error", path: `${IR}/0/set-parameters/0`,
      message: `The set-parameter names parameter "ac-01_odp.99", which the imported baseline (${BASELINE}) does not define.`,
    }]);
  });

  it("PKG-004.a: a statement naming no part of its control; a part of another control does not count", () => {
    const ssp = cleanSsp();
    requirements(ssp)[0].statements[0]["statement-id"] = "ac-2_smt.a";
    expect(brief(packIssues(report(ssp, withBaseline)))).toEqual([{
      ruleId: "PKG-004.a", keyword: "expect", severity: "error", path: `${IR}/0/statements/0`,
      message: `The statement names "ac-2_smt.a", which is not a part of control "ac-1" in the imported baseline (${BASELINE}).`,
    }]);
  });

  it("reports the rules as not evaluated, naming the import, when the baseline is not supplied", () => {
    const notEvaluated = (r: ValidationReport) => packIssues(r).filter((issue) => issue.keyword === "not-evaluated");
    const missing = report(cleanSsp(), { documents: {} });
    expect(missing.complete).toBe(false);
    expect(brief(notEvaluated(missing)).map(({ ruleId, path, severity }) => ({ ruleId, path, severity }))).toEqual([
      { ruleId: "PKG-001.a", path: `${IR}/0`, severity: "warning" },
      { ruleId: "PKG-002.a", path: "/system-security-plan/control-implementation", severity: "warning" },
      { ruleId: "PKG-003.a", path: `${IR}/0/set-parameters/0`, severity: "warning" },
      { ruleId: "PKG-004.a", path: `${IR}/0/statements/0`, severity: "warning" },
    ]);
    expect(notEvaluated(missing)[0]!.message).toBe('Not evaluated: the document "../../../baselines/xml/FedRAMP_rev5_MODERATE-baseline_profile.xm…" is not available.');
    const none = report(cleanSsp());
    expect(none.complete).toBe(false);
    expect(notEvaluated(none)[0]!.message).toContain("and no documents were supplied");
  });
});

const lowProfile = readJson(path.join(corpusDir(), "profile", "fedramp-rev5-low-baseline-profile.json"));
const catalogHref = "NIST_SP-800-53_rev5_catalog.json";
const sp80053 = readJson(path.join(corpusDir(), "catalog", "nist-sp800-53-rev5.0.1-catalog-2021.json"));
const withCatalog = { documents: { [catalogHref]: sp80053 } };

describe("oscal-package on a profile and what it imports", () => {
  it("passes FedRAMP's LOW baseline against the SP 800-53 rev5 catalog it imports through its back matter", () => {
    const r = report(lowProfile, withCatalog);
    expect(brief(packIssues(r))).toEqual([]);
  });

  it("PKG-005.a: a with-ids naming a control the imported catalog lacks", () => {
    const profile = copy(lowProfile);
    const withIds = profile.profile.imports[0]["include-controls"][0]["with-ids"] as string[];
    withIds.push("ac-99");
    expect(brief(packIssues(report(profile, withCatalog)))).toEqual([{
      ruleId: "PKG-005.a", keyword: "expect", severity: "error", path: `/profile/imports/0/include-controls/0/with-ids/${withIds.length - 1}`,
      message: `The import of "${profile.profile.imports[0].href}" names control "ac-99", which the imported document does not contain.`,
    }]);
  });

  it("PKG-006.a: an alter naming a control no import contains", () => {
    const profile = copy(lowProfile);
    const alters = profile.profile.modify.alters as { "control-id": string }[];
    alters[0]!["control-id"] = "zz-1";
    expect(brief(packIssues(report(profile, withCatalog)))).toEqual([{
      ruleId: "PKG-006.a", keyword: "expect", severity: "error", path: "/profile/modify/alters/0",
      message: 'The alter names control "zz-1", which none of the profile\'s imported documents contains.',
    }]);
  });

  it("reads an imported profile as the catalog it resolves to (NIST's examples)", () => {
    const examples = path.join(repoRoot, "..", "shared", "profile-resolution", "examples");
    const baseProfile = readJson(path.join(examples, "base-test_profile.json"));
    const simple = readJson(path.join(examples, "catalogs", "abc-simple_catalog.json"));
    const tailoring = copy(baseProfile);
    tailoring.profile.uuid = "2a3d7f1e-8b9c-4d0e-a1f2-3b4c5d6e7f80";
    delete tailoring.profile["back-matter"];
    // base-test selects a1, b1, c1, c3 with their children; c2 is in the catalog but not in base-test's resolution.
    tailoring.profile.imports = [{ href: "base-test_profile.json", "include-controls": [{ "with-ids": ["a1", "c2"] }] }];
    const documents = { "base-test_profile.json": baseProfile, "catalogs/abc-simple_catalog.json": simple };
    expect(brief(packIssues(report(tailoring, { documents })))).toEqual([{
      ruleId: "PKG-005.a", keyword: "expect", severity: "error", path: "/profile/imports/0/include-controls/0/with-ids/1",
      message: 'The import of "base-test_profile.json" names control "c2", which the imported document does not contain.',
    }]);
  });

  it("reports the rules as not evaluated when the imported catalog is not supplied", () => {
    const r = report(lowProfile, { documents: {} });
    expect(r.complete).toBe(false);
    expect(brief(packIssues(r)).map(({ ruleId, keyword }) => ({ ruleId, keyword }))).toEqual([
      { ruleId: "PKG-005.a", keyword: "not-evaluated" },
      { ruleId: "PKG-006.a", keyword: "not-evaluated" },
    ]);
    expect(packIssues(r)[0]!.message).toBe(`Not evaluated: the document "${catalogHref}" is not available.`);
  });
});

const corpusJson = (file: string) => readJson(path.join(corpusDir(), file));
const examplePlan = corpusJson("assessment-plan/oscal-cli-example-ap-valid.json");
const exampleSsp = corpusJson("system-security-plan/oscal-cli-example-ssp-valid.json");
const SSP_COMPONENT = "551b9706-d6a4-4d25-8207-f2ccec548b89";
/** The plan's import-ssp goes through a back-matter resource offering the SSP as XML, JSON and YAML. */
const withSsp = { documents: { "example_ssp_valid.json": exampleSsp } };

/** The example plan assessing one component, by uuid. */
function planAssessing(componentUuid: string): Record<string, any> {
  const plan = copy(examplePlan);
  plan["assessment-plan"]["assessment-subjects"] = [{ type: "component", "include-subjects": [{ type: "component", "subject-uuid": componentUuid }] }];
  return plan;
}

describe("oscal-package on assessment plans, results and POA&Ms and the documents they import", () => {
  it("passes a plan whose assessed component is one of its SSP's", () => {
    const r = report(planAssessing(SSP_COMPONENT), withSsp);
    expect(brief(packIssues(r))).toEqual([]);
    expect(r.complete).toBe(true);
  });

  it("PKG-009.a: an assessed component in neither the SSP nor the plan's local definitions", () => {
    const missing = "0b8e3a84-6f2c-4a8e-9a51-6f0d3c2b1a99";
    expect(brief(packIssues(report(planAssessing(missing), withSsp)))).toEqual([{
      ruleId: "PKG-009.a", keyword: "expect", severity: "error", path: "/assessment-plan/assessment-subjects/0/include-subjects/0",
      message: `The assessment subject names component "${missing}", which is neither in the imported system security plan nor in the plan's local definitions.`,
    }]);
  });

  it("PKG-007.a: the imported SSP not supplied is a warning, and what needs it is not evaluated", () => {
    const r = report(planAssessing(SSP_COMPONENT), { documents: {} });
    expect(r.complete).toBe(false);
    expect(brief(packIssues(r))).toEqual([
      {
        ruleId: "PKG-007.a", keyword: "expect", severity: "warning", path: "/assessment-plan/import-ssp",
        message: 'The imported system security plan "#4a8f42e8-1357-4664-bd88-aac54cb9aeb8" is not among the documents supplied.',
      },
      {
        ruleId: "PKG-009.a", keyword: "not-evaluated", severity: "warning", path: "/assessment-plan/assessment-subjects/0/include-subjects/0",
        message: 'Not evaluated: the document "#4a8f42e8-1357-4664-bd88-aac54cb9aeb8" is not available.',
      },
    ]);
  });

  it("PKG-007.a on a POA&M, and PKG-008.a on assessment results: passing when supplied, a warning when not", () => {
    const poam = corpusJson("plan-of-action-and-milestones/go-oscal-validation-poam.json");
    const poamSsp = poam["plan-of-action-and-milestones"]["back-matter"].resources
      .find((resource: { uuid: string }) => `#${resource.uuid}` === poam["plan-of-action-and-milestones"]["import-ssp"].href).rlinks[0].href as string;
    // The SSP supplied is another system's: what the POA&M's subjects name in it is PKG-012.a's case, below.
    expect(packIssues(report(poam, { documents: { [poamSsp]: exampleSsp } })).filter((issue) => issue.ruleId !== "PKG-012.a")).toEqual([]);
    expect(brief(packIssues(report(poam, { documents: {} }))).map(({ ruleId, path: at, severity }) => ({ ruleId, path: at, severity }))).toEqual([
      { ruleId: "PKG-007.a", path: "/plan-of-action-and-milestones/import-ssp", severity: "warning" },
      { ruleId: "PKG-012.a", path: "/plan-of-action-and-milestones/observations/1/subjects/0", severity: "warning" },
    ]);
    const results = corpusJson("assessment-results/oscal-cli-example-ar-valid.json");
    expect(packIssues(report(results, { documents: { "example_ap_valid.yaml": examplePlan } }))).toEqual([]);
    expect(brief(packIssues(report(results, { documents: {} })))).toEqual([{
      ruleId: "PKG-008.a", keyword: "expect", severity: "warning", path: "/assessment-results/import-ap",
      message: 'The imported assessment plan "#e5a5688d-24b2-4dd1-b3dd-ef35321eafed" is not among the documents supplied.',
    }]);
  });
});

describe("oscal-package on by default at level full", () => {
  it("checks an SSP without being named: without its baseline the rules are not evaluated and the report is not complete", () => {
    const result = validate(cleanSsp(), { level: "full", maxIssues: Infinity });
    if (result.kind !== "report") throw new Error("no report");
    expect(result.report.complete).toBe(false);
    expect(brief(packIssues(result.report)).map(({ ruleId, keyword, severity }) => `${ruleId} ${keyword} ${severity}`)).toEqual([
      "PKG-001.a not-evaluated warning",
      "PKG-002.a not-evaluated warning",
      "PKG-003.a not-evaluated warning",
      "PKG-004.a not-evaluated warning",
    ]);
    const named = report(cleanSsp());
    expect(result.report.meta.semanticRules).toEqual(named.meta.semanticRules);
  });

  it("with the baseline supplied, decides them and the report is complete", () => {
    const result = validate(cleanSsp(), { level: "full", maxIssues: Infinity, ...withBaseline });
    if (result.kind !== "report") throw new Error("no report");
    expect(packIssues(result.report)).toEqual([]);
    expect(result.report.complete).toBe(true);
  });

  it("leaves documents the pack has nothing to check unchanged: a catalog's report is complete", () => {
    const result = validate(corpusJson("catalog/oscal-content-basic-catalog.json"), { level: "full" });
    if (result.kind !== "report") throw new Error("no report");
    expect(result.report.complete).toBe(true);
    expect(packIssues(result.report)).toEqual([]);
  });
});

describe("NIST's by-component index, with the SSPs a system leverages (PKG-010.a)", () => {
  const BY_COMPONENT = "11111111-2222-4000-8000-014000000007";
  const LEVERAGED_BY_COMPONENT = "0f1e2d3c-4b5a-4697-8877-665544332211";
  /** The example with the first by-component provided by `href`, and optionally leveraging the SSP at `leveragedHref`. */
  function providedBy(href: string, leveragedHref?: string): Record<string, any> {
    const ssp = cleanSsp();
    const plan = ssp["system-security-plan"];
    requirements(ssp)[0].statements[0]["by-components"][0].links.push({ href, rel: "provided-by" });
    if (leveragedHref !== undefined) plan["system-implementation"]["leveraged-authorizations"][0].links = [{ href: leveragedHref, rel: "system-security-plan" }];
    return ssp;
  }
  const leveraged = {
    "system-security-plan": {
      "control-implementation": {
        "implemented-requirements": [{ uuid: "5c4b3a29-1807-4f6e-9d5c-4b3a29180716", "control-id": "ac-1", "by-components": [{ uuid: LEVERAGED_BY_COMPONENT, "component-uuid": "6d5c4b3a-2918-4071-8f6e-5d4c3b2a1908", description: "Provided." }] }],
      },
    },
  };
  const at = `${IR}/0/statements/0/by-components/0/links/2`;
  const pkg010 = (r: ValidationReport) => brief(packIssues(r, "PKG-010.a"));

  it("passes a link to a by-component of the same SSP, decided without other documents", () => {
    const r = report(providedBy(`#${BY_COMPONENT}`));
    expect(pkg010(r)).toEqual([]);
  });

  it("fails a link to no by-component", () => {
    expect(pkg010(report(providedBy("#00000000-0000-4000-8000-000000000000"), withBaseline))).toEqual([{
      ruleId: "PKG-010.a", keyword: "index-has-key", severity: "error", path: at,
      message: 'The provided-by link "#00000000-0000-4000-8000-000000000000" names no by-component of this system security plan or of a leveraged one.',
    }]);
  });

  it("finds a by-component of the leveraged SSP when it is supplied, and is not evaluated when it is not", () => {
    const ssp = providedBy(`#${LEVERAGED_BY_COMPONENT}`, "leveraged-ssp.json");
    const supplied = report(ssp, { documents: { ...withBaseline.documents, "leveraged-ssp.json": leveraged } });
    expect(pkg010(supplied)).toEqual([]);
    expect(supplied.complete).toBe(true);
    const missing = report(ssp, withBaseline);
    expect(pkg010(missing).map(({ ruleId, keyword }) => `${ruleId} ${keyword}`)).toEqual(["PKG-010.a not-evaluated"]);
    expect(missing.complete).toBe(false);
  });
});

describe("a POA&M's references into its SSP (PKG-011.a, PKG-012.a)", () => {
  const poam = corpusJson("plan-of-action-and-milestones/go-oscal-validation-poam.json");
  const body = poam["plan-of-action-and-milestones"];
  const sspHref = body["back-matter"].resources.find((resource: { uuid: string }) => `#${resource.uuid}` === body["import-ssp"].href).rlinks[0].href as string;
  const subjects = body.observations[1].subjects as { "subject-uuid": string; type: string }[];
  /** The example SSP holding every component and inventory item the POA&M's observations name, but `leaveOut`. */
  function sspWithSubjects(leaveOut?: string): Record<string, any> {
    const ssp = copy(exampleSsp);
    const implementation = ssp["system-security-plan"]["system-implementation"];
    for (const { "subject-uuid": uuid, type } of subjects) {
      if (uuid === leaveOut) continue;
      if (type === "component") implementation.components.push({ uuid, type: "software", title: "Scanned", description: "Scanned.", status: { state: "operational" } });
      else (implementation["inventory-items"] ??= []).push({ uuid, description: "Scanned." });
    }
    return ssp;
  }
  const POAM_OBSERVATION = "/plan-of-action-and-milestones/observations/1/subjects";

  it("passes subjects and implemented components found in the SSP or the POA&M's local definitions", () => {
    const r = report(poam, { documents: { [sspHref]: sspWithSubjects() } });
    expect(packIssues(r)).toEqual([]);
    expect(r.complete).toBe(true);
  });

  it("PKG-012.a: an observation's subject the SSP lacks", () => {
    const r = report(poam, { documents: { [sspHref]: sspWithSubjects(subjects[0]!["subject-uuid"]) } });
    expect(brief(packIssues(r))).toEqual([{
      ruleId: "PKG-012.a", keyword: "expect", severity: "error", path: `${POAM_OBSERVATION}/0`,
      message: `The subject names inventory-item "${subjects[0]!["subject-uuid"]}", which is neither in the imported system security plan nor in the POA&M's local definitions.`,
    }]);
  });

  it("PKG-011.a: a local inventory item implementing a component neither local nor the SSP's", () => {
    const changed = copy(poam);
    changed["plan-of-action-and-milestones"]["local-definitions"]["inventory-items"][0]["implemented-components"][0]["component-uuid"] = "7e6d5c4b-3a29-4180-9f6e-5d4c3b2a1909";
    const r = report(changed, { documents: { [sspHref]: sspWithSubjects() } });
    expect(brief(packIssues(r))).toEqual([{
      ruleId: "PKG-011.a", keyword: "expect", severity: "error", path: "/plan-of-action-and-milestones/local-definitions/inventory-items/0/implemented-components/0",
      message: 'The inventory item implements component "7e6d5c4b-3a29-4180-9f6e-5d4c3b2a1909", which is neither in the imported system security plan nor in the local definitions.',
    }]);
  });

  it("without the SSP, only what the POA&M does not define itself is not evaluated", () => {
    const r = report(poam, { documents: {} });
    expect(r.complete).toBe(false);
    expect(brief(packIssues(r)).map(({ ruleId, keyword, path: at }) => `${ruleId} ${keyword} ${at}`)).toEqual([
      "PKG-007.a expect /plan-of-action-and-milestones/import-ssp",
      `PKG-012.a not-evaluated ${POAM_OBSERVATION}/0`,
    ]);
  });
});

describe("assessment results' references into the plan they import (PKG-013.a, PKG-014.a)", () => {
  const TASK = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
  const ACTIVITY = "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e";
  const plan = copy(examplePlan);
  plan["assessment-plan"].tasks = [{ uuid: TASK, type: "action", title: "Scan the system" }];
  (plan["assessment-plan"]["local-definitions"] ??= {}).activities = [{ uuid: ACTIVITY, description: "Scan." }];
  const planHref = "example_ap_valid.yaml";
  /** The example results, an observation relating to `task` and a local task associated with `activity`. */
  function results(task: string, activity: string): Record<string, any> {
    const document = copy(corpusJson("assessment-results/oscal-cli-example-ar-valid.json"));
    const result = document["assessment-results"].results[0];
    result["local-definitions"] = { tasks: [{ uuid: "3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f", type: "action", title: "Rescan", "associated-activities": [{ "activity-uuid": activity, subjects: [{ type: "component", "include-all": {} }] }] }] };
    result.observations = [{ uuid: "4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f80", methods: ["TEST"], description: "Scanned.", collected: "2024-01-01T00:00:00Z", origins: [{ actors: [{ type: "tool", "actor-uuid": "5e6f7a8b-9c0d-4e1f-8a3b-4c5d6e7f8091" }], "related-tasks": [{ "task-uuid": task }] }] }];
    return document;
  }
  const RESULT = "/assessment-results/results/0";

  it("passes a related task and an associated activity of the imported plan", () => {
    const r = report(results(TASK, ACTIVITY), { documents: { [planHref]: plan } });
    expect(packIssues(r)).toEqual([]);
    expect(r.complete).toBe(true);
  });

  it("PKG-013.a and PKG-014.a: a task and an activity the plan lacks", () => {
    const r = report(results("6f7a8b9c-0d1e-4f2a-9b4c-5d6e7f8091a2", "7a8b9c0d-1e2f-4a3b-8c5d-6e7f8091a2b3"), { documents: { [planHref]: plan } });
    expect(brief(packIssues(r))).toEqual([
      {
        ruleId: "PKG-013.a", keyword: "expect", severity: "error", path: `${RESULT}/observations/0/origins/0/related-tasks/0`,
        message: 'The related task "6f7a8b9c-0d1e-4f2a-9b4c-5d6e7f8091a2" is neither a task of the imported assessment plan nor one the results define.',
      },
      {
        ruleId: "PKG-014.a", keyword: "expect", severity: "error", path: `${RESULT}/local-definitions/tasks/0/associated-activities/0`,
        message: 'The task is associated with activity "7a8b9c0d-1e2f-4a3b-8c5d-6e7f8091a2b3", which is neither in the imported assessment plan nor in the results\' local definitions.',
      },
    ]);
  });

  it("without the plan, both are not evaluated besides PKG-008.a's warning", () => {
    const r = report(results(TASK, ACTIVITY), { documents: {} });
    expect(r.complete).toBe(false);
    expect(brief(packIssues(r)).map(({ ruleId, keyword }) => `${ruleId} ${keyword}`)).toEqual(["PKG-008.a expect", "PKG-013.a not-evaluated", "PKG-014.a not-evaluated"]);
  });
});

describe("the pack's rules in the catalog and the manifest", () => {
  it("are on by default, each with a description and a fix", () => {
    const rules = RULE_CATALOG.filter((rule) => rule.set === "oscal-package");
    expect(rules.map((rule) => rule.id)).toEqual(Array.from({ length: 14 }, (_, i) => `PKG-${String(i + 1).padStart(3, "0")}.a`));
    for (const rule of rules) {
      expect(rule.defaultOn, rule.id).toBe(true);
      expect(rule.description, rule.id).toMatch(/^[A-Z].* \(oscal-package [a-z-]+\)$/);
      expect(rule.fix, rule.id).toMatch(/^[A-Z].*\.$/);
    }
  });

  it("decide NIST's by-component index, which needs a leveraged SSP: no longer listed as not applicable", () => {
    const sources = ["oscal-by-component-uuid-index", "oscal-ssp-by-component-uuid-index"];
    expect(manifest.semanticNotApplicable.filter((entry) => sources.includes(entry.source))).toEqual([]);
    const pack = manifest.packs.find((entry) => entry.name === "oscal-package") as { decidesNist?: { source: string }[] };
    expect(pack.decidesNist?.map((entry) => entry.source)).toEqual(sources);
  });
});
