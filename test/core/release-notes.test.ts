// Version awareness: a report states the release a document declares and the one it was checked against, notes a
// difference (never as a finding), names an unrecognized version as such, and says when a known change between
// releases explains a finding.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateBytes, validateDocument } from "../../runtime/core/validate.js";
import type { ValidationReport } from "../../runtime/core/report.js";
import { corpusDir } from "../helpers/corpus.js";

const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const metadata = { title: "Release test", "last-modified": "2024-05-01T12:00:00Z", version: "1.0", "oscal-version": "1.2.2" };

function report(document: unknown): ValidationReport {
  const outcome = validateDocument(document);
  if (outcome.kind !== "report") throw new Error(`expected a report, got ${JSON.stringify(outcome)}`);
  return outcome.report;
}

const catalogDeclaring = (version: string | undefined) => {
  const { "oscal-version": _, ...rest } = metadata;
  return { catalog: { uuid, metadata: version === undefined ? rest : { ...rest, "oscal-version": version } } };
};

describe("meta.release", () => {
  it("a document of the release checked against: both stated, no note", () => {
    expect(report(catalogDeclaring("1.2.2")).meta.release).toEqual({ declared: "1.2.2", checkedAgainst: "1.2.2" });
  });

  it("a 1.1.2 document: the difference is noted, and is no finding", () => {
    const r = report(catalogDeclaring("1.1.2"));
    expect(r).toMatchObject({ valid: true, complete: true, issues: [], issueCount: 0 });
    expect(r.meta.release).toEqual({
      declared: "1.1.2",
      checkedAgainst: "1.2.2",
      note: "The document declares OSCAL 1.1.2 and was checked against OSCAL 1.2.2, the release this validator implements: a finding may come from a change between the two releases rather than from a mistake.",
    });
  });

  it("an unrecognized version says exactly that", () => {
    const r = report(catalogDeclaring("1.1.6"));
    expect(r.complete).toBe(false);
    expect(r.meta.release.note).toBe(
      'The document declares oscal-version "1.1.6", which is not a published OSCAL release: it was checked against OSCAL 1.2.2, and the report is not complete.',
    );
  });

  it("no version at all says that", () => {
    const r = report(catalogDeclaring(undefined));
    expect(r.meta.release).toMatchObject({ declared: "unknown", checkedAgainst: "1.2.2" });
    expect(r.meta.release.note).toMatch(/^The document declares no oscal-version \(metadata\/oscal-version\)/);
  });
});

describe("findings a known change between releases explains", () => {
  const file = path.join(corpusDir(), "mapping-collection", "trestle-ws-pci-mapping-collection.json");
  const text = readFileSync(file, "utf8");

  function reportDeclaring(version: string): ValidationReport {
    const document = JSON.parse(text) as { "mapping-collection": { metadata: Record<string, unknown> } };
    document["mapping-collection"].metadata["oscal-version"] = version;
    const outcome = validateBytes(Buffer.from(JSON.stringify(document)));
    if (outcome.kind !== "report") throw new Error(outcome.kind);
    return outcome.report;
  }

  it("a 1.2.0 mapping collection: the confidence-score and coverage findings name the 1.2.1 change, the others do not", () => {
    const outcome = validateBytes(readFileSync(file));
    if (outcome.kind !== "report") throw new Error(outcome.kind);
    const { issues, meta } = outcome.report;
    expect(meta.release).toMatchObject({ declared: "1.2.0", checkedAgainst: "1.2.2" });
    const changed = issues.filter((issue) => /\/(confidence-score|coverage)(\/|$)/.test(issue.path));
    expect(changed).toHaveLength(24);
    expect(changed[0]).toMatchObject({
      path: "/mapping-collection/mappings/0/maps/0/confidence-score/STRVALUE",
      message: 'Property "STRVALUE" is not allowed here. OSCAL 1.2.1 changed this: confidence-score lost the STRVALUE member it had in 1.2.0 and holds either category or percentage; the document declares 1.2.0.',
    });
    for (const issue of changed) expect(issue.message).toContain("OSCAL 1.2.1 changed this:");
    const others = issues.filter((issue) => !changed.includes(issue));
    expect(others.map((issue) => issue.path)).toEqual(["/mapping-collection/provenance/method"]);
    expect(others[0]!.message).not.toContain("changed this");
  });

  it("the same findings in a document declaring 1.2.1 or 1.2.2 are plain errors", () => {
    for (const version of ["1.2.1", "1.2.2"]) {
      const { issues } = reportDeclaring(version);
      expect(issues).toHaveLength(25);
      expect(issues.some((issue) => issue.message.includes("changed this"))).toBe(false);
    }
  });
});
