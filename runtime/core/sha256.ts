// The hex SHA-256 of a text, for meta.semanticRules. node:crypto loads on the first call rather than with the core: a
// schema-level run (the CLI's default) never needs it, and loading it is a few milliseconds of a cold process. The
// browser bundle replaces this module (runtime/browser/sha256.ts).
import type * as Crypto from "node:crypto";

let crypto: typeof Crypto | undefined;

export function sha256Hex(text: string): string {
  crypto ??= process.getBuiltinModule("node:crypto");
  return crypto.createHash("sha256").update(text).digest("hex");
}
