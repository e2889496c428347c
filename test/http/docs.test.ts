// The documentation the service serves about reports and rules: the rule catalog page (an anchor per rule id), the real
// example report on /docs, positions in HTTP reports, and the links from unknown-rule errors; against the real service.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULE_CATALOG } from "../../runtime/core/rule-catalog.js";
import { JSON_HEADERS, VALIDATE, post } from "./support/documents.js";
import { servedOpenApi, type ServedOpenApi } from "./support/openapi.js";
import { startService, type TestService } from "./support/service.js";

const PUBLIC_BASE_URL = "https://oscal.example.test";
const RULES_URL = `${PUBLIC_BASE_URL}/docs/rules`;

const unescapeHtml = (html: string): string => html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The text of the element with this id (a <pre>), unescaped. */
function preformatted(html: string, id: string): string {
  const match = new RegExp(`<pre id="${id}">([\\s\\S]*?)</pre>`).exec(html);
  expect(match, `<pre id="${id}">`).not.toBeNull();
  return unescapeHtml(match![1]!);
}

describe("documentation of reports and rules", () => {
  let service: TestService;
  let openapi: Record<string, any>;
  let conforms: ServedOpenApi["conforms"];
  const get = async (path: string): Promise<string> => {
    const response = await fetch(service.url(path));
    expect(response.status, path).toBe(200);
    expect(response.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
    return response.text();
  };

  beforeAll(async () => {
    service = await startService("node", { PUBLIC_BASE_URL });
    ({ document: openapi, conforms } = await servedOpenApi(service));
  });
  afterAll(async () => {
    expect(await service.stop()).toBe(0);
  });

  it("/docs/rules has one anchor per semantic and JSON text rule id and says how schema rule ids are formed", async () => {
    const html = await get("/docs/rules");
    const anchors = [...html.matchAll(/<tr id="([^"]+)"/g)].map((match) => unescapeHtml(match[1]!));
    expect(anchors.sort()).toEqual(RULE_CATALOG.map((rule) => rule.id).sort());
    expect(RULE_CATALOG.length).toBeGreaterThan(300);
    expect(anchors).toEqual(expect.arrayContaining(["JSON-001.a", "JSON-002.a", "JSON-003.a"]));
    expect(html).toContain('<li id="schema-rule-ids">');
    expect(html).toContain("nist-schema:&lt;oscal_version&gt;:&lt;model&gt;:&lt;keyword&gt;:&lt;schema_path&gt;:&lt;keyword&gt;");
    for (const rule of RULE_CATALOG.filter((entry) => !entry.defaultOn)) expect(html).toContain(`<code>${rule.id}</code>`);
  });

  it("/docs/rules says why a rule exists where its constraint's remarks do", async () => {
    const html = await get("/docs/rules");
    const row = (id: string) => unescapeHtml(new RegExp(`<tr id="${id.replace(".", "\\.")}">.*</tr>`).exec(html)![0]);
    expect(row("SSP-010.a")).toContain(
      "<br>Why: Since responsible-role associates multiple party-uuid entries with a single role-id, each role-id must be referenced only once.<br>Fix: ",
    );
    expect(row("MET-045.a")).not.toContain("Why:");
  });

  it("/docs/rules lists each FedRAMP pack rule with its constraint id, and says the service reads no other document", async () => {
    const html = await get("/docs/rules");
    const packRules = RULE_CATALOG.filter((rule) => rule.set === "fedramp");
    expect(packRules.length).toBeGreaterThan(100);
    for (const rule of packRules) expect(html).toMatch(new RegExp(`<tr id="${rule.id.replace(".", "\\.")}">.*<td>fedramp <code>${rule.constraintId}</code></td>`));
    expect(html).toContain("keyword <code>not-evaluated</code>");
  });

  it("/docs/rules describes NIST's rules in words with a fix, and gives their Metapath apart", async () => {
    const row = unescapeHtml(/<tr id="MET-045\.a">(.*)<\/tr>/.exec(await get("/docs/rules"))![1]!);
    expect(row).toContain("<td>A resource has at least one resource link or Base64.<br>Fix: Add the missing resource link or Base64.");
    expect(row).toContain("Metapath: <code>resource has 1..n of rlink|base64</code>");
  });

  it("/docs/rules shows a rule's failing example, where the catalog has one: the finding's pointer and the JSON there", async () => {
    const html = await get("/docs/rules");
    const withExample = RULE_CATALOG.filter((rule) => rule.example !== undefined);
    expect(withExample.length).toBeGreaterThan(200);
    for (const rule of withExample) {
      const row = unescapeHtml(new RegExp(`<tr id="${rule.id.replace(".", "\\.")}">(.*)</tr>`).exec(html)![1]!);
      expect(row).toContain(`<details><summary>Example: a finding at <code>${rule.example!.pointer}</code></summary><pre>${rule.example!.fragment}</pre></details>`);
    }
    const without = RULE_CATALOG.find((rule) => rule.example === undefined)!;
    expect(new RegExp(`<tr id="${without.id.replace(".", "\\.")}">(.*)</tr>`).exec(html)![1]).not.toContain("Example");
  });

  it("/docs/rules says why a rule that can never report has no failing example", async () => {
    const html = await get("/docs/rules");
    const unreachable = RULE_CATALOG.filter((rule) => rule.reachable === false);
    expect(unreachable.length).toBeGreaterThan(0);
    for (const rule of unreachable) {
      const row = unescapeHtml(new RegExp(`<tr id="${rule.id.replace(".", "\\.")}">(.*)</tr>`).exec(html)![1]!);
      expect(row).toContain(`<br>No failing example: ${rule.unreachableReason!}</td>`);
    }
    expect(new RegExp(`<tr id="MET-045\\.a">(.*)</tr>`).exec(html)![1]).not.toContain("No failing example");
  });

  it("/docs/rules is described in OpenAPI as a read-only page", () => {
    expect(Object.keys(openapi.paths["/docs/rules"]).sort()).toEqual(["get", "head", "options"]);
  });

  it("/docs shows a real example report, valid per the OpenAPI schema, with its fields explained and its rules linked", async () => {
    const html = await get("/docs");
    const report = JSON.parse(preformatted(html, "example-report")) as Record<string, any>;
    conforms("ValidationReport", report);
    expect(report).toMatchObject({ valid: false, level: "full", complete: true });
    expect(report.issues.length).toBeGreaterThan(0);

    // Each finding's line and column lead to what its path names in the example document shown beside it.
    const documentLines = preformatted(html, "example-document").split("\n");
    const known = new Set(RULE_CATALOG.map((rule) => rule.id));
    for (const issue of report.issues as Record<string, any>[]) {
      expect(known.has(issue.ruleId), issue.ruleId).toBe(true);
      expect(html).toContain(`href="${RULES_URL}#${issue.ruleId}"`);
      const lastToken = (issue.path as string).split("/").pop()!;
      const at = [...documentLines[issue.line - 1]!].slice(issue.column - 1).join("");
      expect(/^\d+$/.test(lastToken) ? at.startsWith("{") || at.startsWith('"') : at.startsWith('"'), `${issue.path} at ${issue.line}:${issue.column}`).toBe(true);
    }

    for (const [prefix, schema] of [["", "ValidationReport"], ["issues[].", "ValidationIssue"], ["meta.", "ReportMeta"]] as const) {
      for (const field of Object.keys(openapi.components.schemas[schema].properties)) expect(html).toContain(`<code>${prefix}${field}</code>`);
    }
    expect(html).toContain(`href="${RULES_URL}"`);
  });

  it("HTTP reports carry line and column, optional fields of the OpenAPI ValidationIssue", async () => {
    const issueSchema = openapi.components.schemas.ValidationIssue;
    expect(issueSchema.properties.line).toMatchObject({ type: "integer", minimum: 1 });
    expect(issueSchema.properties.column).toMatchObject({ type: "integer", minimum: 1 });
    expect(issueSchema.required).not.toContain("line");
    const body = '{\n  "catalog": {\n    "uuid": "not-a-uuid"\n  }\n}';
    const report = (await (await post(service.url(VALIDATE), body, JSON_HEADERS)).json()) as Record<string, any>;
    expect(report.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "/catalog/uuid", line: 3, column: 13 }),
        expect.objectContaining({ path: "/catalog", keyword: "required", line: 2, column: 14 }),
      ]),
    );
  });

  it("an unknown rule id points to the rule catalog without listing it", async () => {
    const response = await post(service.url(`${VALIDATE}?level=full&rules=NOPE-999.z`), "{}", JSON_HEADERS);
    expect(response.status).toBe(400);
    const problem = (await response.json()) as Record<string, any>;
    expect(problem.code).toBe("ERR_UNSUPPORTED_PARAMETER");
    expect(problem.resolution).toContain("/docs/rules");
    // The offending id is named; no id of the catalog is.
    expect(`${problem.detail} ${problem.resolution}`.match(/\b[A-Z]{2,4}-\d{3}\.[a-z]\b/g)).toEqual(["NOPE-999.z"]);
    const errorsPage = await get("/docs/errors");
    const section = /<section id="ERR_UNSUPPORTED_PARAMETER">[\s\S]*?<\/section>/.exec(errorsPage)![0];
    expect(section).toContain(`href="${RULES_URL}"`);
  });
});
