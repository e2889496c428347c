// The validation page in a real browser against the real service: both modes, the findings shown in place, nothing
// sent in the browser mode, the API's Problems shown as returned, and the large NIST catalog at level full.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { get, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Browser, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { PACK_NAMES } from "#generated/packs/index.js";
import { repoRoot } from "../../compiler/paths.js";
import { validate, type ValidationReport } from "../../runtime/index.js";
import { DEFAULT_PACKS } from "../../runtime/core/semantic.js";
import { startService, type TestService } from "../http/support/service.js";
import { launchBrowser } from "./support.js";

const CORPUS = join(repoRoot, "../shared/corpus");
const VALID_DOCUMENT = join(CORPUS, "component-definition/oscal-cli-example-component-definition-valid.json");
const INVALID_DOCUMENT = join(CORPUS, "mapping-collection/example-mapping-sp800-53-rev4-to-harmonized-v1.0.json");
const SP800_53 = join(CORPUS, "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
const FEDRAMP_SSP = join(repoRoot, "../shared/fedramp/content/fedramp-ssp-example.json");
const SCREENSHOTS = join(repoRoot, "test-output/screenshots");
/**
 * Two validations per day: the third request of a client is refused. A daily window, not a minute's, so that the three
 * requests fall in one window however slowly a busy machine makes them (the minute is left generous).
 */
const ANON_LIMITS = { ANON_RATE_PER_DAY: "2", ANON_RATE_PER_MINUTE: "1000" };
/** How long one validation or other step on the page may take: minutes, so that a busy machine makes it slow, never failed. */
const PAGE_VALIDATION_MS = 300_000;

async function newPage(browser: Browser, options: Parameters<Browser["newPage"]>[0] = {}): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(PAGE_VALIDATION_MS);
  return page;
}

function libraryReport(file: string, level: "schema" | "full", rules: string[] = []): ValidationReport {
  const result = validate(readFileSync(file), { level, rules });
  if (result.kind !== "report") throw new Error(`${file}: ${result.error.code}`);
  return result.report;
}

const withoutDuration = (report: ValidationReport) => ({ ...report, meta: { ...report.meta, durationMs: 0 } });

interface ShownFinding {
  rule: string;
  ruleLink: string | null;
  /** The full rule id, in the short id's title. */
  ruleTitle: string | null;
  path: string;
  position: string | null;
}

async function validateOnPage(page: Page, options: { file: string; level: "schema" | "full"; mode: "browser" | "api" }): Promise<void> {
  await page.setInputFiles("#file", options.file);
  await page.check(`input[name="level"][value="${options.level}"]`);
  await page.check(`input[name="mode"][value="${options.mode}"]`);
  await page.click("#submit");
  await page.waitForSelector("#verdict");
}

/** A GET whose body is returned as sent (fetch would decode the gzip). */
function rawGet(url: string, acceptEncoding: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "Accept-Encoding": acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

async function shownFindings(page: Page): Promise<ShownFinding[]> {
  return page.$$eval("#findings li", (items) =>
    items.map((item) => ({
      rule: item.querySelector(".rule")!.textContent!,
      ruleLink: item.querySelector("a.rule")?.getAttribute("href") ?? null,
      ruleTitle: item.querySelector(".rule")!.getAttribute("title"),
      path: item.querySelector(".path")!.textContent!,
      position: item.querySelector(".position")?.textContent ?? null,
    })),
  );
}

async function shownReport(page: Page): Promise<ValidationReport> {
  return JSON.parse((await page.textContent("#report-json"))!) as ValidationReport;
}

describe("the validation page", () => {
  let service: TestService;
  let browser: Browser;
  let page: Page;
  const requests: Request[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [service, browser] = await Promise.all([startService("uws", ANON_LIMITS), launchBrowser()]);
    page = await newPage(browser, { viewport: { width: 1100, height: 900 } });
    page.on("request", (request) => requests.push(request));
    await page.goto(service.url("/validate"));
  });

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it("validates a valid and an invalid document in the browser without sending them anywhere", async () => {
    requests.length = 0;
    await validateOnPage(page, { file: VALID_DOCUMENT, level: "full", mode: "browser" });
    expect(await page.textContent("#verdict")).toBe("Valid");
    expect(await page.textContent("#counts")).toBe("0 findings: 0 errors, 0 warnings.");
    expect(withoutDuration(await shownReport(page))).toEqual(withoutDuration(libraryReport(VALID_DOCUMENT, "full")));
    await page.screenshot({ path: join(SCREENSHOTS, "valid.png"), fullPage: true });

    await validateOnPage(page, { file: INVALID_DOCUMENT, level: "full", mode: "browser" });
    const expected = libraryReport(INVALID_DOCUMENT, "full");
    expect(expected.issues.length).toBeGreaterThan(0);
    expect(await page.textContent("#verdict")).toBe("Not valid");
    // The document declares OSCAL 1.2.0: the page says what it was checked against.
    expect(expected.meta.release.note).toMatch(/^The document declares OSCAL 1\.2\.0 and was checked against OSCAL 1\.2\.2/);
    expect(await page.textContent("#release-note")).toBe(expected.meta.release.note);
    expect(await shownFindings(page)).toEqual(
      expected.issues.map((issue) => ({ rule: `schema ${issue.keyword}`, ruleLink: "/docs/rules#schema-rule-ids", ruleTitle: issue.ruleId, path: issue.path, position: `${issue.line}:${issue.column}` })),
    );
    // The short id's link leads to the rules page's section on schema rule ids.
    const rulesPage = await (await fetch(service.url("/docs/rules"))).text();
    expect(rulesPage).toContain('id="schema-rule-ids"');
    expect(withoutDuration(await shownReport(page))).toEqual(withoutDuration(expected));
    // Every finding's line is marked in the source, and its position button brings that line into view.
    for (const issue of expected.issues) expect(await page.getAttribute(`#line-${issue.line}`, "data-line")).toBe(String(issue.line));
    await page.screenshot({ path: join(SCREENSHOTS, "invalid.png"), fullPage: true });
    const last = expected.issues.at(-1)!;
    await page.locator(".position").last().click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: PAGE_VALIDATION_MS }).toBe(`line-${last.line}`);

    const documents = [readFileSync(VALID_DOCUMENT, "utf8"), readFileSync(INVALID_DOCUMENT, "utf8")];
    expect(requests.filter((request) => request.method() !== "GET")).toEqual([]);
    for (const request of requests) {
      expect(request.url()).not.toContain("/api/oscal/v1/validate");
      for (const text of documents) expect(request.postData() ?? "").not.toContain(text.slice(0, 200));
    }
    // Only this model's validators were fetched: the bundle's other model chunks were not.
    const fetched = requests.map((request) => new URL(request.url()).pathname);
    expect(fetched.some((path) => /\/validate\/assets\/catalog-/.test(path))).toBe(false);
    expect(fetched.some((path) => /\/validate\/assets\/mapping-collection-/.test(path))).toBe(true);
  });

  it("reads the YAML form of a document and places its findings in the YAML text", async () => {
    const yamlText = stringify(JSON.parse(readFileSync(INVALID_DOCUMENT, "utf8")));
    const yamlFile = join(mkdtempSync(join(tmpdir(), "oscal-yaml-")), "mapping.yaml");
    writeFileSync(yamlFile, yamlText);
    const expected = validate(yamlText, { level: "full", format: "yaml" });
    if (expected.kind !== "report") throw new Error(expected.error.code);
    await validateOnPage(page, { file: yamlFile, level: "full", mode: "browser" });
    expect(await page.isChecked('input[name="format"][value="yaml"]')).toBe(true);
    expect((await shownFindings(page)).map(({ path, position }) => [path, position])).toEqual(expected.report.issues.map((issue) => [issue.path, `${issue.line}:${issue.column}`]));
    expect(withoutDuration(await shownReport(page))).toEqual(withoutDuration(expected.report));
  });

  it("links semantic rule ids to the rule catalog", async () => {
    // A schema-valid catalog with a semantic finding: a link to a resource that the document does not hold. Its first
    // key is not the model, so the worker learns which validators to fetch only from the parsed document.
    const document = JSON.stringify({ $schema: "https://example.com/oscal-catalog-schema.json", catalog: { uuid: "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b", metadata: { title: "T", "last-modified": "2024-05-01T12:00:00Z", version: "1", "oscal-version": "1.2.2", links: [{ href: "#missing", rel: "reference" }] } } }, null, 2);
    const expected = validate(document, { level: "full" });
    if (expected.kind !== "report") throw new Error(expected.error.code);
    await page.fill("#text", document);
    await page.check('input[name="format"][value="json"]');
    await page.check('input[name="mode"][value="browser"]');
    await page.click("#submit");
    await page.waitForSelector("#verdict");
    const findings = await shownFindings(page);
    expect(findings.map((finding) => finding.rule)).toEqual(expected.report.issues.map((issue) => issue.ruleId));
    for (const finding of findings) expect([finding.ruleLink, finding.ruleTitle]).toEqual([`/docs/rules#${encodeURIComponent(finding.rule)}`, finding.rule]);
  });

  it("runs FedRAMP's rule pack in the browser when its box is checked, fetching the pack only then", async () => {
    requests.length = 0;
    await page.check('input[name="pack"][value="fedramp"]');
    await validateOnPage(page, { file: FEDRAMP_SSP, level: "full", mode: "browser" });
    await page.uncheck('input[name="pack"][value="fedramp"]');
    const expected = libraryReport(FEDRAMP_SSP, "full", ["fedramp"]);
    expect(expected.issues.filter((issue) => issue.ruleId.startsWith("FRR-")).length).toBeGreaterThan(0);
    expect(withoutDuration(await shownReport(page))).toEqual(withoutDuration(expected));
    const fetched = requests.map((request) => new URL(request.url()).pathname);
    expect(fetched.filter((path) => /\/validate\/assets\/fedramp-/.test(path))).toHaveLength(1);

    requests.length = 0;
    await validateOnPage(page, { file: VALID_DOCUMENT, level: "full", mode: "browser" });
    expect(withoutDuration(await shownReport(page))).toEqual(withoutDuration(libraryReport(VALID_DOCUMENT, "full")));
    expect(requests.some((request) => /\/validate\/assets\/fedramp-/.test(new URL(request.url()).pathname))).toBe(false);
  });

  it("takes a dropped file, and works with the keyboard alone", async () => {
    const fresh = await newPage(browser);
    await fresh.goto(service.url("/validate"));
    const text = readFileSync(INVALID_DOCUMENT, "utf8");
    const drop = await fresh.evaluateHandle((content) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], "dropped.json", { type: "application/json" }));
      return transfer;
    }, text);
    await fresh.dispatchEvent("#drop-zone", "drop", { dataTransfer: drop });
    await expect.poll(() => fresh.inputValue("#text"), { timeout: PAGE_VALIDATION_MS }).toBe(text);
    // From the text box, Tab reaches each choice group, each rule pack's box (but the fixed boxes of the packs on by
    // default), the rules, then the button; Enter validates.
    await fresh.focus("#text");
    expect(await fresh.$$eval('input[name="pack"]:checked:disabled', (boxes) => boxes.map((box) => (box as HTMLInputElement).value))).toEqual([...DEFAULT_PACKS]);
    const expectedStops = ["format", "level", "mode", ...PACK_NAMES.filter((name) => !DEFAULT_PACKS.includes(name)).map(() => "pack"), "rules", "submit"];
    const stops: string[] = [];
    for (let i = 0; i < expectedStops.length; i++) {
      await fresh.keyboard.press("Tab");
      stops.push(await fresh.evaluate(() => (document.activeElement as HTMLInputElement).name || document.activeElement!.id));
    }
    expect(stops).toEqual(expectedStops);
    await fresh.keyboard.press("Enter");
    await fresh.waitForSelector("#verdict");
    expect(await fresh.evaluate(() => document.activeElement?.id)).toBe("verdict");
    expect(await fresh.textContent("#verdict")).toBe("Not valid");
    await fresh.close();
  });

  it("gives the same reports through the API, with its rate-limit headers, then shows its 429 Problem as returned", async () => {
    await validateOnPage(page, { file: VALID_DOCUMENT, level: "full", mode: "api" });
    expect(await page.textContent("#verdict")).toBe("Valid");
    expect(withoutDuration(await shownReport(page))).toEqual(withoutDuration(libraryReport(VALID_DOCUMENT, "full")));
    expect(await page.textContent("#rate-limits")).toContain("RateLimit-Remaining");

    await validateOnPage(page, { file: INVALID_DOCUMENT, level: "full", mode: "api" });
    const expected = libraryReport(INVALID_DOCUMENT, "full");
    expect(withoutDuration(await shownReport(page))).toEqual(withoutDuration(expected));
    expect((await shownFindings(page)).map((finding) => finding.position)).toEqual(expected.issues.map((issue) => `${issue.line}:${issue.column}`));

    const answer = page.waitForResponse((response) => response.url().includes("/api/oscal/v1/validate"));
    await validateOnPage(page, { file: INVALID_DOCUMENT, level: "full", mode: "api" });
    const response = await answer;
    expect(response.status()).toBe(429);
    expect(await page.textContent("#verdict")).toBe("The service answered 429");
    expect(await page.textContent("#problem")).toBe(await response.text());
    expect(JSON.parse((await page.textContent("#problem"))!).code).toBe("ERR_RATE_LIMITED");
    expect(await page.textContent("#rate-limits")).toContain("Retry-After");
  });

  it("completes the SP 800-53 catalog at level full in the browser, and fits a phone-sized screen", async () => {
    await validateOnPage(page, { file: SP800_53, level: "full", mode: "browser" });
    const expected = libraryReport(SP800_53, "full");
    expect(await page.textContent("#verdict")).toBe(expected.valid ? "Valid" : "Not valid");
    expect(withoutDuration(await shownReport(page))).toEqual(withoutDuration(expected));
    // A long source is shown around its findings only: each finding's line, a few lines either side, gaps between.
    expect(expected.issues.length).toBeGreaterThan(0);
    expect(await page.textContent("#source")).toContain("lines …");
    for (const issue of expected.issues) expect(await page.getAttribute(`#line-${issue.line}`, "data-line")).toBe(String(issue.line));
    expect(await page.$eval("#source", (source) => source.textContent!.split("\n").length)).toBeLessThan(100);

    const phone = await newPage(browser, { viewport: { width: 375, height: 740 }, isMobile: true });
    await phone.goto(service.url("/validate"));
    await phone.setInputFiles("#file", INVALID_DOCUMENT);
    await phone.click("#submit");
    await phone.waitForSelector("#findings");
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await phone.screenshot({ path: join(SCREENSHOTS, "phone.png"), fullPage: true });
    await phone.close();
  }, 2 * PAGE_VALIDATION_MS);

  it("is served under a strict Content-Security-Policy, with its bundle compressed and cached for good", async () => {
    const html = await fetch(service.url("/validate"));
    expect(html.status).toBe(200);
    const policy = html.headers.get("content-security-policy")!;
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "worker-src 'self'"]) expect(policy).toContain(directive);
    const body = await html.text();
    expect(body).not.toMatch(/<script>|<style>|style=/);
    const script = /<script type="module" src="([^"]+)"/.exec(body)![1]!;
    expect(script).toMatch(/^\/validate\/assets\/page-[A-Z0-9]{8}\.js$/);

    const plain = await rawGet(service.url(script), "identity");
    const compressed = await rawGet(service.url(script), "gzip, deflate, br");
    for (const answer of [plain, compressed]) {
      expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(answer.headers.vary).toBe("Accept-Encoding");
    }
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect((await rawGet(service.url(script), "gzip;q=0, identity")).headers["content-encoding"]).toBeUndefined();
    expect((await rawGet(service.url(script), "*")).headers["content-encoding"]).toBe("gzip");
    expect(compressed.headers["content-encoding"]).toBe("gzip");
    expect(compressed.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(compressed.body)).toEqual(plain.body);

    const docs = await (await fetch(service.url("/docs"))).text();
    expect(docs).toContain('/validate">');
  });
});
