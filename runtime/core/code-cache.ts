// Loads the generated CommonJS validators and checks with V8's code cache, so that a cold process does not compile
// megabytes of generated code again on every run. The cache is written on the first run (at process exit, when the
// functions the run used have been compiled too) into a directory only the current user can write, and keyed by the
// SHA-256 of the source, the Node.js and V8 versions and the architecture. V8's cache bytes are not reproducible from
// run to run, so they are not a build output; a cache V8 rejects (other flags, other build) is ignored and replaced.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Script } from "node:vm";

/** OSCAL_CODE_CACHE_DIR picks the directory; OSCAL_CODE_CACHE=off loads the plain way. */
function cacheDirectory(): string | undefined {
  if (process.env.OSCAL_CODE_CACHE === "off" || typeof process.getuid !== "function") return undefined;
  const dir = process.env.OSCAL_CODE_CACHE_DIR ?? path.join(tmpdir(), `oscal-validator-code-cache-${process.getuid()}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return ownedAndPrivate(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Code cache is code: only a file or directory of our own that nobody else may write is trusted. */
function ownedAndPrivate(file: string): boolean {
  const stats = statSync(file);
  return stats.uid === process.getuid!() && (stats.mode & 0o022) === 0;
}

let directory: string | null | undefined = null; // null: not looked up yet
const pendingWrites: { script: Script; file: string }[] = [];

function writePending(): void {
  for (const { script, file } of pendingWrites) {
    try {
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
      renameSync(temporary, file);
    } catch {
      // A cache that cannot be written only costs the next process its compilation.
    }
  }
  pendingWrites.length = 0;
}

/** `require(file)` for a generated CommonJS module, compiled with the code cache when a trusted one is available. */
export function loadCompiled(file: string): unknown {
  if (directory === null) directory = cacheDirectory();
  const load = createRequire(file);
  if (directory === undefined) return load(file);
  const source = readFileSync(file, "utf8");
  const key = createHash("sha256").update(`${process.version}\0${process.versions.v8}\0${process.arch}\0`).update(source).digest("hex");
  const cacheFile = path.join(directory, `${path.basename(file)}-${key.slice(0, 32)}.v8cache`);
  let cachedData: Buffer | undefined;
  try {
    if (ownedAndPrivate(cacheFile)) cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined; // no cache yet
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected === true) {
    if (pendingWrites.length === 0) process.once("exit", writePending);
    pendingWrites.push({ script, file: cacheFile });
  }
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, load, module, file, path.dirname(file));
  return module.exports;
}
