// The text output's line for a release difference: it follows the file's line, before its findings, and is no finding.
import { describe, expect, it } from "vitest";
import { formatText } from "../../runtime/cli/text-output.js";
import { validateDocument } from "../../runtime/core/validate.js";

const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";

function textFor(version: string): string[] {
  const outcome = validateDocument({ catalog: { uuid, metadata: { title: "t", "last-modified": "2024-05-01T12:00:00Z", version: "1", "oscal-version": version } } });
  if (outcome.kind !== "report") throw new Error(outcome.kind);
  return formatText([{ file: "catalog.json", report: outcome.report }], false).trimEnd().split("\n");
}

describe("text output: the release note", () => {
  it("a 1.1.2 document: a note line after the verdict", () => {
    const lines = textFor("1.1.2");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^VALID {3}catalog\.json \(catalog, oscal-version 1\.1\.2, /);
    expect(lines[1]).toBe("  note: The document declares OSCAL 1.1.2 and was checked against OSCAL 1.2.2, the release this validator implements: a finding may come from a change between the two releases rather than from a mistake.");
  });

  it("a 1.2.2 document: no note", () => {
    expect(textFor("1.2.2")).toHaveLength(1);
  });
});
