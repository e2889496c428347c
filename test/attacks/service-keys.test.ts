// A key file the service cannot trust: a malformed record or a file that has disappeared makes keyed requests 503 with
// Retry-After (the documented outage answer), never a 500 and never a 401 for a valid key; anonymous requests go on.
import { mkdtempSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JSON_HEADERS, VALIDATE, VALID_CATALOG, post } from "../http/support/documents.js";
import { oscalKeys } from "../http/support/keys-cli.js";
import { startService, TRANSPORTS, type TestService } from "../http/support/service.js";

const SHA = "a".repeat(64);

describe.each(TRANSPORTS)("key file attacks over %s", (transport) => {
  /** A service reading a key file with one key, which it has served once before `attack` runs. */
  async function withServedKey(attack: (service: TestService, keysFile: string, key: string) => Promise<void>): Promise<void> {
    const keysFile = join(mkdtempSync(join(tmpdir(), "oscal-keys-")), "keys.json");
    const { stdout } = await oscalKeys({ KEYS_FILE: keysFile }, "create", "--label", "good");
    const key = /sk_oscal_\S+/.exec(stdout)![0];
    const service = await startService(transport, { KEYS_FILE: keysFile });
    try {
      expect((await post(service.url(VALIDATE), VALID_CATALOG, { ...JSON_HEADERS, Authorization: `Bearer ${key}` })).status).toBe(200);
      await attack(service, keysFile, key);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }

  async function expectKeyOutage(url: string, key: string): Promise<void> {
    const response = await post(url, VALID_CATALOG, { ...JSON_HEADERS, Authorization: `Bearer ${key}` });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(((await response.json()) as { code: string }).code).toBe("ERR_KEY_SERVICE_UNAVAILABLE");
  }

  it.each([
    ["a null record", null],
    ["a record whose sha256 is null", { id: "0123456789abcdef", sha256: null, label: "", createdAt: "2026-01-01T00:00:00.000Z" }],
    ["a record whose sha256 is a number", { id: "0123456789abcdef", sha256: 7, label: "", createdAt: "2026-01-01T00:00:00.000Z" }],
    ["a record without sha256", { id: "0123456789abcdef", label: "", createdAt: "2026-01-01T00:00:00.000Z" }],
  ])("answers 503 with Retry-After for a key file holding %s, and keeps serving anonymous requests", async (_, bad) => {
    await withServedKey(async (service, keysFile, key) => {
      writeFileSync(keysFile, JSON.stringify({ keys: [{ id: key.slice(9, 25), sha256: SHA, label: "", createdAt: "2026-01-01T00:00:00.000Z" }, bad] }));
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await expectKeyOutage(service.url(VALIDATE), key);
      expect((await post(service.url(VALIDATE), VALID_CATALOG)).status).toBe(200);
    });
  });

  it("answers 503 once the key file it has read is deleted, and serves the key again once the file is back", async () => {
    await withServedKey(async (service, keysFile, key) => {
      const saved = readFileSync(keysFile, "utf8");
      unlinkSync(keysFile);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await expectKeyOutage(service.url(VALIDATE), key);
      expect((await post(service.url(VALIDATE), VALID_CATALOG)).status).toBe(200);
      writeFileSync(keysFile, saved);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await post(service.url(VALIDATE), VALID_CATALOG, { ...JSON_HEADERS, Authorization: `Bearer ${key}` })).status).toBe(200);
    });
  });
});
