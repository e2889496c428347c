// API keys end to end (created, listed and revoked with the real oscal-keys CLI against the service's key file) and
// rate limits with their headers, on every transport.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_HEADERS, VALIDATE, VALID_CATALOG, post } from "./support/documents.js";
import { awayFromMinuteEdge } from "./support/clock.js";
import { oscalKeys } from "./support/keys-cli.js";
import { startService, TRANSPORTS, type TestService } from "./support/service.js";

describe.each(TRANSPORTS)("keys and rate limits over %s", (transport) => {
  let service: TestService;
  let keysFile: string;

  beforeAll(async () => {
    keysFile = join(mkdtempSync(join(tmpdir(), "oscal-keys-")), "keys.json");
    service = await startService(transport, {
      KEYS_FILE: keysFile,
      TRUST_PROXY: "true",
      ANON_RATE_PER_MINUTE: "3",
      ANON_RATE_PER_DAY: "1000",
      KEY_RATE_PER_MINUTE: "5",
      KEY_RATE_PER_DAY: "4",
    });
  });
  afterAll(async () => {
    expect(await service.stop()).toBe(0);
  });

  const validate = (headers: Record<string, string>) => post(service.url(VALIDATE), VALID_CATALOG, { ...JSON_HEADERS, ...headers });

  it("counts anonymous clients separately and answers 429 with Retry-After once a limit is used up", async () => {
    await awayFromMinuteEdge();
    const client = { "X-Forwarded-For": "198.51.100.7, 203.0.113.9" };
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await validate(client);
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("3");
      expect(Number(response.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
      expect(Number(response.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60);
      expect(response.headers.get("ratelimit-policy")).toBe("3;w=60, 1000;w=86400");
      remaining.push(response.headers.get("ratelimit-remaining")!);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await validate(client);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(((await refused.json()) as { code: string }).code).toBe("ERR_RATE_LIMITED");
    // The right-most X-Forwarded-For entry (added by the one trusted proxy) is the client; the left-most is not trusted.
    expect((await validate({ "X-Forwarded-For": "198.51.100.7, 203.0.113.10" })).status).toBe(200);
    expect((await validate({ "X-Forwarded-For": "192.0.2.1, 203.0.113.9" })).status).toBe(429);
  });

  it("creates, uses, lists and revokes a key with oscal-keys", async () => {
    const created = await oscalKeys({ KEYS_FILE: keysFile }, "create", "--label", "ci pipeline");
    const lines = created.stdout.split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    const key = lines[0]!;
    expect(key).toMatch(/^sk_oscal_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toContain("shown once");

    // The service picks up the new key from the file without a restart, within a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const accepted = await validate({ Authorization: `Bearer ${key}` });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get("ratelimit-limit")).toBe("4");
    expect(accepted.headers.get("ratelimit-policy")).toBe("5;w=60, 4;w=86400");

    const listed = await oscalKeys({ KEYS_FILE: keysFile }, "list");
    const id = key.slice("sk_oscal_".length, "sk_oscal_".length + 16);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain("ci pipeline");
    expect(listed.stdout).not.toContain(key.slice(26));

    const tampered = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    expect((await validate({ Authorization: `Bearer ${tampered}` })).status).toBe(401);

    await oscalKeys({ KEYS_FILE: keysFile }, "revoke", id);
    expect((await oscalKeys({ KEYS_FILE: keysFile }, "list")).stdout).toMatch(new RegExp(`${id}\\tci pipeline\\t\\S+\\t\\d{4}-`));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refused = await validate({ Authorization: `Bearer ${key}` });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe("ERR_INVALID_API_KEY");
  });

  it("enforces the per-key limits, independent of the client address", async () => {
    const { stdout } = await oscalKeys({ KEYS_FILE: keysFile }, "create");
    const key = stdout.trim();
    // The service re-checks the key file at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await validate({ Authorization: `Bearer ${key}`, "X-Forwarded-For": `192.0.2.${i}` })).status);
    const refused = await validate({ Authorization: `Bearer ${key}`, "X-Forwarded-For": "192.0.2.4" });
    expect([...statuses, refused.status]).toEqual([200, 200, 200, 200, 429]);
    // The caller already has a key: the next step is to wait, not to get one.
    expect(((await refused.json()) as { resolution: string }).resolution).not.toContain("API key");
  });

  it("answers 503 ERR_KEY_SERVICE_UNAVAILABLE with Retry-After when keys cannot be verified, and keeps anonymous access", async () => {
    const { stdout } = await oscalKeys({ KEYS_FILE: keysFile }, "create");
    writeFileSync(keysFile, "{ this is not a key store");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refused = await validate({ Authorization: `Bearer ${stdout.trim()}` });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { code: string }).code).toBe("ERR_KEY_SERVICE_UNAVAILABLE");
    expect((await validate({ "X-Forwarded-For": "192.0.2.200" })).status).toBe(200);
  });

  it("rejects wrong oscal-keys usage", async () => {
    await expect(oscalKeys({ KEYS_FILE: keysFile }, "revoke", "not-an-id")).rejects.toMatchObject({ code: 2 });
    await expect(oscalKeys({ KEYS_FILE: keysFile }, "frobnicate")).rejects.toMatchObject({ code: 2 });
  });
});
