// The hardening settings: their defaults, how they derive from one another, and refusal of values that make no sense.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../runtime/http/config.js";
import { ConfigError } from "../../runtime/settings-reader.js";

describe("hardening settings", () => {
  it("defaults to the documented values", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      maxInflightBodyBytes: 256 * 1024 * 1024,
      maxClientInflightBytes: 32 * 1024 * 1024,
      minBodyBytesPerSecond: 8192,
      bodyRateWindowMs: 5000,
      validationTimeoutMs: 15_000,
      workerHeapMb: 1024,
      smallBodyBytes: 256 * 1024,
      smallLaneWorkers: 1,
      responseStallMs: 10_000,
    });
  });

  it("derives the connection cap from the open-file limit, keeping 256 descriptors", () => {
    const limit = Number(/^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"))![1]);
    expect(loadConfig({}).maxConnections).toBe(Math.max(64, limit - 256));
    expect(loadConfig({ MAX_CONNECTIONS: "100" }).maxConnections).toBe(100);
  });

  it("gives each client an eighth of a lowered budget unless told otherwise", () => {
    expect(loadConfig({ MAX_INFLIGHT_BODY_BYTES: "8000" }).maxClientInflightBytes).toBe(1000);
    expect(loadConfig({ MAX_INFLIGHT_BODY_BYTES: "8000", MAX_CLIENT_INFLIGHT_BYTES: "8000" }).maxClientInflightBytes).toBe(8000);
  });

  it("refuses a client share larger than the budget and a heap too small to load the validators, naming both", () => {
    expect(() => loadConfig({ MAX_INFLIGHT_BODY_BYTES: "8000", MAX_CLIENT_INFLIGHT_BYTES: "9000", WORKER_HEAP_MB: "8" })).toThrow(ConfigError);
    expect(() => loadConfig({ MAX_INFLIGHT_BODY_BYTES: "8000", MAX_CLIENT_INFLIGHT_BYTES: "9000", WORKER_HEAP_MB: "8" })).toThrow(/MAX_CLIENT_INFLIGHT_BYTES[\s\S]*WORKER_HEAP_MB/);
  });

  it("reads the document library once at start-up, within its limits, and names every problem of one out of them", () => {
    expect(loadConfig({}).documentLibrary).toBeUndefined();
    const dir = mkdtempSync(path.join(tmpdir(), "oscal-config-library-"));
    mkdirSync(path.join(dir, "nist"));
    writeFileSync(path.join(dir, "nist/catalog.json"), JSON.stringify({ catalog: {} }));
    writeFileSync(path.join(dir, "index.json"), JSON.stringify({ documents: { "https://example.test/catalog.json": "nist/catalog.json" } }));
    const real = realpathSync(dir);
    expect(loadConfig({ DOCUMENT_LIBRARY: dir }).documentLibrary).toEqual({
      dir: real,
      index: { "https://example.test/catalog.json": path.join(real, "nist/catalog.json") },
      maxFileBytes: 64 * 1024 * 1024,
    });
    expect(() => loadConfig({ DOCUMENT_LIBRARY: dir, DOCUMENT_LIBRARY_MAX_DOCUMENTS: "1", DOCUMENT_LIBRARY_MAX_FILE_BYTES: "10" })).toThrow(
      /DOCUMENT_LIBRARY: the document library .* holds more than 1 files\n {2}DOCUMENT_LIBRARY: index\.json of the document library .*: expected a file of at most 10 bytes/,
    );
  });
});
