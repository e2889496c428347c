// Loads generated CommonJS modules (and the oscal-validate bundle) with V8's code cache, so that a cold process does not
// compile them again on every run. The cache is written on the first run (at process exit, when the functions the run
// used have been compiled too) into a directory only the current user can write. Each cache file holds a copy of the
// source it was made from, and is used only when that copy equals the source read now: V8 itself checks no more than the
// source's length, and comparing bytes is exact without loading node:crypto, a few milliseconds of a cold process.
// V8's cache bytes are not reproducible from run to run, so they are not a build output; a cache V8 rejects (other
// flags, other build) is ignored and replaced. A process that writes caches also keeps the directory to a size limit.
// CommonJS, so that the CLI's bin can load its bundle through this module before anything else, and the bundle and the
// generated ES modules share this one instance.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Script } from "node:vm";

/** Starts every cache file: the format, then the source's length in bytes (32-bit little-endian). */
const MAGIC = Buffer.from("oscal-code-cache-1\n");
const HEADER_BYTES = MAGIC.length + 4;

/**
 * The directory is kept to this many bytes (OSCAL_CODE_CACHE_MAX_MB overrides): every install path and Node.js version
 * adds files of its own, about 12 MB for a full set, so a machine that runs the CLI from fresh installs would otherwise
 * fill its temporary directory. Files are dropped least recently written first, only when this process writes some.
 */
const DEFAULT_MAX_DIRECTORY_MB = 64;
/** A temporary file this old was left by a process killed while writing it (a write takes milliseconds). */
const STALE_TEMPORARY_MS = 10 * 60 * 1000;

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

/**
 * The cache file's name, from the module's path, the Node.js and V8 versions and the architecture, so that installs
 * and Node.js versions sharing the directory do not replace each other's caches. Only a name: what makes a cache
 * trusted is the source copy it holds, so a 53-bit string hash is enough here.
 */
function cacheFileName(file: string): string {
  const key = `${file}\0${process.version}\0${process.versions.v8}\0${process.arch}`;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = (2097152 * (h2 >>> 0) + (h1 >>> 0)).toString(16).padStart(14, "0");
  return `${path.basename(file)}-${hash}.v8cache`;
}

/** V8's cache data in `cacheFile` when the file is ours, private, and was made from exactly `source`. */
function trustedCacheData(cacheFile: string, source: Buffer): Buffer | undefined {
  try {
    if (!ownedAndPrivate(cacheFile)) return undefined;
    const cache = readFileSync(cacheFile);
    const sourceEnd = HEADER_BYTES + source.length;
    const madeFromSource =
      cache.length > sourceEnd &&
      cache.subarray(0, MAGIC.length).equals(MAGIC) &&
      cache.readUInt32LE(MAGIC.length) === source.length &&
      cache.subarray(HEADER_BYTES, sourceEnd).equals(source);
    return madeFromSource ? cache.subarray(sourceEnd) : undefined;
  } catch {
    return undefined; // no cache yet
  }
}

let directory: string | null | undefined = null; // null: not looked up yet
const pendingWrites: { script: Script; source: Buffer; file: string }[] = [];

function writePending(): void {
  const written = new Set<string>();
  for (const { script, source, file } of pendingWrites) {
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      const header = Buffer.alloc(HEADER_BYTES);
      MAGIC.copy(header);
      header.writeUInt32LE(source.length, MAGIC.length);
      const descriptor = openSync(temporary, "w", 0o600);
      try {
        for (const part of [header, source, script.createCachedData()]) writeSync(descriptor, part);
      } finally {
        closeSync(descriptor);
      }
      renameSync(temporary, file);
      written.add(file);
    } catch {
      // A cache that cannot be written only costs the next process its compilation.
    }
  }
  pendingWrites.length = 0;
  if (typeof directory === "string") sweep(directory, written);
}

/** Removes stale temporary files and, past the size limit, the caches written longest ago (never those in `keep`). */
function sweep(dir: string, keep: ReadonlySet<string>): void {
  const configured = Number(process.env.OSCAL_CODE_CACHE_MAX_MB || Number.NaN);
  const maxBytes = (configured >= 0 ? configured : DEFAULT_MAX_DIRECTORY_MB) * 1024 * 1024;
  const now = Date.now();
  const removable: { file: string; size: number; written: number }[] = [];
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    const stats = statSync(file, { throwIfNoEntry: false });
    // Gone meanwhile (another process sweeping), or not a file of ours.
    if (stats === undefined || !stats.isFile() || stats.uid !== process.getuid!()) continue;
    if (name.endsWith(".tmp")) {
      if (now - stats.mtimeMs > STALE_TEMPORARY_MS) removeQuietly(file);
    } else if (name.endsWith(".v8cache")) {
      total += stats.size;
      if (!keep.has(file)) removable.push({ file, size: stats.size, written: stats.mtimeMs });
    }
  }
  removable.sort((a, b) => a.written - b.written);
  for (const cache of removable) {
    if (total <= maxBytes) break;
    removeQuietly(cache.file);
    total -= cache.size;
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Removed by another process already.
  }
}

/** `require(file)` for a CommonJS module, compiled with the code cache when a trusted one is available. */
export function loadCompiled(file: string): unknown {
  if (directory === null) directory = cacheDirectory();
  const load = createRequire(file);
  if (directory === undefined) return load(file);
  const source = readFileSync(file);
  const cacheFile = path.join(directory, cacheFileName(file));
  const cachedData = trustedCacheData(cacheFile, source);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source.toString("utf8")}\n})`, { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected === true) {
    if (pendingWrites.length === 0) process.once("exit", writePending);
    pendingWrites.push({ script, source, file: cacheFile });
  }
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, load, module, file, path.dirname(file));
  return module.exports;
}
