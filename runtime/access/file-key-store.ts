// The embedded key store: one JSON file shared by `oscal-keys` and the service. Writes are atomic (temporary file, then
// rename), and a reader re-checks the file's identity at most once per `recheckMs`, so a key revoked by the CLI is
// refused by a running service within about a second, without a restart. Writers (several `oscal-keys` runs at once)
// take turns through a lock file, so that none of them overwrites a key another has just added. A lock left by a
// writer that died is not taken over automatically (two writers doing so at once could both get in); the error names
// the file to delete, as git does with index.lock.
//
// A file with any malformed record, or a file that disappears after it has been seen, makes `get` throw
// AccessServiceUnavailable (503 for keyed requests) rather than refuse every key as unknown. A file that has never
// existed is an empty store: the service starts before the first `oscal-keys create`, whether or not KEYS_FILE is set.
import { mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { randomBytes } from "node:crypto";
import { parseKeyRecord } from "./api-keys.js";
import { AccessServiceUnavailable, type ApiKeyRecord, type KeyStore } from "./contracts.js";

interface KeyFile {
  keys: ApiKeyRecord[];
}

const LOCK_RETRY_MS = 10;

export class FileKeyStore implements KeyStore {
  private records = new Map<string, ApiKeyRecord>();
  private stamp = "";
  private checkedAtMs = Number.NEGATIVE_INFINITY;
  /** True once the file has existed: from then on its absence is an outage, not an empty store. */
  private seen = false;
  private refreshing: Promise<void> | undefined;

  constructor(
    readonly path: string,
    private readonly recheckMs = 1000,
    /** A write takes milliseconds; waiting this long means the lock holder is stuck or gone. */
    private readonly lockWaitMs = 10_000,
  ) {}

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    if (performance.now() - this.checkedAtMs >= this.recheckMs) await this.refresh();
    return this.records.get(id);
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.readFresh()).keys;
  }

  add(record: ApiKeyRecord): Promise<void> {
    return this.update((file) => {
      if (file.keys.some((existing) => existing.id === record.id)) throw new Error(`A key with id ${record.id} already exists.`);
      file.keys.push(record);
      return undefined;
    });
  }

  revoke(id: string, at: string): Promise<boolean> {
    return this.update((file) => {
      const record = file.keys.find((existing) => existing.id === id);
      if (record !== undefined) record.revokedAt ??= at;
      return record !== undefined;
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Coalesces concurrent checks: one stat (and at most one read) per recheck interval. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.reloadIfChanged().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async reloadIfChanged(): Promise<void> {
    let stamp: string;
    try {
      const info = await stat(this.path);
      stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new AccessServiceUnavailable(`Cannot read the key file: ${(error as Error).message}`);
      if (this.seen) throw new AccessServiceUnavailable("The key file has disappeared.");
      stamp = "absent";
    }
    if (stamp !== "absent") this.seen = true;
    if (stamp !== this.stamp) {
      const file = await this.readFresh();
      this.records = new Map(file.keys.map((record) => [record.id, record]));
      this.stamp = stamp;
    }
    this.checkedAtMs = performance.now();
  }

  private async readFresh(): Promise<KeyFile> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { keys: [] };
      throw new AccessServiceUnavailable(`Cannot read the key file: ${(error as Error).message}`);
    }
    try {
      const parsed = JSON.parse(text) as { keys?: unknown };
      if (!Array.isArray(parsed.keys)) throw new Error('no "keys" array');
      const keys = parsed.keys.map(parseKeyRecord);
      const malformed = keys.indexOf(undefined);
      if (malformed >= 0) throw new Error(`record ${malformed} is not a complete key record`);
      return { keys: keys as ApiKeyRecord[] };
    } catch (error) {
      throw new AccessServiceUnavailable(`The key file ${this.path} is not a valid key store: ${(error as Error).message}`);
    }
  }

  /** Reads, changes and writes the file under the write lock; `change` returns false when there is nothing to write. */
  private async update<T>(change: (file: KeyFile) => T): Promise<T> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const release = await this.lock();
    try {
      const file = await this.readFresh();
      const result = change(file);
      if (result !== false) await this.write(file);
      return result;
    } finally {
      await release();
    }
  }

  private async lock(): Promise<() => Promise<void>> {
    const lockPath = `${this.path}.lock`;
    const deadline = Date.now() + this.lockWaitMs;
    for (;;) {
      try {
        await writeFile(lockPath, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
        return () => unlink(lockPath).catch(() => undefined);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new AccessServiceUnavailable(`Cannot lock the key file: ${(error as Error).message}`);
      }
      if (Date.now() > deadline) {
        throw new AccessServiceUnavailable(`The key file is locked by another writer: ${lockPath}. If no oscal-keys is running, a writer died holding it; delete that file.`);
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }

  private async write(file: KeyFile): Promise<void> {
    const temporary = `${this.path}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    await rename(temporary, this.path);
  }
}
