// Reads the NIST schema files and refuses any whose bytes differ from the committed SHA-256 sums.
import { createHash } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
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

export function readVerifiedSchemas(schemaDir: string, sumsFile: string): SchemaSource {
  const expected = parseSums(readFileSync(sumsFile, "utf8"));
  const schemas = new Map<string, JsonSchema>();
  const hashes: Record<string, string> = {};
  for (const [name, sum] of expected) {
    const file = path.join(schemaDir, name);
    if (!existsSync(file)) {
      throw new BuildInputError(`schema file ${name} is missing from ${schemaDir} (set OSCAL_SCHEMA_DIR to the OSCAL 1.2.2 JSON schema folder)`);
    }
    const bytes = readFileSync(file);
    const actual = createHash("sha256").update(bytes).digest("hex");
    if (actual !== sum) {
      throw new BuildInputError(`schema file ${name} does not match its recorded SHA-256 (expected ${sum}, found ${actual}); refusing to build`);
    }
    schemas.set(name, JSON.parse(bytes.toString("utf8")) as JsonSchema);
    hashes[name] = actual;
  }
  return { schemas, hashes };
}
