// The embedded key store: one JSON file shared by `oscal-keys` and the service. Writes are atomic (temporary file, then
// rename), and a reader re-checks the file's identity at most once per `recheckMs`, so a key revoked by the CLI is
// refused by a running service within about a second, without a restart.
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { randomBytes } from "node:crypto";
import { AccessServiceUnavailable, type ApiKeyRecord, type KeyStore } from "./contracts.js";

interface KeyFile {
  keys: ApiKeyRecord[];
}

export class FileKeyStore implements KeyStore {
  private records = new Map<string, ApiKeyRecord>();
  private stamp = "";
  private checkedAtMs = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;

  constructor(
    readonly path: string,
    private readonly recheckMs = 1000,
  ) {}

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    if (performance.now() - this.checkedAtMs >= this.recheckMs) await this.refresh();
    return this.records.get(id);
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.readFresh()).keys;
  }

  async add(record: ApiKeyRecord): Promise<void> {
    const file = await this.readFresh();
    if (file.keys.some((existing) => existing.id === record.id)) throw new Error(`A key with id ${record.id} already exists.`);
    file.keys.push(record);
    await this.write(file);
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const file = await this.readFresh();
    const record = file.keys.find((existing) => existing.id === id);
    if (record === undefined) return false;
    record.revokedAt ??= at;
    await this.write(file);
    return true;
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
      stamp = "absent";
    }
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
      const parsed = JSON.parse(text) as KeyFile;
      if (!Array.isArray(parsed.keys)) throw new Error('no "keys" array');
      return parsed;
    } catch (error) {
      throw new AccessServiceUnavailable(`The key file ${this.path} is not a valid key store: ${(error as Error).message}`);
    }
  }

  private async write(file: KeyFile): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    await rename(temporary, this.path);
  }
}
