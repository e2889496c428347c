// Hostile framing and authorization headers, on both transports alike: a body that could be delimited two ways is
// refused before it is read, and an Authorization header that is empty, repeated or hidden past the header-field limit
// is never served as anonymous.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VALIDATE, VALID_CATALOG } from "../http/support/documents.js";
import { exchangeRaw } from "../http/support/raw-http.js";
import { startService, TRANSPORTS, type TestService } from "../http/support/service.js";

/** How long an answer may take: minutes, so that only an answer that never comes fails. */
const ANSWER_WAIT_MS = 300_000;
/** How long a test expecting no answer waits for one: a busy machine can only make such a test pass, never fail. */
const SILENCE_WAIT_MS = 2_000;
const INVALID_KEY = `Bearer sk_oscal_0123456789abcdef_${"A".repeat(43)}`;

function post(headers: string[], body = VALID_CATALOG): string {
  return `POST ${VALIDATE} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${headers.map((line) => `${line}\r\n`).join("")}\r\n${body}`;
}

describe.each(TRANSPORTS)("framing and authorization attacks over %s", (transport) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startService(transport, { ANON_RATE_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    expect(await service.stop()).toBe(0);
  });

  /** The response, or undefined when the connection closes without one or none comes within `waitMs`. */
  async function answered(raw: string, waitMs = ANSWER_WAIT_MS): Promise<{ status: number; code?: string; connection?: string } | undefined> {
    const response = await exchangeRaw(service.port, raw, waitMs);
    if (response === undefined) return undefined;
    const code = response.status === 200 ? undefined : (JSON.parse(response.body) as { code: string }).code;
    return { status: response.status, code, connection: response.headers.connection };
  }

  async function stillServes(): Promise<void> {
    expect((await fetch(service.url("/healthz"))).status).toBe(200);
  }

  it.each([
    ["two differing Content-Length headers", [`Content-Length: ${VALID_CATALOG.length}`, "Content-Length: 5"]],
    ["two equal Content-Length headers", [`Content-Length: ${VALID_CATALOG.length}`, `Content-Length: ${VALID_CATALOG.length}`]],
  ])("refuses %s with 400 and closes the connection", async (_, headers) => {
    expect(await answered(post(headers))).toMatchObject({ status: 400, code: "ERR_INVALID_CONTENT_ENCODING", connection: "close" });
    await stillServes();
  });

  it.each(["gzip, chunked", "identity", "chunked, chunked"])("refuses Transfer-Encoding: %s with 400 and closes the connection", async (coding) => {
    const chunk = `${VALID_CATALOG.length.toString(16)}\r\n${VALID_CATALOG}\r\n0\r\n\r\n`;
    expect(await answered(post([`Transfer-Encoding: ${coding}`], chunk))).toMatchObject({ status: 400, code: "ERR_INVALID_CONTENT_ENCODING", connection: "close" });
    await stillServes();
  });

  it("still accepts a plain chunked body", async () => {
    const chunk = `${VALID_CATALOG.length.toString(16)}\r\n${VALID_CATALOG}\r\n0\r\n\r\n`;
    expect(await answered(post(["Transfer-Encoding: chunked"], chunk))).toMatchObject({ status: 200 });
  });

  it.each([
    ["an empty Authorization header followed by an invalid one", ["Authorization:", `Authorization: ${INVALID_KEY}`]],
    ["an empty Authorization header alone", ["Authorization:"]],
    ["two Authorization headers", [`Authorization: ${INVALID_KEY}`, `Authorization: ${INVALID_KEY}`]],
  ])("answers %s with 401, never as anonymous", async (_, headers) => {
    expect(await answered(post([...headers, `Content-Length: ${VALID_CATALOG.length}`]))).toMatchObject({ status: 401, code: "ERR_INVALID_API_KEY" });
    await stillServes();
  });

  // node:http closes the connection; uWebSockets.js closes it or leaves it unanswered until its idle timeout.
  it.each([49, 2_100])("never answers a head whose Authorization header comes after %i more fields (past the limit of 48)", async (count) => {
    // Short fields, so that the head stays well under node:http's 16 KiB head limit.
    const padding = Array.from({ length: count }, () => "a:x");
    expect(await answered(post([...padding, `Authorization: ${INVALID_KEY}`, `Content-Length: ${VALID_CATALOG.length}`]), SILENCE_WAIT_MS)).toBeUndefined();
    await stillServes();
  });

  it("serves a head at the header-field limit", async () => {
    // Host, Content-Type, Content-Length and 45 more: 48 fields.
    const padding = Array.from({ length: 45 }, (_, i) => `X-Pad-${i}: x`);
    expect(await answered(post([...padding, `Content-Length: ${VALID_CATALOG.length}`]))).toMatchObject({ status: 200 });
  });
});

describe.each(TRANSPORTS)("repeated X-Forwarded-For lines over %s", (transport) => {
  it("reads every line as one list, so the client behind one trusted proxy is the same on both transports", async () => {
    const service = await startService(transport, { TRUST_PROXY: "true", ANON_RATE_PER_MINUTE: "1" });
    try {
      const send = async (lines: string[]): Promise<number | undefined> =>
        (await exchangeRaw(service.port, post([...lines.map((line) => `X-Forwarded-For: ${line}`), `Content-Length: ${VALID_CATALOG.length}`]), ANSWER_WAIT_MS))?.status;
      expect(await send(["203.0.113.1", "198.51.100.9"])).toBe(200);
      // The proxy's entry is the last one of the last line: the same client again.
      expect(await send(["198.51.100.9"])).toBe(429);
      expect(await send(["203.0.113.1"])).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});
