// POST /api/oscal/v1/resolve and the document library, against the real service over real sockets: profiles resolved
// from the library an operator configures (by canonical URL or by name), every error a client can meet, hrefs that try
// to leave the library, a service without a library, and FedRAMP's and oscal-package's rules reading the library on the
// validate path.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validate } from "../../runtime/index.js";
import { comparable, EXAMPLES, FEDRAMP, readJson, SP800_53_REV5 } from "../resolve/support.js";
import { FEDRAMP_FLAGGED_SSP, JSON_HEADERS, post, VALIDATE } from "./support/documents.js";
import { servedOpenApi, type ServedOpenApi } from "./support/openapi.js";
import { startService, type TestService } from "./support/service.js";

const RESOLVE = "/api/oscal/v1/resolve";
const CATALOG_URL = "https://example.test/catalogs/abc-simple.json";
const MODERATE_URL = "https://example.test/fedramp/moderate-profile.json";
/** The catalog FedRAMP's rev5 baselines import, by the URL their back-matter gives. */
const SP800_53_URL = "https://raw.githubusercontent.com/usnistgov/oscal-content/refs/tags/v1.3.0/nist.gov/SP800-53/rev5/xml/NIST_SP-800-53_rev5_catalog.xml";
const UNLIMITED = { ANON_RATE_PER_MINUTE: "100000", ANON_RATE_PER_DAY: "100000", WORKERS: "1" };

const metadata = { title: "Resolve me", "last-modified": "2024-01-01T00:00:00Z", version: "1.0", "oscal-version": "1.2.2" };
const profileImporting = (href: string, withIds = ["a1"]) => ({
  profile: { uuid: "3b1f5c2a-6d4e-4f8a-9b0c-1d2e3f4a5b6c", metadata, imports: [{ href, "include-controls": [{ "with-ids": withIds }] }] },
});
const ssp = (importHref: string) => {
  const document = JSON.parse(FEDRAMP_FLAGGED_SSP);
  document["system-security-plan"]["import-profile"].href = importHref;
  return JSON.stringify(document);
};

const root = mkdtempSync(path.join(tmpdir(), "oscal-library-http-"));
const library = path.join(root, "library");
const outside = path.join(root, "outside.json");

/** NIST's examples, FedRAMP's HIGH resolved catalog and MODERATE profile, SP 800-53 rev5, an SSP, a link leaving it. */
function buildLibrary(): void {
  cpSync(EXAMPLES, library, { recursive: true, filter: (source) => !source.includes("output-expected") });
  mkdirSync(path.join(library, "fedramp"));
  cpSync(path.join(FEDRAMP, "resources/FedRAMP_rev5_HIGH-baseline-resolved-profile_catalog.json"), path.join(library, "fedramp/high-resolved-catalog.json"));
  cpSync(path.join(FEDRAMP, "resources/FedRAMP_rev5_MODERATE-baseline_profile.json"), path.join(library, "fedramp/moderate-profile.json"));
  cpSync(SP800_53_REV5, path.join(library, "sp800-53-rev5.json"));
  writeFileSync(path.join(library, "ssp.json"), FEDRAMP_FLAGGED_SSP);
  writeFileSync(outside, JSON.stringify(readJson(path.join(EXAMPLES, "catalogs/abc-simple_catalog.json"))));
  symlinkSync(outside, path.join(library, "link.json"));
  const documents = {
    [CATALOG_URL]: "catalogs/abc-simple_catalog.json",
    [MODERATE_URL]: "fedramp/moderate-profile.json",
    [SP800_53_URL]: "sp800-53-rev5.json",
    // FEDRAMP_FLAGGED_SSP imports "profile.json": an index entry may name any href as documents write it.
    "profile.json": "fedramp/high-resolved-catalog.json",
  };
  writeFileSync(path.join(library, "index.json"), JSON.stringify({ documents }));
}

let withLibrary: TestService;
let withoutLibrary: TestService;
let openapi: ServedOpenApi;

beforeAll(async () => {
  buildLibrary();
  [withLibrary, withoutLibrary] = await Promise.all([startService("node", { ...UNLIMITED, DOCUMENT_LIBRARY: library }), startService("node", UNLIMITED)]);
  openapi = await servedOpenApi(withLibrary);
}, 240_000);
afterAll(async () => {
  expect(await Promise.all([withLibrary.stop(), withoutLibrary.stop()])).toEqual([0, 0]);
  rmSync(root, { recursive: true, force: true });
});

const resolve = (service: TestService, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
  post(service.url(RESOLVE), typeof body === "string" ? body : body instanceof Uint8Array ? new Blob([body as Uint8Array<ArrayBuffer>]) : JSON.stringify(body), headers);

/** Asserts a Problem of `code` and returns it. */
async function problemOf(response: Response, status: number, code: string): Promise<Record<string, any>> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const problem = (await response.json()) as Record<string, any>;
  expect(problem).toMatchObject({ status, code });
  openapi.conforms("Problem", problem);
  return problem;
}

describe("POST /api/oscal/v1/resolve with a document library", () => {
  it("resolves NIST's example profile into the catalog NIST expects, a valid OSCAL catalog", async () => {
    const profile = readJson(path.join(EXAMPLES, "base-test_profile.json"));
    const response = await resolve(withLibrary, profile);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("ratelimit-limit")).toBe("100000");
    const catalog = await response.json();
    const report = validate(catalog);
    expect(report.kind === "report" && report.report).toMatchObject({ valid: true, model: "catalog" });
    expect(comparable(catalog)).toEqual(comparable(readJson(path.join(EXAMPLES, "output-expected/base-test_profile_RESOLVED.json"))));
    expect(catalog.catalog.metadata.links).toContainEqual({ href: `urn:uuid:${profile.profile.uuid}`, rel: "source-profile" });
    // The library is shared and never changed by a resolution: the same profile, gzipped, resolves the same.
    const again = await resolve(withLibrary, gzipSync(JSON.stringify(profile)), { ...JSON_HEADERS, "Content-Encoding": "gzip" });
    expect(comparable(await again.json())).toEqual(comparable(catalog));
  });

  it("resolves imports named by the canonical URLs of the library's index, FedRAMP's MODERATE baseline among them", async () => {
    const byUrl = await resolve(withLibrary, profileImporting(CATALOG_URL, ["a1", "b1"]));
    expect(byUrl.status).toBe(200);
    expect(((await byUrl.json()).catalog.controls as { id: string }[]).map((control) => control.id)).toEqual(["a1", "b1"]);
    const baseline = { profile: { ...readJson(path.join(FEDRAMP, "resources/FedRAMP_rev5_MODERATE-baseline_profile.json")).profile } };
    const moderate = await resolve(withLibrary, profileImporting(MODERATE_URL, ["ac-2"]));
    expect(moderate.status).toBe(200);
    expect(((await moderate.json()).catalog.controls as { id: string }[]).map((control) => control.id)).toEqual(["ac-2"]);
    expect((await resolve(withLibrary, baseline)).status).toBe(200);
  });

  it("answers each resolution error with a Problem naming the href and the chain", async () => {
    const uuid = "urn:uuid:3b1f5c2a-6d4e-4f8a-9b0c-1d2e3f4a5b6c";
    const circular = await problemOf(await resolve(withLibrary, profileImporting("home_profile.json")), 422, "ERR_PROFILE_UNRESOLVABLE");
    expect(circular.detail).toBe(`${uuid} -> home_profile.json -> circular_profile.json -> home_profile.json: circular import: the profile imports itself through this chain`);
    expect(circular.chain).toEqual([uuid, "home_profile.json", "circular_profile.json", "home_profile.json"]);

    const missing = await problemOf(await resolve(withLibrary, readJson(path.join(EXAMPLES, "broken_profile.json"))), 422, "ERR_DOCUMENT_UNAVAILABLE");
    expect(missing.detail).toMatch(/^urn:uuid:[0-9a-f-]{36} -> missing_profile\.json: the document is not available: it is not in the document library$/);
    expect(missing.chain.at(-1)).toBe("missing_profile.json");

    const remote = await problemOf(await resolve(withLibrary, profileImporting("https://example.test/not-in-the-index.json")), 422, "ERR_DOCUMENT_UNAVAILABLE");
    expect(remote.detail).toBe(`${uuid} -> https://example.test/not-in-the-index.json: the document is not available: it is not in the document library (the service fetches nothing from the network)`);

    const neither = await problemOf(await resolve(withLibrary, profileImporting("ssp.json")), 422, "ERR_PROFILE_UNRESOLVABLE");
    expect(neither.detail).toBe(`${uuid} -> ssp.json: the document is neither an OSCAL profile nor an OSCAL catalog`);

    const unknown = await problemOf(await resolve(withLibrary, profileImporting(CATALOG_URL, ["a1", "zz-9"])), 422, "ERR_PROFILE_UNRESOLVABLE");
    expect(unknown.detail).toBe(`${uuid} -> ${CATALOG_URL}: the import selects controls the imported catalog does not have: zz-9`);
    expect(unknown.chain).toEqual([uuid, CATALOG_URL]);

    const long = `https://example.test/${"x".repeat(5000)}.json`;
    const bounded = await problemOf(await resolve(withLibrary, profileImporting(long)), 422, "ERR_DOCUMENT_UNAVAILABLE");
    expect(bounded.detail).toHaveLength(1024);
    expect(bounded.chain).toEqual([uuid, `${long.slice(0, 255)}…`]);

    const notProfile = await problemOf(await resolve(withLibrary, readJson(path.join(EXAMPLES, "catalogs/abc-simple_catalog.json"))), 422, "ERR_PROFILE_UNRESOLVABLE");
    expect(notProfile.detail).toBe("profile: the document is not an OSCAL profile");
  });

  it("refuses every href that would leave the library, without naming a path of the server's", async () => {
    const leaving = ["../outside.json", `../${path.basename(library)}/../outside.json`, outside, `file://${outside}`, "link.json", "/etc/hostname", "file:///etc/hostname"];
    for (const href of leaving) {
      const problem = await problemOf(await resolve(withLibrary, profileImporting(href)), 422, "ERR_DOCUMENT_UNAVAILABLE");
      expect(problem.detail, href).toBe(`urn:uuid:3b1f5c2a-6d4e-4f8a-9b0c-1d2e3f4a5b6c -> ${href}: the document is not available: it leaves the document library`);
      expect(problem.detail.replace(href, "")).not.toContain(root);
    }
    const nul = await problemOf(await resolve(withLibrary, profileImporting("catalogs/%00.json")), 422, "ERR_DOCUMENT_UNAVAILABLE");
    expect(nul.detail).toMatch(/: it is not in the document library$/);
  });

  it("applies the validate path's request checks: body, media type, query, method", async () => {
    expect((await problemOf(await resolve(withLibrary, "{ not json"), 400, "ERR_INVALID_JSON")).detail).toMatch(/line 1, column 3/);
    await problemOf(await resolve(withLibrary, "{}", { "Content-Type": "text/plain" }), 415, "ERR_UNSUPPORTED_MEDIA_TYPE");
    await problemOf(await post(withLibrary.url(`${RESOLVE}?level=full`), JSON.stringify(profileImporting(CATALOG_URL))), 400, "ERR_UNSUPPORTED_PARAMETER");
    const get = await fetch(withLibrary.url(RESOLVE));
    await problemOf(get, 405, "ERR_METHOD_NOT_ALLOWED");
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
    await problemOf(await resolve(withLibrary, profileImporting(CATALOG_URL), { ...JSON_HEADERS, Authorization: "Bearer sk_oscal_unknown" }), 401, "ERR_INVALID_API_KEY");
  });
});

describe("POST /api/oscal/v1/resolve without a document library", () => {
  it("resolves a profile whose imports are embedded in its back-matter", async () => {
    const catalog = readJson(path.join(EXAMPLES, "catalogs/abc-simple_catalog.json"));
    const resourceUuid = "0f0e0d0c-0b0a-4998-8776-655443322110";
    const profile = profileImporting(`#${resourceUuid}`);
    const embedded = { ...profile.profile, "back-matter": { resources: [{ uuid: resourceUuid, base64: { value: Buffer.from(JSON.stringify(catalog)).toString("base64") } }] } };
    const response = await resolve(withoutLibrary, { profile: embedded });
    expect(response.status).toBe(200);
    expect(((await response.json()).catalog.controls as { id: string }[]).map((control) => control.id)).toEqual(["a1"]);
  });

  it("says the operator has configured no library when a profile imports anything else", async () => {
    const problem = await problemOf(await resolve(withoutLibrary, profileImporting(CATALOG_URL)), 422, "ERR_DOCUMENT_UNAVAILABLE");
    expect(problem.detail).toBe(`urn:uuid:3b1f5c2a-6d4e-4f8a-9b0c-1d2e3f4a5b6c -> ${CATALOG_URL}: the document is not available: the operator has configured no document library`);
    expect(problem.resolution).toMatch(/^This service has no document library/);
  });
});

describe("FedRAMP's rules on the validate path read the document library", () => {
  const notEvaluated = (report: Record<string, any>): string[] =>
    (report.issues as { keyword: string; ruleId: string }[]).filter((issue) => issue.keyword === "not-evaluated").map((issue) => issue.ruleId);
  const validateSsp = async (service: TestService, body: string, rules: string) => (await (await post(service.url(`${VALIDATE}?level=full&rules=${rules}`), body)).json()) as Record<string, any>;

  it("evaluates the rules that read the imported profile, from a catalog the index names", async () => {
    const without = await validateSsp(withoutLibrary, FEDRAMP_FLAGGED_SSP, "fedramp");
    expect(notEvaluated(without)).toEqual(expect.arrayContaining(["FRR-037.a", "FRR-038.a"]));
    expect(without.complete).toBe(false);
    const withIt = await validateSsp(withLibrary, FEDRAMP_FLAGGED_SSP, "fedramp");
    openapi.conforms("ValidationReport", withIt);
    expect(notEvaluated(withIt)).toEqual([]);
    expect(withIt.complete).toBe(true);
    expect(withIt.issues.map((issue: { ruleId: string }) => issue.ruleId)).not.toContain("FRR-037.a");
  });

  it("resolves a library profile the SSP imports, against the library's SP 800-53 catalog", async () => {
    const report = await validateSsp(withLibrary, ssp(MODERATE_URL), "FRR-037.a,FRR-038.a");
    expect(notEvaluated(report)).toEqual([]);
    expect(report.complete).toBe(true);
  });

  it("finds no document outside the library, nor one an encoded NUL names: the imported profile is not available", async () => {
    for (const href of ["../outside.json", "catalogs/%00.json"]) {
      const report = await validateSsp(withLibrary, ssp(href), "FRR-037.a");
      expect(report.issues, href).toContainEqual(expect.objectContaining({ ruleId: "FRR-037.a", severity: "error", path: "/system-security-plan/import-profile" }));
    }
  });
});

describe("oscal-package's rules, on by default at level full, read the document library", () => {
  const fullReport = async (service: TestService) => (await (await post(service.url(`${VALIDATE}?level=full`), FEDRAMP_FLAGGED_SSP)).json()) as Record<string, any>;
  const packIssues = (report: Record<string, any>) =>
    (report.issues as { ruleId: string; keyword: string; path: string }[]).filter((issue) => issue.ruleId.startsWith("PKG-")).map(({ ruleId, keyword, path: at }) => `${ruleId} ${keyword} ${at}`);

  it("without a library, the rules needing the SSP's baseline are not evaluated and the report is not complete", async () => {
    const report = await fullReport(withoutLibrary);
    openapi.conforms("ValidationReport", report);
    expect(packIssues(report)).toEqual([
      "PKG-001.a not-evaluated /system-security-plan/control-implementation/implemented-requirements/0",
      "PKG-002.a not-evaluated /system-security-plan/control-implementation",
    ]);
    expect(report.complete).toBe(false);
  });

  it("with the baseline in the library, they are evaluated: its controls the SSP leaves out are one warning", async () => {
    const report = await fullReport(withLibrary);
    openapi.conforms("ValidationReport", report);
    expect(packIssues(report)).toEqual(["PKG-002.a expect /system-security-plan/control-implementation"]);
    expect(report.complete).toBe(true);
  });
});

describe("the OpenAPI document and the index", () => {
  it("describe the resolve path and leave the validate path's errors as they were", async () => {
    const resolvePath = openapi.document.paths[RESOLVE];
    expect(Object.keys(resolvePath)).toEqual(["post", "options"]);
    expect(resolvePath.post.responses["422"].description).toContain("`ERR_PROFILE_UNRESOLVABLE`");
    expect(resolvePath.post.responses["422"].description).toContain("`ERR_DOCUMENT_UNAVAILABLE`");
    expect(Object.keys(openapi.document.paths[VALIDATE].post.responses)).not.toContain("422");
    const index = (await (await fetch(withLibrary.url("/api/oscal/v1"))).json()) as Record<string, any>;
    openapi.conforms("ApiIndex", index);
    expect(index.endpoints.resolve).toEqual({ method: "POST", url: `${withLibrary.baseUrl}${RESOLVE}`, contentType: "application/json" });
  });
});

describe("a bad document library", () => {
  it("stops the start-up with a message naming each problem", async () => {
    const bad = mkdtempSync(path.join(tmpdir(), "oscal-bad-library-"));
    writeFileSync(path.join(bad, "index.json"), JSON.stringify({ documents: { [CATALOG_URL]: "nowhere.json", "https://example.test/up.json": "../up.json" } }));
    await expect(startService("node", { DOCUMENT_LIBRARY: bad })).rejects.toThrow(
      new RegExp(`exited with 2:[\\s\\S]*DOCUMENT_LIBRARY: .*"${CATALOG_URL.replace(/[./]/g, "\\$&")}": there is no file "nowhere\\.json" in the library[\\s\\S]*"\\.\\./up\\.json" leaves the library`),
    );
    rmSync(bad, { recursive: true, force: true });
  });
});
