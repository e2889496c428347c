// A rule that could not be evaluated is told apart from one that failed by its keyword, `not-evaluated` (the contract
// allows no severity but error and warning): a tool counting a rule's failures filters on it.
import { describe, expect, it } from "vitest";
import { NOT_SUPPLIED, validate, type ValidationReport, type ValidationResult } from "../../runtime/index.js";
import { FEDRAMP_FLAGGED_SSP } from "../http/support/documents.js";

function reportOf(result: ValidationResult): ValidationReport {
  if (result.kind !== "report") throw new Error(`expected a report, got ${JSON.stringify(result)}`);
  return result.report;
}

const failures = (report: ValidationReport, ruleId: string) => report.issues.filter((issue) => issue.ruleId === ruleId && issue.keyword !== "not-evaluated");

describe("not-evaluated findings", () => {
  const ssp = JSON.parse(FEDRAMP_FLAGGED_SSP) as object;

  it("a rule needing a document nobody supplied: a warning with keyword not-evaluated, which filtering on the keyword leaves out", () => {
    const report = reportOf(validate(ssp, { level: "full", rules: ["FRR-037.a"] }));
    const mine = report.issues.filter((issue) => issue.ruleId === "FRR-037.a");
    expect(mine).toEqual([expect.objectContaining({ keyword: "not-evaluated", severity: "warning", message: expect.stringMatching(/^Not evaluated: /) })]);
    expect(report.complete).toBe(false);
    expect(failures(report, "FRR-037.a")).toEqual([]);
  });

  it("the same rule evaluated and failing keeps its own keyword, and the filter keeps it", () => {
    const report = reportOf(validate(ssp, { level: "full", rules: ["FRR-037.a"], documents: {} }));
    expect(failures(report, "FRR-037.a").map((issue) => issue.keyword)).toEqual(["expect"]);
    expect(report.issues.some((issue) => issue.keyword === "not-evaluated" && issue.ruleId === "FRR-037.a")).toBe(false);
  });

  it("a documents function answering NOT_SUPPLIED leaves the rule not evaluated, naming the href", () => {
    const report = reportOf(validate(ssp, { level: "full", rules: ["FRR-037.a"], documents: () => NOT_SUPPLIED }));
    const mine = report.issues.filter((issue) => issue.ruleId === "FRR-037.a");
    expect(mine).toEqual([expect.objectContaining({ keyword: "not-evaluated", message: expect.stringMatching(/^Not evaluated: it needs the document ".+", which was not supplied\.$/) })]);
    expect(report.complete).toBe(false);
  });
});
