// The shared black-box suite: every endpoint, error row, behaviour rule, limit and hostile input of the contract,
// run against the real service over real sockets, once per transport adapter.
import { gzipSync } from "node:zlib";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openSocket, readResponse, requestHead, writeQuietly } from "./support/raw-http.js";
import { FEDRAMP_FLAGGED_SSP, JSON_HEADERS, MANY_ISSUES_CATALOG, SCHEMA_INVALID_CATALOG, VALIDATE, VALID_CATALOG, catalog, deeplyNestedCatalog, post } from "./support/documents.js";
import { servedOpenApi, type ServedOpenApi } from "./support/openapi.js";
import { RULE_CATALOG } from "../../runtime/core/rule-catalog.js";
import { startService, TRANSPORTS, type TestService } from "./support/service.js";

const MIB = 1024 * 1024;
const PUBLIC_BASE_URL = "https://oscal.example.test";
const PROBLEM_TYPE = "application/problem+json";

describe.each(TRANSPORTS)("HTTP contract over %s", (transport) => {
  let service: TestService;
  let openapi: Record<string, any>;
  let conforms: ServedOpenApi["conforms"];

  beforeAll(async () => {
    // No minimum body rate: the slow client here must not be cut off because a busy machine slows the test down (the
    // rate is tested in test/attacks/service-bodies.test.ts and against a moved clock in time-limits.test.ts).
    service = await startService(transport, { PUBLIC_BASE_URL, ANON_RATE_PER_MINUTE: "100000", ANON_RATE_PER_DAY: "100000", MIN_BODY_BYTES_PER_SECOND: "0" });
    ({ document: openapi, conforms } = await servedOpenApi(service));
  });
  afterAll(async () => {
    expect(await service.stop()).toBe(0);
  });


  /** Asserts a Problem response and returns its body. */
  async function expectProblem(response: Response, status: number, code: string): Promise<Record<string, any>> {
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe(PROBLEM_TYPE);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const problem = (await response.json()) as Record<string, any>;
    expect(problem).toMatchObject({ status, code, type: `${PUBLIC_BASE_URL}/docs/errors#${code}`, documentation: `${PUBLIC_BASE_URL}/docs/errors#${code}` });
    expect(problem.title).toEqual(expect.any(String));
    expect(problem.resolution).toEqual(expect.any(String));
    conforms("Problem", problem);
    return problem;
  }

  const validate = (body: BodyInit | undefined, query = "", headers: Record<string, string> = JSON_HEADERS) => post(service.url(`${VALIDATE}${query}`), body, headers);

  describe("discovery, OpenAPI and documentation", () => {
    it("serves the API index with absolute URLs from PUBLIC_BASE_URL", async () => {
      const response = await fetch(service.url("/api/oscal/v1"));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      const index = (await response.json()) as Record<string, any>;
      conforms("ApiIndex", index);
      expect(index).toMatchObject({
        version: "v1",
        openapi: `${PUBLIC_BASE_URL}/openapi.json`,
        errors: `${PUBLIC_BASE_URL}/docs/errors`,
        permissions: `${PUBLIC_BASE_URL}/docs/permissions`,
        documentation: `${PUBLIC_BASE_URL}/docs`,
        endpoints: { validate: { method: "POST", url: `${PUBLIC_BASE_URL}${VALIDATE}`, contentType: "application/json" } },
        authentication: { anonymous: true, optionalApiKey: { scheme: "Bearer", prefix: "sk_oscal_", grantsWorkspaceAccess: false } },
      });
    });

    it("serves byte-identical OpenAPI 3.1 at both URLs, valid by the OpenAPI 3.1 validator", async () => {
      const [canonical, versioned] = await Promise.all([fetch(service.url("/openapi.json")), fetch(service.url("/api/oscal/v1/openapi.json"))]);
      expect(canonical.status).toBe(200);
      expect(versioned.status).toBe(200);
      const [a, b] = await Promise.all([canonical.arrayBuffer(), versioned.arrayBuffer()]);
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
      const result = await new Validator().validate(JSON.parse(Buffer.from(a).toString()));
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(openapi.openapi).toBe("3.1.0");
      for (const path of [VALIDATE, "/api/oscal/v1", "/openapi.json", "/api/oscal/v1/openapi.json", "/docs", "/docs/errors", "/docs/permissions", "/healthz", "/readyz"]) {
        expect(openapi.paths[path], path).toBeDefined();
      }
      const post = openapi.paths[VALIDATE].post;
      expect(post.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["level", "rules", "oscal-version"]));
      expect(Object.keys(post.responses)).toEqual(["200", "400", "401", "405", "413", "415", "429", "500", "503"]);
    });

    it("serves exactly the methods the OpenAPI description lists on every path, and 405 with Allow otherwise", async () => {
      for (const [path, operations] of Object.entries(openapi.paths as Record<string, Record<string, unknown>>)) {
        const described = Object.keys(operations).map((method) => method.toUpperCase());
        for (const method of ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]) {
          // POST is described only on the validate path; an empty body is enough to see the route answer.
          const response = await fetch(service.url(path), { method, ...(method === "POST" || method === "PUT" ? { body: "", headers: JSON_HEADERS } : {}) });
          if (described.includes(method)) expect(response.status, `${method} ${path}`).not.toBe(405);
          else {
            expect(response.status, `${method} ${path}`).toBe(405);
            expect(response.headers.get("allow")!.split(", ").sort(), `${method} ${path}`).toEqual([...described].sort());
          }
        }
      }
    });

    it("links every problem code to an anchor of the error reference", async () => {
      const response = await fetch(service.url("/docs/errors"));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await response.text();
      for (const code of openapi.components.schemas.Problem.properties.code.enum as string[]) expect(html).toContain(`id="${code}"`);
      expect(openapi.components.schemas.Problem.properties.code.enum).toContain("ERR_NOT_FOUND");
    });

    it("serves the API documentation and permissions pages", async () => {
      const docs = await (await fetch(service.url("/docs"))).text();
      expect(docs).toContain(VALIDATE);
      const permissions = await fetch(service.url("/docs/permissions"));
      expect(permissions.status).toBe(200);
      const html = await permissions.text();
      expect(html).toContain('id="anonymous"');
      expect(html).toContain('id="api-key"');
    });

    it("answers liveness and readiness without rate limiting", async () => {
      const health = await fetch(service.url("/healthz"));
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: "ok" });
      const ready = await fetch(service.url("/readyz"));
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ready" });
      expect(ready.headers.get("ratelimit-limit")).toBeNull();
    });
  });

  describe("routing, methods and CORS", () => {
    it("answers unknown paths with 404 ERR_NOT_FOUND", async () => {
      await expectProblem(await fetch(service.url("/nope")), 404, "ERR_NOT_FOUND");
      await expectProblem(await fetch(service.url("/api/oscal/v1/validate/")), 404, "ERR_NOT_FOUND");
    });

    it.each(["GET", "PUT", "DELETE", "PATCH"])("answers %s on the validate path with 405 and Allow", async (method) => {
      const response = await fetch(service.url(VALIDATE), { method });
      expect(response.headers.get("allow")).toBe("POST, OPTIONS");
      await expectProblem(response, 405, "ERR_METHOD_NOT_ALLOWED");
    });

    it("answers HEAD like GET without a body, keeping the connection usable", async () => {
      const index = await fetch(service.url("/api/oscal/v1"));
      const indexLength = Buffer.byteLength(await index.text());
      const socket = await openSocket(service.port);
      try {
        let received = "";
        socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
        socket.write("HEAD /api/oscal/v1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
        // The whole head, and nothing after it: a HEAD answer has no body to wait for.
        await vi.waitFor(() => expect(received).toContain("\r\n\r\n"), { timeout: 60_000, interval: 20 });
        expect(received).toMatch(/^HTTP\/1\.1 200 /);
        expect(received.endsWith("\r\n\r\n")).toBe(true);
        expect(received.toLowerCase()).toContain(`content-length: ${indexLength}\r\n`);
        socket.removeAllListeners("data");
        const next = readResponse(socket);
        socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
        expect((await next).status).toBe(200);
      } finally {
        socket.destroy();
      }
    });

    it("answers a CORS preflight on the validate path", async () => {
      const response = await fetch(service.url(VALIDATE), {
        method: "OPTIONS",
        headers: { Origin: "https://tool.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, content-encoding" },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
      expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toBe("authorization, content-type, content-encoding");
      expect(Number(response.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    });

    it("exposes the rate-limit and Retry-After headers to browsers, on errors too", async () => {
      const response = await validate(VALID_CATALOG, "", { "Content-Type": "text/plain" });
      const exposed = response.headers.get("access-control-expose-headers")!.split(/,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"]));
      await expectProblem(response, 415, "ERR_UNSUPPORTED_MEDIA_TYPE");
    });
  });

  describe("validation (behaviour rules of 4.1)", () => {
    it("returns 200 with a valid report and rate-limit headers", async () => {
      const response = await validate(VALID_CATALOG);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      for (const header of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) expect(response.headers.get(header)).toMatch(/^\d+$/);
      const report = (await response.json()) as Record<string, any>;
      conforms("ValidationReport", report);
      expect(report).toMatchObject({ valid: true, model: "catalog", oscalVersion: "1.2.2", level: "schema", complete: true, issues: [], issueCount: 0, truncated: false });
      expect(report.meta.semanticRules).toBeUndefined();
    });

    it("returns 200 with valid=false for an invalid document", async () => {
      const response = await validate(SCHEMA_INVALID_CATALOG);
      expect(response.status).toBe(200);
      const report = (await response.json()) as Record<string, any>;
      conforms("ValidationReport", report);
      expect(report.valid).toBe(false);
      expect(report.issues[0]).toMatchObject({ severity: "error", path: expect.any(String), ruleId: expect.stringMatching(/^nist-schema:/) });
    });

    it("runs the semantic layer on level=full when the schema layer passes, and reports the rule set", async () => {
      const report = (await (await validate(VALID_CATALOG, "?level=full")).json()) as Record<string, any>;
      conforms("ValidationReport", report);
      expect(report.level).toBe("full");
      expect(report.meta.semanticRules).toEqual({ count: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    });

    it("does not run the semantic layer when level=full is rejected at the schema layer", async () => {
      const report = (await (await validate(SCHEMA_INVALID_CATALOG, "?level=full")).json()) as Record<string, any>;
      expect(report).toMatchObject({ valid: false, level: "full" });
      expect(report.meta.semanticRules).toBeUndefined();
    });

    it("runs a rule pack's rule enabled by id, and says a rule that needs another document was not evaluated", async () => {
      const full = (await (await validate(FEDRAMP_FLAGGED_SSP, "?level=full")).json()) as Record<string, any>;
      expect(full.issues.filter((issue: { ruleId: string }) => issue.ruleId.startsWith("FRR-"))).toEqual([]);
      const withRule = (await (await validate(FEDRAMP_FLAGGED_SSP, "?level=full&rules=FRR-001.a")).json()) as Record<string, any>;
      conforms("ValidationReport", withRule);
      expect(withRule.issues).toContainEqual(expect.objectContaining({ ruleId: "FRR-001.a", severity: "error", path: "/system-security-plan/metadata/parties/0/addresses/0/type" }));
      // Decided, FRR-001.a leaves the report as complete as it was: only oscal-package's rules, on by default and
      // needing the SSP's baseline (this service has no document library), are not evaluated.
      const notEvaluated = (report: Record<string, any>) => report.issues.filter((issue: { keyword: string }) => issue.keyword === "not-evaluated").map((issue: { ruleId: string }) => issue.ruleId);
      expect(withRule.complete).toBe(false);
      expect(notEvaluated(withRule)).toEqual(notEvaluated(full));
      expect(notEvaluated(full).every((id: string) => id.startsWith("PKG-"))).toBe(true);
      expect(withRule.meta.semanticRules.count).toBe(full.meta.semanticRules.count + 1);
      expect(withRule.meta.semanticRules.sha256).not.toBe(full.meta.semanticRules.sha256);
      // The service reads no other document: FRR-037.a (the imported profile is available) cannot be decided.
      const needsDocument = (await (await validate(FEDRAMP_FLAGGED_SSP, "?level=full&rules=FRR-037.a")).json()) as Record<string, any>;
      expect(needsDocument.issues).toContainEqual(expect.objectContaining({ ruleId: "FRR-037.a", keyword: "not-evaluated", severity: "warning" }));
      expect(needsDocument.complete).toBe(false);
    });

    it("runs every rule of a pack named in rules=, as if each were listed by id", async () => {
      const packIds = RULE_CATALOG.filter((rule) => rule.set === "fedramp").map((rule) => rule.id);
      const byName = (await (await validate(FEDRAMP_FLAGGED_SSP, "?level=full&rules=fedramp")).json()) as Record<string, any>;
      const byIds = (await (await validate(FEDRAMP_FLAGGED_SSP, `?level=full&rules=${packIds.join(",")}`)).json()) as Record<string, any>;
      conforms("ValidationReport", byName);
      expect(byName.issues).toContainEqual(expect.objectContaining({ ruleId: "FRR-001.a", path: "/system-security-plan/metadata/parties/0/addresses/0/type" }));
      expect(byName.meta.semanticRules).toEqual(byIds.meta.semanticRules);
      expect({ ...byName, meta: { ...byName.meta, durationMs: 0 } }).toEqual({ ...byIds, meta: { ...byIds.meta, durationMs: 0 } });
    });

    it("caps issues at 200 and reports the true total", async () => {
      const report = (await (await validate(MANY_ISSUES_CATALOG)).json()) as Record<string, any>;
      expect(report.issues).toHaveLength(200);
      expect(report.truncated).toBe(true);
      expect(report.issueCount).toBeGreaterThan(200);
    });

    it("accepts a gzip body and a charset=utf-8 parameter", async () => {
      const response = await validate(gzipSync(VALID_CATALOG), "", { "Content-Type": "application/json; charset=UTF-8", "Content-Encoding": "gzip" });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { valid: boolean }).valid).toBe(true);
    });

    it("accepts a chunked body without Content-Length", async () => {
      const socket = await openSocket(service.port);
      const answer = readResponse(socket);
      socket.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" }));
      const half = Math.floor(VALID_CATALOG.length / 2);
      for (const part of [VALID_CATALOG.slice(0, half), VALID_CATALOG.slice(half)]) socket.write(`${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`);
      socket.write("0\r\n\r\n");
      const response = await answer;
      socket.destroy();
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body).valid).toBe(true);
    });
  });

  describe("query parameters", () => {
    it.each([
      ["?level=deep", "level"],
      ["?oscal-version=1.1.2", "1.2.2"],
      ["?rules=CAT-001.a", "level=full"],
      ["?level=full&rules=NO-SUCH-999.z", "NO-SUCH-999.z"],
      ["?level=full&rules=FRR-999.a", "FRR-999.a"],
      ["?level=full&rules=fedramp-high", "fedramp-high"],
      ["?rules=fedramp", "level=full"],
      ["?levle=full", "levle"],
      ["?level=full&level=schema", "more than once"],
    ])("rejects %s with 400 ERR_UNSUPPORTED_PARAMETER", async (query, mention) => {
      const problem = await expectProblem(await validate(VALID_CATALOG, query), 400, "ERR_UNSUPPORTED_PARAMETER");
      expect(problem.detail).toContain(mention);
    });

    it("accepts oscal-version=1.2.2", async () => {
      expect((await validate(VALID_CATALOG, "?oscal-version=1.2.2&level=schema")).status).toBe(200);
    });
  });

  describe("media type and encoding", () => {
    it.each([
      [{}, "missing"],
      [{ "Content-Type": "text/plain" }, "text/plain"],
      [{ "Content-Type": "application/xml" }, "application/xml"],
      [{ "Content-Type": "application/json; charset=iso-8859-1" }, "iso-8859-1"],
      [{ "Content-Type": "application/json", "Content-Encoding": "br" }, "br"],
      [{ "Content-Type": "application/json", "Content-Encoding": "deflate" }, "deflate"],
    ])("rejects %j with 415 ERR_UNSUPPORTED_MEDIA_TYPE", async (headers, mention) => {
      // A Buffer body, so fetch adds no Content-Type of its own.
      const problem = await expectProblem(await validate(Buffer.from(VALID_CATALOG), "", headers as Record<string, string>), 415, "ERR_UNSUPPORTED_MEDIA_TYPE");
      expect(problem.detail).toContain(mention);
    });

    it("rejects a body that is not gzip with 400 ERR_INVALID_CONTENT_ENCODING", async () => {
      await expectProblem(await validate(VALID_CATALOG, "", { ...JSON_HEADERS, "Content-Encoding": "gzip" }), 400, "ERR_INVALID_CONTENT_ENCODING");
    });

    it("rejects a truncated gzip body with 400 ERR_INVALID_CONTENT_ENCODING", async () => {
      const gzipped = gzipSync(MANY_ISSUES_CATALOG);
      await expectProblem(await validate(gzipped.subarray(0, gzipped.length - 12), "", { ...JSON_HEADERS, "Content-Encoding": "gzip" }), 400, "ERR_INVALID_CONTENT_ENCODING");
    });

    it("rejects an empty gzip body with 400 ERR_INVALID_CONTENT_ENCODING", async () => {
      await expectProblem(await validate("", "", { ...JSON_HEADERS, "Content-Encoding": "gzip" }), 400, "ERR_INVALID_CONTENT_ENCODING");
    });
  });

  describe("body errors and hostile input", () => {
    it("reports malformed JSON with line and column and without quoting the body", async () => {
      const problem = await expectProblem(await validate('{\n  "catalog": {\n    "uuid": SECRET_TOKEN\n  }\n}'), 400, "ERR_INVALID_JSON");
      expect(problem.detail).toMatch(/line 3, column \d+/);
      expect(problem.detail).not.toContain("SECRET_TOKEN");
    });

    it("answers an empty body with 400 ERR_INVALID_JSON", async () => {
      await expectProblem(await validate(""), 400, "ERR_INVALID_JSON");
    });

    it("answers invalid UTF-8 with 400 ERR_INVALID_UTF8", async () => {
      const bytes = Buffer.concat([Buffer.from('{"catalog":{"uuid":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
      const problem = await expectProblem(await validate(bytes), 400, "ERR_INVALID_UTF8");
      expect(problem.detail).toContain("byte offset 20");
    });

    it.each([
      ['{"not-oscal":{}}', "unknown root"],
      ['{"catalog":{},"profile":{}}', "two roots"],
      ["[1,2,3]", "an array"],
      ['{"__proto__":{"catalog":{}}}', "a __proto__ root"],
    ])("answers %s (%s) with 400 ERR_UNKNOWN_MODEL", async (body) => {
      await expectProblem(await validate(body), 400, "ERR_UNKNOWN_MODEL");
    });

    it("accepts a byte-order mark", async () => {
      const response = await validate(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(VALID_CATALOG)]));
      expect(response.status).toBe(200);
    });

    it("survives __proto__ and constructor keys inside a document", async () => {
      const response = await validate(JSON.stringify(catalog({ __proto__: { polluted: true }, constructor: { prototype: {} } })).replace('"catalog":{', '"catalog":{"__proto__":{"x":1},'));
      expect(response.status).toBe(200);
      expect(((await response.json()) as { valid: boolean }).valid).toBe(false);
      expect((await fetch(service.url("/healthz"))).status).toBe(200);
    });

    it("survives 100k nested arrays, both as the root and inside a model", async () => {
      const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
      await expectProblem(await validate(deep), 413, "ERR_PAYLOAD_TOO_LARGE");
      await expectProblem(await validate(`{"catalog":{"metadata":${deep}}}`), 413, "ERR_PAYLOAD_TOO_LARGE");
      const unterminated = await validate(`{"catalog":${"[".repeat(100_000)}`);
      await expectProblem(unterminated, 400, "ERR_INVALID_JSON");
      expect((await validate(VALID_CATALOG)).status).toBe(200);
    });

    it("answers groups nested 20,000 deep with 413 and a next step about nesting, not size", async () => {
      const response = await validate(deeplyNestedCatalog(20_000));
      const problem = await expectProblem(response, 413, "ERR_PAYLOAD_TOO_LARGE");
      expect(problem.detail).toContain("nests too deeply");
      expect(problem.resolution).toContain("nest at most");
      expect((await validate(VALID_CATALOG)).status).toBe(200);
    });
  });

  describe("body limits", () => {
    it("refuses a Content-Length over 4 MiB with 413 before reading the body", async () => {
      const socket = await openSocket(service.port);
      const answer = readResponse(socket);
      socket.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Length": 4 * MIB + 1 }));
      socket.write("{");
      const response = await answer;
      socket.destroy();
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toMatchObject({ code: "ERR_PAYLOAD_TOO_LARGE" });
    });

    it("stops reading a chunked body as soon as it passes 4 MiB", async () => {
      const socket = await openSocket(service.port);
      const answer = readResponse(socket);
      socket.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" }));
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      let sent = 0;
      let response: Awaited<typeof answer> | undefined;
      void answer.then((r) => (response = r), () => undefined);
      // Keeps sending (up to 64 MiB) until the answer arrives: it must come soon after 4 MiB.
      while (response === undefined && sent < 64 * MIB && !socket.destroyed) {
        await writeQuietly(socket, Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]));
        sent += chunk.length;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const final = await answer;
      socket.destroy();
      expect(final.status).toBe(413);
      expect(sent).toBeLessThan(16 * MIB);
    });

    it("refuses a body over 24 MiB once decompressed with 413", async () => {
      const big = gzipSync(Buffer.alloc(24 * MIB + 1, 0x20));
      await expectProblem(await validate(big, "", { ...JSON_HEADERS, "Content-Encoding": "gzip" }), 413, "ERR_PAYLOAD_TOO_LARGE");
    });

    it("refuses a 1 GiB gzip bomb without inflating it", async () => {
      // 100 gzip members of 10 MiB of zeros each: about 1 MiB on the wire, 1000 MiB decompressed. Inflating stops at the
      // 24 MiB limit: the answer is 413, not a validation of a gigabyte (nor a worker over its heap).
      const member = gzipSync(Buffer.alloc(10 * MIB), { level: 9 });
      const bomb = Buffer.concat(Array.from({ length: 100 }, () => member));
      const socket = await openSocket(service.port);
      const answer = readResponse(socket);
      socket.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Encoding": "gzip", "Content-Length": bomb.length }));
      await writeQuietly(socket, bomb);
      const response = await answer;
      socket.destroy();
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toMatchObject({ code: "ERR_PAYLOAD_TOO_LARGE", detail: expect.stringContaining("decompressed") });
      expect((await fetch(service.url("/healthz"))).status).toBe(200);
    });
  });

  describe("slow and vanishing clients", () => {
    it("serves other requests while a client sends slowly, then answers it", async () => {
      const socket = await openSocket(service.port);
      const answer = readResponse(socket);
      socket.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(VALID_CATALOG) }));
      const third = Math.ceil(VALID_CATALOG.length / 3);
      for (let i = 0; i < 3; i++) {
        socket.write(VALID_CATALOG.slice(i * third, (i + 1) * third));
        expect((await validate(VALID_CATALOG)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const response = await answer;
      socket.destroy();
      expect(response.status).toBe(200);
    });

    it("stays healthy when clients stop halfway through a body", async () => {
      for (let i = 0; i < 20; i++) {
        const socket = await openSocket(service.port);
        socket.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Length": 100_000 }));
        socket.write(VALID_CATALOG.slice(0, 50));
        socket.destroy();
      }
      const gzipped = gzipSync(MANY_ISSUES_CATALOG);
      const socket = await openSocket(service.port);
      socket.write(requestHead(VALIDATE, { "Content-Type": "application/json", "Content-Encoding": "gzip", "Content-Length": gzipped.length }));
      socket.write(gzipped.subarray(0, gzipped.length >> 1));
      socket.destroy();
      expect((await validate(VALID_CATALOG)).status).toBe(200);
      expect((await fetch(service.url("/healthz"))).status).toBe(200);
    });
  });

  describe("authentication errors", () => {
    it.each([
      ["Basic dXNlcjpwYXNz", "wrong scheme"],
      ["Bearer", "no token"],
      ["Bearer not_a_key", "missing prefix"],
      [`Bearer sk_oscal_0123456789abcdef_${"A".repeat(43)}`, "unknown key"],
    ])("answers Authorization %j (%s) with 401 ERR_INVALID_API_KEY, never anonymously", async (authorization) => {
      const response = await validate(VALID_CATALOG, "", { ...JSON_HEADERS, Authorization: authorization });
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect(response.headers.get("ratelimit-limit")).toBeNull();
      await expectProblem(response, 401, "ERR_INVALID_API_KEY");
    });

    it("checks the key before the parameters, media type and body", async () => {
      const response = await validate("not json", "?level=deep", { "Content-Type": "text/plain", Authorization: "Bearer nope" });
      await expectProblem(response, 401, "ERR_INVALID_API_KEY");
    });
  });
});
