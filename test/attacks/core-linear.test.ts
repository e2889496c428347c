// Hostile shapes that once took quadratic time or produced huge reports: each is answered completely and with a bounded
// report. How their cost grows with their size is measured by bench/linear-curves.ts (each shape at 1x and 10x), not
// timed here, where a busy machine makes any time bound either flaky or too loose to mean anything.
import { describe, expect, it } from "vitest";
import { validateBytes } from "../../runtime/core/validate.js";
import type { ValidationReport } from "../../runtime/core/report.js";
import { MAX_PATH_LENGTH } from "../../runtime/core/issue-bounds.js";
import { resolvePointer } from "../helpers/json-pointer.js";

const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const metadata = { title: "T", "last-modified": "2024-05-01T12:00:00Z", version: "1.0", "oscal-version": "1.2.2" };

function reportOf(document: unknown): { report: ValidationReport; bytes: number } {
  const outcome = validateBytes(new TextEncoder().encode(JSON.stringify(document)));
  if (outcome.kind !== "report") throw new Error(`expected a report, got ${outcome.kind}`);
  return { report: outcome.report, bytes: Buffer.byteLength(JSON.stringify(outcome.report)) };
}

function expectPathsResolve(report: ValidationReport, document: unknown): void {
  for (const issue of report.issues) expect(resolvePointer(document, issue.path), issue.path.slice(0, 80)).toMatchObject({ found: true });
}

describe("linear-time validation of hostile documents", () => {
  it("an email address of 100,000 '@' and a newline is invalid", () => {
    const document = { catalog: { uuid, metadata: { ...metadata, parties: [{ uuid, type: "person", name: "A", "email-addresses": [`${"@".repeat(100_000)}\n`] }] } } };
    const { report } = reportOf(document);
    expect(report.valid).toBe(false);
    expect(report.issues.map((issue) => issue.path)).toContain("/catalog/metadata/parties/0/email-addresses/0");
  });

  it("200,000 wrong-typed array items are all counted", () => {
    const document = { catalog: { uuid, metadata, params: new Array(200_000).fill(1) } };
    const { report } = reportOf(document);
    expect(report).toMatchObject({ valid: false, issueCount: 200_000, truncated: true });
    expect(report.issues).toHaveLength(200);
    expect(report.issues[199]).toMatchObject({ path: "/catalog/params/199", keyword: "type" });
  });
});

describe("rule packs on wide documents", () => {
  it("a component with 200,000 failing props gets a bounded report with the FedRAMP pack, counting every finding", () => {
    const id = (n: number) => `4a6f6c8e-1f5b-4d6e-9a3c-${String(n).padStart(12, "0")}`;
    const component = (n: number, props: unknown[]) => ({ uuid: id(n), type: "software", title: "C", description: "D", status: { state: "operational" }, props });
    // Each prop's class is not one of the information types FedRAMP allows.
    const props = Array.from({ length: 200_000 }, () => ({ name: "information-type", ns: "http://fedramp.gov/ns/oscal", class: "none", value: "x" }));
    const ssp = {
      "system-security-plan": {
        uuid,
        metadata,
        "import-profile": { href: "#profile" },
        "system-characteristics": {},
        // Two components, so that a path step from both gathers one's 200,000 props into one sequence.
        "system-implementation": { users: [], components: [component(1, props), component(2, props.slice(0, 1))] },
        "control-implementation": { description: "D", "implemented-requirements": [] },
      },
    };
    const outcome = validateBytes(new TextEncoder().encode(JSON.stringify(ssp)), { level: "full", constraints: ["fedramp"] });
    if (outcome.kind !== "report") throw new Error(`expected a report, got ${JSON.stringify(outcome)}`);
    const { report } = outcome;
    expect(report.issues).toHaveLength(200);
    expect(report.truncated).toBe(true);
    expect(report.issueCount).toBeGreaterThan(200_000);
    expect(report.issues.filter((issue) => issue.keyword === "allowed-values")[0]).toMatchObject({ path: expect.stringMatching(/^\/system-security-plan\/system-implementation\/components\/0\/props\/\d+\/class$/) });
  });
});

describe("the semantic layer's parameter-insertion scan", () => {
  const insertionsReported = (prose: string): string[] => {
    const document = { catalog: { uuid, metadata, controls: [{ id: "c1", title: "C", parts: [{ id: "c1_smt", name: "statement", prose }] }] } };
    const outcome = validateBytes(new TextEncoder().encode(JSON.stringify(document)), { level: "full" });
    if (outcome.kind !== "report") throw new Error(outcome.kind);
    return outcome.report.issues.filter((issue) => issue.message.startsWith("The parameter insertion")).map((issue) => /^The parameter insertion "(.*)" names no parameter/.exec(issue.message)![1]!);
  };

  it("finds what the single expression it replaced found", () => {
    const original = /\{\{\s*insert:\s*param,\s*([^\s}]+)\s*\}\}/g;
    for (const prose of [
      "Use {{ insert: param, p1 }} and {{insert:param,p2}}.",
      "{{insert:param,a{{ insert: param, b }} {{ insert: param, c}}",
      "{{insert:param,x{{insert:param,y }}",
      "{{ insert: param, open {{ insert: param, q }}}}",
    ]) {
      expect(insertionsReported(prose), prose).toEqual([...prose.matchAll(original)].map((match) => match[1]));
    }
  });

  it("scans 20,000 unclosed insertions in one prose and finds the one closed at the end", () => {
    expect(insertionsReported(`${"{{insert:param,".repeat(20_000)} }}`)).toHaveLength(1);
  });
});

describe("bounded reports", () => {
  it("240 property names of 100,000 characters give a small report whose paths still resolve", () => {
    const catalog: Record<string, unknown> = { uuid, metadata };
    for (let i = 0; i < 240; i++) catalog[`${String(i).padStart(3, "0")}${"x".repeat(99_997)}`] = 1;
    const document = { catalog };
    const { report, bytes } = reportOf(document);
    expect(report).toMatchObject({ valid: false, issueCount: 240, truncated: true });
    expect(bytes).toBeLessThan(128 * 1024);
    expectPathsResolve(report, document);
    expect(report.issues[0]).toMatchObject({
      path: "/catalog",
      message: `Property "000${"x".repeat(61)}…" is not allowed here. (Path cut before a member name of 100000 characters, "000${"x".repeat(13)}…".)`,
    });
  });

  it("a path longer than the bound is cut back to an ancestor that resolves", () => {
    let group: Record<string, unknown> = { id: "g", title: "T", bogus: 1 };
    for (let i = 0; i < 120; i++) group = { id: "g", title: "T", groups: [group] };
    const document = { catalog: { uuid, metadata, groups: [group] } };
    const { report } = reportOf(document);
    const issue = report.issues.find((candidate) => candidate.keyword === "additionalProperties")!;
    expect(issue.path.length).toBeLessThanOrEqual(MAX_PATH_LENGTH);
    expect(issue.path).toMatch(/^\/catalog(\/groups\/0)+(\/groups)?$/);
    expect(issue.message).toMatch(/\(Path cut to an ancestor: the full path is \d+ characters long\.\)$/);
    expectPathsResolve(report, document);
  });
});
