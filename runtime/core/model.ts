// Which OSCAL model a document is, and which OSCAL version it declares.
import { MODELS, type Model } from "./report.js";
import type { BodyError } from "./body.js";

/** Published OSCAL 1.x releases: documents declaring one of these count as a recognized version. */
export const PUBLISHED_OSCAL_VERSIONS: ReadonlySet<string> = new Set([
  "1.0.0", "1.0.1", "1.0.2", "1.0.3", "1.0.4", "1.0.5", "1.0.6",
  "1.1.0", "1.1.1", "1.1.2", "1.1.3",
  "1.2.0", "1.2.1", "1.2.2",
]);

const MODEL_SET: ReadonlySet<string> = new Set(MODELS);

export function detectModel(document: unknown): { ok: true; model: Model } | { ok: false; error: BodyError } {
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    return unknownModel("The document must be a JSON object whose single root key names an OSCAL model.");
  }
  const models = Object.keys(document).filter((key) => MODEL_SET.has(key));
  if (models.length === 1) return { ok: true, model: models[0] as Model };
  if (models.length > 1) return unknownModel(`The document has ${models.length} OSCAL model root keys; exactly one is allowed.`);
  return unknownModel(`No OSCAL model root key found; expected exactly one of: ${MODELS.join(", ")}.`);
}

function unknownModel(detail: string): { ok: false; error: BodyError } {
  return { ok: false, error: { code: "ERR_UNKNOWN_MODEL", detail } };
}

/** Longest declared version echoed back; anything longer is cut, so a report never carries a large piece of a document. */
const MAX_VERSION_LENGTH = 64;

export function declaredOscalVersion(document: unknown, model: Model): string {
  const content = (document as Record<string, unknown>)[model];
  const metadata = isRecord(content) ? content.metadata : undefined;
  const version = isRecord(metadata) ? metadata["oscal-version"] : undefined;
  if (typeof version !== "string") return "unknown";
  return version.length > MAX_VERSION_LENGTH ? `${version.slice(0, MAX_VERSION_LENGTH)}…` : version;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
