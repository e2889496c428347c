// Schema findings name the real cause: the part of a value that breaks its datatype, the alternative a value meant
// (with every error inside it), and every error of a document in one run.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateBytes, validateDocument } from "../../runtime/core/validate.js";
import type { ValidationReport } from "../../runtime/core/report.js";
import { corpusDir } from "../helpers/corpus.js";

const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const metadata = { title: "Findings test", "last-modified": "2024-05-01T12:00:00Z", version: "1.0", "oscal-version": "1.2.2" };

function report(document: unknown, maxIssues?: number): ValidationReport {
  const outcome = validateDocument(document, { maxIssues });
  if (outcome.kind !== "report") throw new Error(`expected a report, got ${JSON.stringify(outcome)}`);
  return outcome.report;
}

/** The one message reported for `metadata` with `member` set to `value`. */
function messageFor(member: string, value: unknown): string {
  const r = report({ catalog: { uuid, metadata: { ...metadata, [member]: value } } });
  expect(r.issues, JSON.stringify(r.issues)).toHaveLength(1);
  expect(r.issues[0]!.path).toBe(`/catalog/metadata/${member}`);
  return r.issues[0]!.message;
}

describe("a value that breaks its datatype's pattern: the part at fault", () => {
  it("a date and time with a time zone and the year 0001 hears about the year, not the time zone", () => {
    expect(messageFor("last-modified", "0001-01-01T00:00:00Z")).toBe("Not a valid date and time: the year 0001 is outside 1900-2999, the years OSCAL dates allow.");
  });

  it.each([
    ["2024-01-31T12:00:00", "Not a valid date and time: the time zone is missing; end with Z (UTC) or an offset such as -05:00."],
    ["2024-01-31T12:00:00+15:00", "Not a valid date and time: the time-zone offset +15:00 is not one OSCAL allows (-12:00 to +14:00, in whole hours or the half and three-quarter hours in use)."],
    ["2024-01-31T12:00:00+0100", "Not a valid date and time: the time-zone offset +0100 must be written with a colon, as ±hh:mm (for example +01:00)."],
    ["2023-02-29T12:00:00Z", "Not a valid date and time: February 2023 has no day 29; it has days 01 to 28 (2023 is not a leap year)."],
    ["2024-13-01T12:00:00Z", "Not a valid date and time: the month 13 does not exist; months run from 01 to 12."],
    ["2024-01-31", "Not a valid date and time: the time is missing; write it after the date, as in 2024-01-31T12:00:00Z."],
    ["2024-01-31 12:00:00Z", 'Not a valid date and time: the date and the time must be separated by an upper-case T, not a space.'],
    ["2024-01-31T24:00:00Z", "Not a valid date and time: the hour 24 does not exist; hours run from 00 to 23."],
    ["yesterday", 'Not a valid date and time: "y" (character 1) is not allowed in a date and time.'],
  ])("date and time %j", (value, message) => {
    expect(messageFor("last-modified", value)).toBe(message);
  });

  it("the year 1899 in a revision's publication date", () => {
    const r = report({ catalog: { uuid, metadata: { ...metadata, revisions: [{ version: "1", published: "1899-12-31T00:00:00Z" }] } } });
    expect(r.issues.map((issue) => [issue.path, issue.message])).toEqual([
      ["/catalog/metadata/revisions/0/published", "Not a valid date and time: the year 1899 is outside 1900-2999, the years OSCAL dates allow."],
    ]);
  });

  it.each([
    ["4a6f6c8e-1f5b-1d6e-9a3c-2b7d8e9f0a1b", "Not a valid UUID: its version digit (the first of the third group) is 1; OSCAL takes version 4 (random) and 5 (name-based) UUIDs only."],
    ["4a6f6c8e-1f5b-4d6e-7a3c-2b7d8e9f0a1b", "Not a valid UUID: its variant digit (the first of the fourth group) is 7; it must be 8, 9, a or b."],
    ["4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1g", 'Not a valid UUID: "g" (character 36) is not a hexadecimal digit.'],
    ["res-rbac", "Not a valid UUID: a UUID has five groups of 8-4-4-4-12 hexadecimal digits separated by hyphens; this one has groups of 3-4."],
  ])("UUID %j", (value, message) => {
    const r = report({ catalog: { uuid: value, metadata } });
    expect(r.issues.map((issue) => [issue.path, issue.message])).toEqual([["/catalog/uuid", message]]);
  });

  it.each([
    ["1st", 'Not a valid token: it starts with "1"; a token starts with a letter or "_".'],
    ["ns:name", 'Not a valid token: ":" (character 3) is not allowed; a token takes letters, digits, ".", "-" and "_" only.'],
  ])("token %j", (value, message) => {
    const r = report({ catalog: { uuid, metadata: { ...metadata, props: [{ name: value, value: "x" }] } } });
    expect(r.issues.map((issue) => [issue.path, issue.message])).toEqual([["/catalog/metadata/props/0/name", message]]);
  });

  it("a string with surrounding whitespace says where", () => {
    expect(messageFor("version", " 1.0")).toBe("Not a valid string: it starts with a space (remove the leading whitespace).");
  });

  it("a value failing both the format and the pattern of its datatype gets one finding", () => {
    const r = report({ catalog: { uuid, metadata: { ...metadata, "last-modified": "2024-02-30T10:00:00Z" } } });
    expect(r.issueCount).toBe(1);
    expect(r.issues[0]!.message).toBe("Not a valid date and time: February 2024 has no day 30; it has days 01 to 29.");
  });
});

describe("a failed alternative (anyOf): the form the value meant, and every error inside it", () => {
  it("a group with sub-groups and an empty controls array: the clash, and the sub-groups' own errors", () => {
    const group = { id: "g1", title: "Group", groups: [{ id: "g2", title: "Sub-group", controls: [{ id: "c1", title: "Control", parts: [] }] }], controls: [] };
    const r = report({ catalog: { uuid, metadata, groups: [group] } });
    expect(r.issues.map((issue) => [issue.path, issue.message])).toEqual([
      ["/catalog/groups/0/controls", 'Property "controls" cannot be used together with "groups" (the schema allows one or the other); it is empty: omit it.'],
      ["/catalog/groups/0/groups/0/controls/0/parts", "Must not be an empty array: omit the property instead."],
    ]);
  });

  it("a group whose two forms both hold content: the clash, and the errors inside the other member too", () => {
    const group = { id: "g1", title: "Group", groups: [{ id: "g2", title: "Sub-group", groups: [] }], controls: [{ id: "c1", title: "Control" }] };
    const r = report({ catalog: { uuid, metadata, groups: [group] } });
    expect(r.issues.map((issue) => issue.path)).toContain("/catalog/groups/0/groups/0/groups");
    expect(r.issues.find((issue) => issue.path.endsWith("/0/controls") || issue.path.endsWith("/0/groups"))!.message).toMatch(/cannot be used together with .*; keep one form or the other\.$/);
  });

  it("a profile import without its required choice names what is missing in the form it uses", () => {
    const r = report({ profile: { uuid, metadata, imports: [{ href: "#c", "include-controls": [{ "with-ids": [] }] }] } });
    expect(r.issues.map((issue) => [issue.path, issue.message])).toEqual([["/profile/imports/0/include-controls/0/with-ids", "Must not be an empty array: omit the property instead."]]);
  });
});

describe("every error of the CIS Windows Server catalog in one run", () => {
  const file = path.join(corpusDir(), "catalog", "cis-windows-server-2022-l1-member-server-catalog.json");
  const bytes = readFileSync(file);
  const emptyArrays: string[] = [];
  const walk = (value: unknown, pointer: string): void => {
    if (Array.isArray(value)) {
      if (value.length === 0) emptyArrays.push(pointer);
      value.forEach((item, index) => walk(item, `${pointer}/${index}`));
    } else if (typeof value === "object" && value !== null) {
      for (const [name, member] of Object.entries(value)) walk(member, `${pointer}/${name}`);
    }
  };
  walk(JSON.parse(bytes.toString("utf8")), "");

  it("reports every empty array of the document, at every depth, each once", () => {
    const outcome = validateBytes(bytes, { maxIssues: 10_000 });
    if (outcome.kind !== "report") throw new Error(outcome.kind);
    const { report: r } = outcome;
    expect(emptyArrays).toHaveLength(607);
    expect(r.issueCount).toBe(615);
    expect(r.issues).toHaveLength(615);
    const paths = r.issues.map((issue) => issue.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.filter((pointer) => emptyArrays.includes(pointer)).sort()).toEqual([...emptyArrays].sort());
    expect(paths.some((pointer) => pointer.startsWith("/catalog/groups/0/groups/"))).toBe(true);
  });

  it("the first finding is the empty controls array of the first group, not a valid member said not to be allowed", () => {
    const outcome = validateBytes(bytes);
    if (outcome.kind !== "report") throw new Error(outcome.kind);
    expect(outcome.report).toMatchObject({ issueCount: 615, truncated: true });
    expect(outcome.report.issues).toHaveLength(200);
    expect(outcome.report.issues[0]).toMatchObject({
      path: "/catalog/groups/0/controls",
      message: 'Property "controls" cannot be used together with "groups" (the schema allows one or the other); it is empty: omit it.',
    });
    expect(outcome.report.issues.some((issue) => issue.message === 'Property "groups" is not allowed here.')).toBe(false);
  });
});
