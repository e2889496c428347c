// FedRAMP's rev5 baselines resolved against the SP 800-53 rev5 catalog of the corpus: valid catalogs holding exactly
// the baselines' selections, in the order and groups of FedRAMP's published resolved catalogs, with the same
// back-matter. docs/resolution.md explains what else differs (the corpus catalog is release 5.0.1, FedRAMP's 5.1.1).
import { describe, expect, it } from "vitest";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fileLoader, resolveProfile, validate } from "../../runtime/index.js";
import { catalogOf, controlIds, CORPUS, FEDRAMP, readJson, SP800_53_REV5 } from "./support.js";

/** The rlinks of the baselines' catalog resource, mapped to the corpus catalog as `--document HREF=FILE` would. */
const CATALOG_HREFS = [
  "NIST_SP-800-53_rev5_catalog.json",
  "https://raw.githubusercontent.com/usnistgov/oscal-content/refs/tags/v1.3.0/nist.gov/SP800-53/rev5/xml/NIST_SP-800-53_rev5_catalog.xml",
];

const BASELINES = [
  { name: "LOW", profile: path.join(CORPUS, "profile/fedramp-rev5-low-baseline-profile.json"), published: path.join(CORPUS, "catalog/fedramp-rev5-low-baseline-resolved-catalog.json"), controls: 156 },
  { name: "MODERATE", profile: path.join(FEDRAMP, "resources/FedRAMP_rev5_MODERATE-baseline_profile.json"), published: path.join(FEDRAMP, "resources/FedRAMP_rev5_MODERATE-baseline-resolved-profile_catalog.json"), controls: 323 },
  { name: "HIGH", profile: path.join(CORPUS, "profile/fedramp-rev5-high-baseline-profile.json"), published: path.join(FEDRAMP, "resources/FedRAMP_rev5_HIGH-baseline-resolved-profile_catalog.json"), controls: 410 },
];

describe("FedRAMP rev5 baselines against SP 800-53 rev5", () => {
  for (const baseline of BASELINES) {
    it(`${baseline.name}: a valid catalog of the baseline's ${baseline.controls} controls, laid out as FedRAMP's published one`, () => {
      const profile = readJson(baseline.profile);
      const result = resolveProfile(profile, {
        loader: fileLoader({ allowedDir: path.dirname(baseline.profile), files: Object.fromEntries(CATALOG_HREFS.map((href) => [href, SP800_53_REV5])) }),
        uri: pathToFileURL(baseline.profile).href,
      });
      const document = catalogOf(result);
      const report = validate(document);
      expect(report.kind === "report" && report.report.issues).toEqual([]);

      const selected: string[] = profile.profile.imports.flatMap((directive: any) => directive["include-controls"].flatMap((selector: any) => selector["with-ids"]));
      expect(selected).toHaveLength(baseline.controls);
      const ids = controlIds(document);
      expect([...ids].sort()).toEqual([...selected].sort());

      const published = readJson(baseline.published);
      expect(ids).toEqual(controlIds(published));
      expect(document.catalog.groups?.map((group) => group.id)).toEqual(published.catalog.groups.map((group: any) => group.id));
      expect(document.catalog["back-matter"]?.resources?.map((resource) => resource.uuid)).toEqual(published.catalog["back-matter"].resources.map((resource: any) => resource.uuid));
      expect(document.catalog.metadata.title).toBe(published.catalog.metadata.title);
    });
  }
});
