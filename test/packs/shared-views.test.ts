// The rule packs of one validation share their views of the documents: FedRAMP's example SSP checked with FedRAMP's
// pack and ours, its MODERATE baseline profile resolved against the SP 800-53 catalog, views the SSP and the baseline
// once between the two packs (counted by the engine's viewsMade), and the caller's documents are asked for each href
// once: the profile is resolved once. The packs share their searches of those views (`//control` of the baseline is
// searched once, counted by searchesMade). A validation's views are not kept for the next one.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { packModule } from "#generated/packs/index.js";
import type { PackModule } from "../../runtime/packs/engine.js";
import { validate } from "../../runtime/index.js";
import { corpusDir } from "../helpers/corpus.js";
import { fedrampDir, readJson } from "./fedramp-harness.js";

// The counters of the run time the packs' generated modules require, which makes their views.
const { searchesMade, viewsMade } = (packModule("fedramp") as PackModule).runtime;
const NOW = new Date("2026-06-01T00:00:00Z");
const ssp = readJson("content/fedramp-ssp-example.json") as object;
const PROFILE_HREF = "../../../baselines/xml/FedRAMP_rev5_MODERATE-baseline_profile.xml";
const CATALOG_HREF = "https://raw.githubusercontent.com/usnistgov/oscal-content/refs/tags/v1.3.0/nist.gov/SP800-53/rev5/xml/NIST_SP-800-53_rev5_catalog.xml";
const profile = readJson("resources/FedRAMP_rev5_MODERATE-baseline_profile.json");
const catalog = readJson(path.relative(fedrampDir, path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json")));

/** One validation at level full with the packs named: the views it made and how often each href was asked for. */
function check(constraints: string[]) {
  const asked = new Map<string, number>();
  const documents = (href: string) => {
    asked.set(href, (asked.get(href) ?? 0) + 1);
    return href === PROFILE_HREF ? profile : href === CATALOG_HREF ? catalog : undefined;
  };
  const before = viewsMade();
  const searchesBefore = searchesMade();
  const outcome = validate(ssp, { level: "full", constraints, documents, now: NOW, maxIssues: Infinity });
  if (outcome.kind !== "report") throw new Error(`no report: ${outcome.error.code}`);
  return { views: viewsMade() - before, searches: searchesMade() - searchesBefore, asked: Object.fromEntries(asked), report: outcome.report };
}

describe("views of one validation's documents", () => {
  it("two packs view the SSP and its baseline once between them", () => {
    const { views, asked, report } = check(["fedramp", "oscal-package"]);
    expect(report.issues.filter((issue) => issue.message.startsWith("Not evaluated"))).toEqual([]);
    expect(report.issues.some((issue) => issue.ruleId.startsWith("PKG-"))).toBe(true);
    expect(views).toBe(2);
    expect(asked).toEqual({ [PROFILE_HREF]: 1, [CATALOG_HREF]: 1 });
  });

  it("as many views as one pack makes alone", () => {
    expect(check(["fedramp"]).views).toBe(2);
    expect(check(["oscal-package"]).views).toBe(2);
  });

  it("two packs search the views they share once for each name list and node", () => {
    const alone = check(["fedramp"]).searches + check(["oscal-package"]).searches;
    const together = check(["fedramp", "oscal-package"]).searches;
    expect(together).toBeGreaterThan(0);
    expect(together).toBeLessThan(alone);
  });

  it("a second validation makes its own views", () => {
    check(["fedramp", "oscal-package"]);
    expect(check(["fedramp", "oscal-package"]).views).toBe(2);
  });
});
