// Reads the NIST schema and metaschema files and refuses any whose bytes differ from the committed SHA-256 sums.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export type JsonSchema = Record<string, unknown>;

export interface SchemaSource {
  /** File name → parsed schema, in the order of the sums file. */
  schemas: Map<string, JsonSchema>;
  /** File name → hex SHA-256 of its bytes. */
  hashes: Record<string, string>;
}

export class BuildInputError extends Error {}

export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const match = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line);
    if (!match) throw new BuildInputError(`malformed line in the schema sums file: ${JSON.stringify(line)}`);
    sums.set(match[2]!, match[1]!);
  }
  return sums;
}

/**
 * Checks every file the sums file lists under `dir` and returns name → hex SHA-256 and name → the bytes checked (so
 * that what is used is what was verified); names the first file that is missing or differs.
 */
export function verifyListedFiles(dir: string, sumsFile: string, what: string, envName: string): { hashes: Record<string, string>; contents: Map<string, Buffer> } {
  const hashes: Record<string, string> = {};
  const contents = new Map<string, Buffer>();
  for (const [name, sum] of parseSums(readFileSync(sumsFile, "utf8"))) {
    const file = path.join(dir, name);
    if (!existsSync(file)) {
      throw new BuildInputError(`${what} file ${name} is missing from ${dir} (set ${envName} to the OSCAL 1.2.2 ${what} folder)`);
    }
    const bytes = readFileSync(file);
    const actual = createHash("sha256").update(bytes).digest("hex");
    if (actual !== sum) {
      throw new BuildInputError(`${what} file ${name} does not match its recorded SHA-256 (expected ${sum}, found ${actual}); refusing to build`);
    }
    hashes[name] = actual;
    contents.set(name, bytes);
  }
  return { hashes, contents };
}

export function readVerifiedSchemas(schemaDir: string, sumsFile: string): SchemaSource {
  const { hashes, contents } = verifyListedFiles(schemaDir, sumsFile, "schema", "OSCAL_SCHEMA_DIR");
  const schemas = new Map<string, JsonSchema>();
  for (const [name, bytes] of contents) schemas.set(name, JSON.parse(bytes.toString("utf8")) as JsonSchema);
  return { schemas, hashes };
}

/**
 * The metaschema loader reads every module and entity file in its folder, so a file the sums do not list would enter
 * the build unchecked: refuse it as well.
 */
export function verifyMetaschemaDir(metaschemaDir: string, sumsFile: string): Record<string, string> {
  const { hashes } = verifyListedFiles(metaschemaDir, sumsFile, "metaschema", "OSCAL_METASCHEMA_DIR");
  const present = readdirSync(metaschemaDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(metaschemaDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
  const unlisted = present.filter((name) => !(name in hashes)).sort();
  if (unlisted.length > 0) {
    throw new BuildInputError(`metaschema folder ${metaschemaDir} holds files without a recorded SHA-256: ${unlisted.join(", ")}; refusing to build`);
  }
  return hashes;
}
