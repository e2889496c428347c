import { mkdtempSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../runtime/access/api-keys.js";
import { AccessServiceUnavailable } from "../../runtime/access/contracts.js";
import { FileKeyStore } from "../../runtime/access/file-key-store.js";

const tempFile = (): string => join(mkdtempSync(join(tmpdir(), "key-store-")), "nested", "keys.json");

describe("FileKeyStore", () => {
  it("starts empty when the file does not exist, and creates it (private) on the first key", async () => {
    const path = tempFile();
    const store = new FileKeyStore(path);
    expect(await store.list()).toEqual([]);
    const { record } = createApiKey("first");
    await store.add(record);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ keys: [record] });
    expect(readdirSync(join(path, ".."))).toEqual(["keys.json"]);
  });

  it("sees keys added and revoked by another process's store after the recheck interval", async () => {
    const path = tempFile();
    const service = new FileKeyStore(path, 50);
    const cli = new FileKeyStore(path);
    const { record } = createApiKey("shared");
    expect(await service.get(record.id)).toBeUndefined();
    await cli.add(record);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await service.get(record.id)).toEqual(record);
    expect(await cli.revoke(record.id, "2025-01-01T00:00:00.000Z")).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await service.get(record.id))?.revokedAt).toBe("2025-01-01T00:00:00.000Z");
    expect(await cli.revoke("0000000000000000", "2025-01-01T00:00:00.000Z")).toBe(false);
  });

  it("loses no key when several writers (one store each, as separate oscal-keys runs) add and revoke at once", async () => {
    const path = tempFile();
    const created = Array.from({ length: 12 }, (_, i) => createApiKey(`writer ${i}`).record);
    await Promise.all(created.map((record) => new FileKeyStore(path).add(record)));
    expect((await new FileKeyStore(path).list()).map((record) => record.id).sort()).toEqual(created.map((record) => record.id).sort());

    const at = "2026-03-01T00:00:00.000Z";
    await Promise.all(created.map((record) => new FileKeyStore(path).revoke(record.id, at)));
    const revoked = (await new FileKeyStore(path).list()).filter((record) => record.revokedAt === at).map((record) => record.id);
    expect(revoked.sort()).toEqual(created.map((record) => record.id).sort());
    expect(readdirSync(join(path, ".."))).toEqual(["keys.json"]);
  });

  it("waits for a held write lock, and names the lock file when its holder never lets go", async () => {
    const path = tempFile();
    await new FileKeyStore(path).add(createApiKey("before").record);
    writeFileSync(`${path}.lock`, "");
    const stuck = new FileKeyStore(path, 1000, 200).add(createApiKey("stuck").record);
    await expect(stuck).rejects.toBeInstanceOf(AccessServiceUnavailable);
    await expect(stuck).rejects.toThrow(`${path}.lock`);

    const waiting = new FileKeyStore(path, 1000, 5000).add(createApiKey("after").record);
    setTimeout(() => unlinkSync(`${path}.lock`), 100);
    await waiting;
    expect((await new FileKeyStore(path).list()).map((record) => record.label)).toEqual(["before", "after"]);
  });

  it("keeps the first revocation time and refuses duplicate ids", async () => {
    const store = new FileKeyStore(tempFile());
    const { record } = createApiKey("");
    await store.add(record);
    await expect(store.add(record)).rejects.toThrow(/already exists/);
    await store.revoke(record.id, "2025-01-01T00:00:00.000Z");
    await store.revoke(record.id, "2026-01-01T00:00:00.000Z");
    expect((await store.list())[0]!.revokedAt).toBe("2025-01-01T00:00:00.000Z");
  });

  it("reports a corrupt file as unavailable rather than as an empty store", async () => {
    const path = tempFile();
    const store = new FileKeyStore(path, 0);
    await store.add(createApiKey("").record);
    writeFileSync(path, "{ not json");
    await expect(store.get("0123456789abcdef")).rejects.toBeInstanceOf(AccessServiceUnavailable);
  });

  it.each([
    ["a null record", { keys: [null] }],
    ["a record whose sha256 is null", { keys: [{ id: "0123456789abcdef", sha256: null, label: "", createdAt: "2026-01-01T00:00:00.000Z" }] }],
    ["a record whose sha256 is a number", { keys: [{ id: "0123456789abcdef", sha256: 1, label: "", createdAt: "2026-01-01T00:00:00.000Z" }] }],
    ["a record without sha256", { keys: [{ id: "0123456789abcdef", label: "", createdAt: "2026-01-01T00:00:00.000Z" }] }],
    ["a record whose revokedAt is a number", { keys: [{ id: "0123456789abcdef", sha256: "a".repeat(64), label: "", createdAt: "x", revokedAt: 5 }] }],
  ])("reports a file with %s as unavailable, for every key", async (_, content) => {
    const path = tempFile();
    const store = new FileKeyStore(path, 0);
    const { record } = createApiKey("good");
    await store.add(record);
    const good = JSON.parse(readFileSync(path, "utf8")) as { keys: unknown[] };
    writeFileSync(path, JSON.stringify({ keys: [...good.keys, ...content.keys] }));
    await expect(store.get(record.id)).rejects.toBeInstanceOf(AccessServiceUnavailable);
    await expect(store.get("0123456789abcdef")).rejects.toBeInstanceOf(AccessServiceUnavailable);
  });

  it("is an empty store while the file has never existed, and unavailable once a file it has seen disappears", async () => {
    const path = tempFile();
    const store = new FileKeyStore(path, 0);
    expect(await store.get("0123456789abcdef")).toBeUndefined();
    const { record } = createApiKey("kept");
    await new FileKeyStore(path).add(record);
    expect(await store.get(record.id)).toEqual(record);
    unlinkSync(path);
    await expect(store.get(record.id)).rejects.toBeInstanceOf(AccessServiceUnavailable);
    writeFileSync(path, JSON.stringify({ keys: [record] }));
    expect(await store.get(record.id)).toEqual(record);
  });
});
