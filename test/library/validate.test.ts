// The library entry: bytes, text and parsed values give the same reports; bad input and bad options give the typed
// errors the CLI and the HTTP service give for the same input, never an exception.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../../compiler/paths.js";
import { isCatalogDocument, isProfileDocument, validate, type ValidationError, type ValidationReport, type ValidationResult } from "../../runtime/index.js";
import { catalog, deeplyNestedCatalog, FEDRAMP_FLAGGED_SSP, post, SCHEMA_INVALID_CATALOG, VALID_CATALOG, VALIDATE } from "../http/support/documents.js";
import { startService, type TestService } from "../http/support/service.js";

function reportOf(result: ValidationResult): ValidationReport {
  if (result.kind !== "report") throw new Error(`expected a report, got ${JSON.stringify(result)}`);
  return result.report;
}

function errorOf(result: ValidationResult): ValidationError {
  if (result.kind !== "error") throw new Error(`expected an error, got ${JSON.stringify(result)}`);
  return result.error;
}

describe("validate(input, options)", () => {
  it("bytes, a Buffer, text and the parsed object give the same report", () => {
    const inputs = [new TextEncoder().encode(VALID_CATALOG), Buffer.from(VALID_CATALOG), VALID_CATALOG, JSON.parse(VALID_CATALOG) as object];
    for (const input of inputs) {
      const report = reportOf(validate(input));
      expect(report).toMatchObject({ valid: true, model: "catalog", oscalVersion: "1.2.2", level: "schema", complete: true, issues: [], issueCount: 0 });
      expect(report.meta).toMatchObject({ engine: "oscal-validator", validator: "1.2.2" });
    }
  });

  it("a string is text, not bytes: non-ASCII characters and a leading byte-order mark are accepted", () => {
    const text = JSON.stringify(catalog()).replace("Test catalog", "Catálogo de contrôles 目录");
    expect(reportOf(validate(text)).valid).toBe(true);
    expect(reportOf(validate(`\uFEFF${text}`)).valid).toBe(true);
  });

  it("findings carry the rule id and JSON Pointer, whatever the input form", () => {
    for (const input of [SCHEMA_INVALID_CATALOG, JSON.parse(SCHEMA_INVALID_CATALOG) as object]) {
      const report = reportOf(validate(input));
      expect(report.valid).toBe(false);
      expect(report.issues).toContainEqual(
        expect.objectContaining({ path: "/catalog", keyword: "required", ruleId: expect.stringMatching(/^nist-schema:1\.2\.2:catalog:required:/) }),
      );
    }
  });

  it("text and bytes place findings at a line and column; a parsed value has no text to place them in", () => {
    const text = `{\n  "catalog": {\n    "uuid": "not-a-uuid"\n  }\n}`;
    for (const input of [text, Buffer.from(text)]) {
      expect(reportOf(validate(input)).issues).toContainEqual(expect.objectContaining({ path: "/catalog/uuid", line: 3, column: 13 }));
    }
    const parsed = reportOf(validate(JSON.parse(text) as object)).issues;
    expect(parsed.length).toBeGreaterThan(0);
    expect(parsed.every((issue) => issue.line === undefined && issue.column === undefined)).toBe(true);
  });

  it("format yaml reads OSCAL's YAML form, with positions from the YAML source and YAML's own errors", () => {
    const yaml = "catalog:\n  uuid: not-a-uuid\n";
    for (const input of [yaml, Buffer.from(yaml)]) {
      expect(reportOf(validate(input, { format: "yaml" })).issues).toContainEqual(expect.objectContaining({ path: "/catalog/uuid", line: 2, column: 9 }));
    }
    expect(errorOf(validate("catalog: &a {}\nother: *a\n", { format: "yaml" })).code).toBe("ERR_INVALID_YAML");
    expect(errorOf(validate(yaml, { format: "xml" as "yaml" }))).toMatchObject({ code: "ERR_UNSUPPORTED_PARAMETER", parameter: "format" });
  });

  it("maxIssues caps the findings a report lists, while issueCount and truncated tell the whole", () => {
    const many = JSON.stringify({ catalog: Object.fromEntries(Array.from({ length: 250 }, (_, index) => [`unknown-${index}`, 1])) });
    const capped = reportOf(validate(many));
    expect(capped).toMatchObject({ truncated: true });
    expect(capped.issues).toHaveLength(200);
    const all = reportOf(validate(many, { maxIssues: Infinity }));
    expect(all).toMatchObject({ truncated: false, issueCount: capped.issueCount });
    expect(all.issues).toHaveLength(capped.issueCount);
    expect(reportOf(validate(many, { maxIssues: 3 })).issues).toHaveLength(3);
  });

  it("level full with an enabled default-off rule runs the semantic layer", () => {
    const report = reportOf(validate(VALID_CATALOG, { level: "full", rules: ["CTL-005.a"] }));
    expect(report).toMatchObject({ level: "full", complete: true, valid: true });
    const plain = reportOf(validate(VALID_CATALOG, { level: "full" }));
    expect(report.meta.semanticRules!.count).toBe(plain.meta.semanticRules!.count + 1);
  });

  it("constraints runs a rule pack; documents (a map or a function) and now are what its constraints read", () => {
    const ssp = JSON.parse(FEDRAMP_FLAGGED_SSP) as object;
    const ruleIds = (options: Parameters<typeof validate>[1]) => reportOf(validate(ssp, options)).issues.map((issue) => `${issue.ruleId} ${issue.keyword}`);
    const withPack = reportOf(validate(ssp, { level: "full", constraints: ["fedramp"] }));
    expect(withPack.issues).toContainEqual(expect.objectContaining({ ruleId: "FRR-001.a", path: "/system-security-plan/metadata/parties/0/addresses/0/type" }));
    expect(withPack.complete).toBe(false);
    // FRR-037.a: the imported profile ("profile.json") is available.
    expect(ruleIds({ level: "full", rules: ["FRR-037.a"] })).toContain("FRR-037.a not-evaluated");
    expect(ruleIds({ level: "full", rules: ["FRR-037.a"], documents: {} })).toContain("FRR-037.a expect");
    const profile = { profile: { uuid: "74c8ba1e-5cd4-4ad1-bbfd-d888e2f6c799", metadata: {}, imports: [] } };
    expect(ruleIds({ level: "full", rules: ["FRR-037.a"], documents: { "profile.json": profile } }).filter((id) => id.startsWith("FRR-037.a"))).toEqual([]);
    const asked: string[] = [];
    ruleIds({ level: "full", rules: ["FRR-037.a"], documents: (href) => void asked.push(href), now: new Date("2026-01-01T00:00:00Z") });
    expect(asked).toEqual(["profile.json"]);
  });

  it("the model type guards are exported", () => {
    expect(isCatalogDocument(JSON.parse(VALID_CATALOG))).toBe(true);
    expect(isProfileDocument(JSON.parse(VALID_CATALOG))).toBe(false);
  });
});

describe("values that are not JSON: ERR_INVALID_JSON naming where, never an exception", () => {
  const cyclic: Record<string, unknown> = catalog();
  (cyclic.catalog as Record<string, unknown>).back = cyclic;
  const throwingGetter = catalog();
  Object.defineProperty(throwingGetter.catalog, "metadata", { enumerable: true, get: () => { throw new Error("boom"); } });
  const sparse = catalog({ controls: [] });
  (sparse.catalog as { controls: unknown[] }).controls.length = 2;
  const cases: [string, unknown, string][] = [
    ["undefined", undefined, "the input itself is undefined"],
    ["a function", () => 1, "the input itself is a function"],
    ["a symbol", Symbol("s"), "the input itself is a symbol"],
    ["a bigint", 10n, "the input itself is a bigint"],
    ["NaN inside", catalog({ params: [{ id: "p", values: [Number.NaN] }] }), "at /catalog/params/0/values/0 is NaN"],
    ["a Date inside", { catalog: { uuid: "u", metadata: { "last-modified": new Date(0) } } }, "at /catalog/metadata/last-modified is an instance of Date"],
    ["undefined inside", catalog({ "a/b~c": undefined }), "at /catalog/a~1b~0c is undefined"],
    ["a cycle", cyclic, "at /catalog/back is a reference to an enclosing value (a cycle)"],
    ["a hole in an array", sparse, "at /catalog/controls/0 is a hole in an array"],
    ["a throwing getter", throwingGetter, "the input itself is a value whose properties cannot be read"],
    ["a Map", new Map(), "the input itself is an instance of Map"],
    ["a Uint16Array", new Uint16Array(4), "the input itself is an instance of Uint16Array"],
  ];
  it.each(cases)("%s", (_, input, where) => {
    const error = errorOf(validate(input as object));
    expect(error.code).toBe("ERR_INVALID_JSON");
    expect(error.detail).toBe(`The input is not a JSON value: ${where}.`);
  });

  it("a value nested deeper than real documents is still found and named", () => {
    const deep: Record<string, unknown> = { id: "g", title: "t" };
    let innermost = deep;
    for (let level = 0; level < 1500; level++) innermost = (innermost.groups = [{ id: "g", title: "t" }])[0]!;
    innermost.title = Symbol("deep");
    const error = errorOf(validate(catalog({ groups: [deep] })));
    expect(error.code).toBe("ERR_INVALID_JSON");
    expect(error.detail).toBe(`The input is not a JSON value: at /catalog/groups/0${"/groups/0".repeat(1500)}/title is a symbol.`);
  });

  it("a parsed document nested too deeply for the validators is ERR_PAYLOAD_TOO_LARGE, as its text is", () => {
    const text = deeplyNestedCatalog(20_000);
    expect(errorOf(validate(JSON.parse(text) as object))).toEqual(errorOf(validate(text)));
    expect(errorOf(validate(text)).code).toBe("ERR_PAYLOAD_TOO_LARGE");
  });

  it("the same object twice (not a cycle) is JSON", () => {
    const metadata = (catalog().catalog as { metadata: object }).metadata;
    const shared = { catalog: { uuid: "74c8ba1e-5cd4-4ad1-bbfd-d888e2f6c724", metadata, "back-matter": { resources: [] } } };
    expect(validate(shared).kind).toBe("report");
  });

  it("JSON values that are not an OSCAL document are ERR_UNKNOWN_MODEL", () => {
    for (const input of [null, 42, true, [], {}, { catalog: {}, profile: {} }]) expect(errorOf(validate(input)).code).toBe("ERR_UNKNOWN_MODEL");
  });
});

describe("options from untyped callers: ERR_UNSUPPORTED_PARAMETER naming the option, never an exception", () => {
  const cases: [string, unknown, string][] = [
    ["options not an object", "full", "options"],
    ["options an array", ["full"], "options"],
    ["an unknown option", { levle: "full" }, "levle"],
    ["a level that is not a string", { level: 2 }, "level"],
    ["an unknown level", { level: "deep" }, "level"],
    ["rules as a string", { level: "full", rules: "CTL-005.a" }, "rules"],
    ["rules holding a number", { level: "full", rules: [5] }, "rules"],
    ["rules without level full", { rules: ["CTL-005.a"] }, "rules"],
    ["an unknown rule id", { level: "full", rules: ["NOPE-001.a"] }, "rules"],
    ["constraints as a string", { level: "full", constraints: "fedramp" }, "constraints"],
    ["an unknown rule pack", { level: "full", constraints: ["fisma"] }, "constraints"],
    ["constraints without level full", { constraints: ["fedramp"] }, "constraints"],
    ["documents as an array", { level: "full", constraints: ["fedramp"], documents: [] }, "documents"],
    ["now that is not a Date", { level: "full", constraints: ["fedramp"], now: "2026-01-01T00:00:00Z" }, "now"],
    ["now an invalid Date", { level: "full", constraints: ["fedramp"], now: new Date(Number.NaN) }, "now"],
    ["a negative maxIssues", { maxIssues: -1 }, "maxIssues"],
    ["a fractional maxIssues", { maxIssues: 1.5 }, "maxIssues"],
    ["options whose getter throws", Object.defineProperty({}, "level", { enumerable: true, get: () => { throw new Error("boom"); } }), "options"],
  ];
  it.each(cases)("%s", (_, options, parameter) => {
    const error = errorOf(validate(VALID_CATALOG, options as never));
    expect(error).toMatchObject({ code: "ERR_UNSUPPORTED_PARAMETER", parameter });
    expect(error.detail.length).toBeGreaterThan(0);
  });

  it("null and undefined options are the defaults", () => {
    expect(reportOf(validate(VALID_CATALOG, null as never)).level).toBe("schema");
    expect(reportOf(validate(VALID_CATALOG, undefined)).level).toBe("schema");
  });
});

describe("bad input gets the error the CLI and the HTTP service give", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "oscal-library-"));
  const cli = path.join(repoRoot, "dist/runtime/cli/oscal-validate-bin.cjs");
  const badInputs: [string, Uint8Array, string][] = [
    ["invalid UTF-8", Uint8Array.from([...Buffer.from('{"catalog": "'), 0xc3, 0x28, ...Buffer.from('"}')]), "ERR_INVALID_UTF8"],
    ["malformed JSON", Buffer.from('{"catalog": {\n  "uuid": ,\n}}'), "ERR_INVALID_JSON"],
    ["no OSCAL model", Buffer.from('{"catalogue": {}}'), "ERR_UNKNOWN_MODEL"],
    ["nesting too deep for the validators", Buffer.from(deeplyNestedCatalog(20_000)), "ERR_PAYLOAD_TOO_LARGE"],
  ];
  let service: TestService;
  beforeAll(async () => {
    service = await startService("node", { ANON_RATE_PER_MINUTE: "1000", ANON_RATE_PER_DAY: "10000" });
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(badInputs)("%s", async (name, bytes, code) => {
    const fromBytes = errorOf(validate(bytes));
    expect(fromBytes.code).toBe(code);
    if (name !== "invalid UTF-8") expect(errorOf(validate(Buffer.from(bytes).toString("utf8")))).toEqual(fromBytes);

    const file = path.join(dir, `${name.replaceAll(" ", "-")}.json`);
    writeFileSync(file, bytes);
    const run = spawnSync(process.execPath, [cli, "--format", "json", file], { encoding: "utf8" });
    const [fromCli] = JSON.parse(run.stdout) as { error: { code: string; detail: string } }[];
    // The same problem, in a terminal's words: the CLI was handed a file, not a request body.
    expect(fromCli!.error).toMatchObject({ code: fromBytes.code, detail: fromBytes.detail.replace(/^The body is not/, "Not") });

    const response = await post(service.url(VALIDATE), Buffer.from(bytes));
    const problem = (await response.json()) as { code: string; detail: string };
    expect(problem).toMatchObject({ code: fromBytes.code, detail: fromBytes.detail });
  });

  it("rules without level full", async () => {
    const error = errorOf(validate(VALID_CATALOG, { rules: ["CTL-005.a"] }));
    const response = await post(service.url(`${VALIDATE}?rules=CTL-005.a`), VALID_CATALOG);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: error.code, detail: error.detail });
  });
});
