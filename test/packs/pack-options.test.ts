// The core's rule-pack options: selecting packs (constraints) or single pack rules (rules), other documents, the
// clock, the schema gate kept over HTTP, and how the manifest and the rule catalog show pack rules.
import { describe, expect, it } from "vitest";
import manifest from "#generated/manifest.json" with { type: "json" };
import { resolveOptions, validateDocument, type ValidateOptions } from "../../runtime/core/validate.js";
import { RULE_CATALOG } from "../../runtime/core/rule-catalog.js";
import { parseValidateQuery } from "../../runtime/http/request-checks.js";
import type { ValidationReport } from "../../runtime/core/report.js";
import { readJson } from "./fedramp-harness.js";

const NOW = new Date("2026-06-01T00:00:00Z");
const fedrampRules = RULE_CATALOG.filter((rule) => rule.set === "fedramp");
const idOf = (constraintId: string) => fedrampRules.find((rule) => rule.constraintId === constraintId)!.id;

function report(content: string, options: ValidateOptions): ValidationReport {
  const outcome = validateDocument(readJson(content), { level: "full", now: NOW, maxIssues: 10_000, ...options });
  if (outcome.kind !== "report") throw new Error(`no report: ${JSON.stringify(outcome)}`);
  return outcome.report;
}
const ruleIds = (r: ValidationReport) => [...new Set(r.issues.map((issue) => issue.ruleId))];

describe("selecting rule packs", () => {
  it("takes pack names only with level full and rejects unknown packs", () => {
    expect(resolveOptions({ constraints: ["fedramp"] })).toMatchObject({ ok: false, error: { code: "ERR_UNSUPPORTED_PARAMETER", parameter: "constraints" } });
    expect(resolveOptions({ level: "full", constraints: ["acme"] })).toMatchObject({ ok: false, error: { code: "ERR_UNSUPPORTED_PARAMETER", parameter: "constraints" } });
    expect(resolveOptions({ level: "full", rules: ["FRR-999.z"] })).toMatchObject({ ok: false, error: { parameter: "rules" } });
  });

  it("keeps pack rules off by default, as every rule of the pack with constraints, or one by id with rules", () => {
    const plain = report("content/ssp-address-type-INVALID.json", {});
    expect(ruleIds(plain).filter((id) => id.startsWith("FRR-"))).toEqual([]);
    const pack = report("content/ssp-address-type-INVALID.json", { constraints: ["fedramp"] });
    expect(ruleIds(pack)).toContain(idOf("address-type"));
    expect(ruleIds(pack).filter((id) => id.startsWith("FRR-")).length).toBeGreaterThan(5);
    const one = report("content/ssp-address-type-INVALID.json", { rules: [idOf("address-type")] });
    expect(ruleIds(one).filter((id) => id.startsWith("FRR-"))).toEqual([idOf("address-type")]);
    expect(one.issues.find((issue) => issue.ruleId === idOf("address-type"))).toMatchObject({ keyword: "allowed-values", severity: "error", path: expect.stringMatching(/^\/system-security-plan\/metadata\/parties\/\d+\/addresses\/\d+\/type$/) });
  });

  it("counts every active rule, NIST and pack, in meta.semanticRules", () => {
    const nistDefault = manifest.semanticRules.filter((rule) => rule.defaultOn).length;
    const pack = report("content/ssp-address-type-INVALID.json", { constraints: ["fedramp"] });
    expect(pack.meta.semanticRules?.count).toBe(nistDefault + fedrampRules.length);
    const one = report("content/ssp-address-type-INVALID.json", { rules: [idOf("address-type")] });
    expect(one.meta.semanticRules?.count).toBe(nistDefault + 1);
    expect(one.meta.semanticRules?.sha256).not.toBe(pack.meta.semanticRules?.sha256);
  });

  it("runs packs on schema-invalid fragments in the library, but not behind the HTTP service's schema gate", () => {
    const fragment = report("content/ssp-address-type-INVALID.json", { constraints: ["fedramp"] });
    expect(fragment.issues.some((issue) => issue.ruleId.startsWith("nist-schema:"))).toBe(true);
    expect(fragment.complete).toBe(false);
    const gated = report("content/ssp-address-type-INVALID.json", { constraints: ["fedramp"], packsOnSchemaErrors: false });
    expect(ruleIds(gated).filter((id) => id.startsWith("FRR-"))).toEqual([]);
    const query = parseValidateQuery(`level=full&rules=${idOf("address-type")}`);
    expect(query).toMatchObject({ ok: true, value: { packsOnSchemaErrors: false } });
  });

  it("reads the clock from the now option", () => {
    const rule = idOf("fully-operational-date-is-valid");
    const before = report("content/ssp-fully-operational-date-is-valid-INVALID.json", { rules: [rule], now: new Date("2026-12-31T00:00:00Z") });
    expect(ruleIds(before)).toContain(rule);
    const after = report("content/ssp-fully-operational-date-is-valid-INVALID.json", { rules: [rule], now: new Date("2027-01-02T00:00:00Z") });
    expect(ruleIds(after)).not.toContain(rule);
  });

  it("reports a constraint needing another document as not evaluated, and decides it from the documents supplied", () => {
    const rule = idOf("import-profile-has-available-document");
    const content = "content/ssp-import-profile-has-available-document-INVALID.json";
    const none = report(content, { rules: [rule] });
    expect(none.issues.filter((issue) => issue.ruleId === rule)).toEqual([
      expect.objectContaining({ keyword: "not-evaluated", severity: "warning", path: "/system-security-plan/import-profile", message: expect.stringContaining("no documents were supplied") }),
    ]);
    const asked: string[] = [];
    const resolver = report(content, { rules: [rule], documents: (href) => void asked.push(href) });
    expect(asked).toEqual(["../../../../src/content/rev5/baselines/xml/some-invalid-file.invalid"]);
    expect(resolver.issues.filter((issue) => issue.ruleId === rule)).toEqual([expect.objectContaining({ keyword: "expect", severity: "error" })]);
    const catalog = readJson("resources/FedRAMP_rev5_HIGH-baseline-resolved-profile_catalog.json");
    const supplied = report(content, { rules: [rule], documents: { [asked[0]!]: catalog } });
    expect(supplied.issues.filter((issue) => issue.ruleId === rule)).toEqual([]);
  });

  it("renders message templates as short excerpts of the document", () => {
    const r = report("content/ssp-used-by-link-references-component-INVALID.json", { rules: [idOf("used-by-link-references-component")] });
    const issue = r.issues.find((i) => i.ruleId === idOf("used-by-link-references-component"))!;
    expect(issue.message).toMatch(/^A FedRAMP SSP's component MUST reference .* component "[0-9a-f-]{36}" references a nonexistent component "#[^"]+"\.$/);
  });
});

describe("pack rules over many nodes", () => {
  it("match a flag against a variable's values among many nodes as filtering each would (FedRAMP's this-system statements)", () => {
    const id = (n: number) => `4a6f6c8e-1f5b-4d6e-9a3c-${String(n).padStart(12, "0")}`;
    // Twelve this-system components (enough to be indexed rather than filtered) and one service.
    const components = [...Array.from({ length: 12 }, (_, i) => ({ uuid: id(100 + i), type: "this-system" })), { uuid: id(200), type: "service" }].map((c) => ({
      ...c,
      title: "C",
      description: "D",
      status: { state: "operational" },
    }));
    // Statement 0 names one this-system component, 1 two of them, 2 the service, 3 nothing declared, 4 one twice.
    const named = [[id(100)], [id(101), id(102)], [id(200)], [id(999)], [id(103), id(103)]];
    const statements = named.map((uuids, i) => ({
      "statement-id": `ac-1_smt.${i}`,
      uuid: id(300 + i),
      "by-components": uuids.map((uuid, k) => ({ "component-uuid": uuid, uuid: id(400 + i * 10 + k), description: "D" })),
    }));
    const ssp = {
      "system-security-plan": {
        uuid: id(1),
        metadata: { title: "T", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" },
        "import-profile": { href: "#profile" },
        "system-characteristics": {},
        "system-implementation": { users: [], components },
        "control-implementation": { description: "D", "implemented-requirements": [{ uuid: id(2), "control-id": "ac-1", statements }] },
      },
    };
    const rule = idOf("statement-has-this-system-component");
    const outcome = validateDocument(ssp, { level: "full", rules: [rule], now: NOW });
    if (outcome.kind !== "report") throw new Error(`no report: ${JSON.stringify(outcome)}`);
    const failing = outcome.report.issues.filter((issue) => issue.ruleId === rule).map((issue) => issue.path);
    const statement = (i: number) => `/system-security-plan/control-implementation/implemented-requirements/0/statements/${i}`;
    expect(failing).toEqual([statement(1), statement(2), statement(3)]);
  });
});

describe("pack finding messages", () => {
  it("say, for allowed values without a message of their own, the value found and those allowed", () => {
    const r = report("content/ssp-address-type-INVALID.json", { rules: [idOf("address-type")] });
    const issue = r.issues.find((i) => i.ruleId === idOf("address-type"))!;
    const path = issue.path.split("/").slice(1);
    const value = path.reduce<any>((node, token) => node[token], readJson("content/ssp-address-type-INVALID.json")) as string;
    expect(issue.message).toBe(`Value ${JSON.stringify(value)} is not allowed; allowed: "work". ${fedrampRules.find((rule) => rule.id === idOf("address-type"))!.description}`);
  });
});

describe("pack rules in the manifest and the rule catalog", () => {
  it("lists every FedRAMP constraint id once, with set fedramp, its constraint id and no default", () => {
    expect(fedrampRules).toHaveLength(132);
    expect(new Set(fedrampRules.map((rule) => rule.constraintId)).size).toBe(132);
    for (const rule of fedrampRules) {
      expect(rule.id).toMatch(/^FRR-\d{3}\.[a-z]$/);
      expect(rule.defaultOn).toBe(false);
      expect(rule.level).toBe("full");
    }
    expect(fedrampRules.find((rule) => rule.constraintId === "marking")).toMatchObject({ keyword: "allowed-values+expect", models: expect.arrayContaining(["system-security-plan", "catalog"]) });
  });

  it("records the pack's sources, coverage and the constraints that need other documents", () => {
    const [pack] = manifest.packs;
    expect(pack).toMatchObject({ name: "fedramp", constraints: { total: 141, compiled: 141 }, notCompiled: [] });
    expect(Object.keys(pack!.sources).sort()).toEqual(["fedramp-external-allowed-values.xml", "fedramp-external-constraints.xml"]);
    expect(pack!.needsDocuments.map((entry) => entry.constraintId)).toContain("import-profile-has-available-document");
  });
});

describe("nested contexts", () => {
  it("reports a target reached from two context nodes once", () => {
    const rule = idOf("prop-response-point-has-cardinality-one");
    const point = { name: "response-point", ns: "http://fedramp.gov/ns/oscal", value: "" };
    const part = { id: "ac-2.1_smt", name: "statement", props: [point, point] };
    const metadata = { title: "Nested", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" };
    const document = {
      catalog: {
        uuid: "00000000-0000-4000-8000-000000000001",
        metadata,
        controls: [{ id: "ac-2", title: "Account Management", controls: [{ id: "ac-2.1", title: "Automated", parts: [part] }] }],
      },
    };
    const outcome = validateDocument(document, { level: "full", rules: [rule], now: NOW });
    if (outcome.kind !== "report") throw new Error(outcome.kind);
    expect(outcome.report.issues.filter((issue) => issue.ruleId === rule)).toEqual([
      expect.objectContaining({ path: "/catalog/controls/0/controls/0/parts/0", keyword: "expect", message: "MUST NOT have Duplicate response point at '/catalog/controls/0/controls/0/parts/0'." }),
    ]);
  });
});
