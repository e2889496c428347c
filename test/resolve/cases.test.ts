// NIST's profile resolution examples (cases.json): each scored case resolves to its expected catalog, compared as
// cases.json says, into a catalog valid against OSCAL 1.2.2; the error cases fail naming the import or the cycle.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { validate } from "../../runtime/index.js";
import { CASES, catalogOf, comparable, errorOf, EXAMPLES, readJson, resolveCase } from "./support.js";

describe("NIST's profile resolution examples", () => {
  it("cases.json scores 15 resolutions and 3 errors", () => {
    expect(CASES.filter((resolutionCase) => resolutionCase.expected !== undefined)).toHaveLength(15);
    expect(CASES.filter((resolutionCase) => resolutionCase.expectError)).toHaveLength(3);
  });

  for (const resolutionCase of CASES.filter((candidate) => candidate.expected !== undefined)) {
    it(`${resolutionCase.name} resolves to NIST's expected catalog, valid against OSCAL 1.2.2`, () => {
      const document = catalogOf(resolveCase(resolutionCase));
      expect(comparable(document)).toEqual(comparable(readJson(path.join(EXAMPLES, resolutionCase.expected!))));
      const report = validate(document);
      expect(report.kind === "report" && report.report.issues).toEqual([]);
    });
  }

  it("the result says how it was made: a fresh uuid, the resolution time, the tool and the source profile", () => {
    const before = Date.now();
    const { catalog } = catalogOf(resolveCase(CASES[0]!));
    expect(catalog.uuid).not.toBe(readJson(path.join(EXAMPLES, CASES[0]!.profile)).profile.uuid);
    expect(Date.parse(catalog.metadata["last-modified"])).toBeGreaterThanOrEqual(before - 1000);
    expect(catalog.metadata.props).toEqual([
      { name: "resolution-tool", value: "oscal-validate" },
      { name: "source-profile", value: "base-test_profile.json" },
    ]);
    expect(catalog.metadata.links).toEqual([{ href: "base-test_profile.json", rel: "source-profile" }]);
    // The inputs are OSCAL 1.0.0: the most recent version among them (req-meta-oscal-version).
    expect(catalog.metadata["oscal-version"]).toBe("1.0.0");
  });

  it("a missing import fails naming the profile and the href it could not have", () => {
    const error = errorOf(resolveCase(CASES.find((candidate) => candidate.profile === "broken_profile.json")!));
    expect(error.chain).toEqual(["broken_profile.json", "missing_profile.json"]);
    expect(error.detail).toMatch(/^broken_profile\.json -> missing_profile\.json: the document is not available: there is no file .*missing_profile\.json$/);
  });

  it("each profile of the circular pair fails naming the cycle from where it starts", () => {
    expect(errorOf(resolveCase(CASES.find((candidate) => candidate.profile === "circular_profile.json")!)).detail).toBe(
      "circular_profile.json -> home_profile.json -> circular_profile.json: circular import: the profile imports itself through this chain",
    );
    expect(errorOf(resolveCase(CASES.find((candidate) => candidate.profile === "home_profile.json")!)).chain).toEqual(["home_profile.json", "circular_profile.json", "home_profile.json"]);
  });
});
