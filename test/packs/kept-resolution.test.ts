// A library caller's documents, passed to validations one after another: the baseline profile an SSP imports is
// resolved once for them all while they answer each href the resolution read with the same object, and again once an
// answer changes. Resolution reads the profile's imports, which nothing else does: a getter counts the resolutions.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validate } from "../../runtime/index.js";
import { corpusDir } from "../helpers/corpus.js";
import { fedrampDir, readJson } from "./fedramp-harness.js";

const NOW = new Date("2026-06-01T00:00:00Z");
const ssp = readJson("content/fedramp-ssp-example.json") as object;
const PROFILE_HREF = "../../../baselines/xml/FedRAMP_rev5_MODERATE-baseline_profile.xml";
const CATALOG_HREF = "https://raw.githubusercontent.com/usnistgov/oscal-content/refs/tags/v1.3.0/nist.gov/SP800-53/rev5/xml/NIST_SP-800-53_rev5_catalog.xml";
const catalog = readJson(path.relative(fedrampDir, path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json")));

/** A copy of the baseline profile whose imports count how often they are read. */
function countedProfile(): { profile: unknown; resolutions: () => number } {
  const { profile } = structuredClone(readJson("resources/FedRAMP_rev5_MODERATE-baseline_profile.json")) as { profile: Record<string, unknown> };
  const imports = profile.imports;
  let reads = 0;
  Object.defineProperty(profile, "imports", { enumerable: true, get: () => (reads++, imports) });
  return { profile: { profile }, resolutions: () => reads };
}

/** The findings of our pack's rules, which read the resolved baseline, on the SSP checked with these documents. */
function baselineFindings(documents: Record<string, unknown>) {
  const outcome = validate(ssp, { level: "full", constraints: ["oscal-package"], documents, now: NOW, maxIssues: Infinity });
  if (outcome.kind !== "report") throw new Error(`no report: ${outcome.error.code}`);
  return outcome.report.issues.filter((issue) => issue.ruleId.startsWith("PKG-")).map(({ ruleId, path: at, message }) => ({ ruleId, path: at, message }));
}

describe("a profile resolved for a documents map's validations", () => {
  it("is resolved once while the map answers alike, again when an answer changes", () => {
    const { profile, resolutions } = countedProfile();
    const documents: Record<string, unknown> = { [PROFILE_HREF]: profile, [CATALOG_HREF]: catalog };
    const first = baselineFindings(documents);
    expect(first.length).toBeGreaterThan(0);
    const once = resolutions();
    expect(once).toBeGreaterThan(0);
    expect(baselineFindings(documents)).toEqual(first);
    expect(resolutions()).toBe(once);
    // Another catalog object under the same href: the profile is resolved against it.
    documents[CATALOG_HREF] = structuredClone(catalog);
    expect(baselineFindings(documents)).toEqual(first);
    expect(resolutions()).toBe(2 * once);
  });

  it("is resolved for each map of its own", () => {
    const { profile, resolutions } = countedProfile();
    baselineFindings({ [PROFILE_HREF]: profile, [CATALOG_HREF]: catalog });
    const once = resolutions();
    baselineFindings({ [PROFILE_HREF]: profile, [CATALOG_HREF]: catalog });
    expect(resolutions()).toBe(2 * once);
  });
});
