// The bounds every reported issue passes: excerpts counted in code points, paths cut only to ancestors.
import { describe, expect, it } from "vitest";
import { boundedIssue, excerpt } from "../../runtime/core/issue-bounds.js";
import type { ValidationIssue } from "../../runtime/core/report.js";

const issue = (path: string, message = "Fails."): ValidationIssue => ({ ruleId: "r", path, message, keyword: "k", severity: "error" });

describe("issue bounds", () => {
  it("excerpts count code points, so a character outside the BMP is never split", () => {
    expect(excerpt("😀".repeat(64))).toBe("😀".repeat(64));
    expect(excerpt("😀".repeat(65))).toBe(`${"😀".repeat(64)}…`);
    expect(excerpt("x".repeat(100_000))).toBe(`${"x".repeat(64)}…`);
  });

  it("an issue within bounds is returned as it is", () => {
    const within = issue("/catalog/groups/0/controls/3");
    expect(boundedIssue(within)).toBe(within);
  });

  it("a name is measured unescaped: 40 slashes make an 80-character token but a 40-character name", () => {
    const path = `/catalog/${"~1".repeat(40)}`;
    expect(boundedIssue(issue(path)).path).toBe(path);
  });

  it("cuts before the first over-long name, and caps a message at 512 code points", () => {
    const bounded = boundedIssue(issue(`/catalog/${"n".repeat(65)}/x`, "m".repeat(600)));
    expect(bounded.path).toBe("/catalog");
    expect(bounded.message).toBe(`${"m".repeat(512)}… (Path cut before a member name of 65 characters, "${"n".repeat(16)}…".)`);
  });

  it("bounds a finding's other document: its href as a path, its pointer there cut to an ancestor", () => {
    const elsewhere = { ...issue("/system-security-plan"), document: "baseline.json", documentPath: "/catalog/groups/0/params/0" };
    expect(boundedIssue(elsewhere)).toBe(elsewhere);
    const bounded = boundedIssue({ ...elsewhere, document: `${"h".repeat(2000)}.json`, documentPath: `/catalog/${"n".repeat(65)}/x` });
    expect(bounded).toEqual({ ...elsewhere, document: `${"h".repeat(1024)}…`, documentPath: "/catalog" });
  });
});
