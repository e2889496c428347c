// Fixed allow-lists for metric labels: a label can only ever hold one of these values, so nothing from a document, a key
// or a client address can reach the metrics, even if a caller passes it by mistake.
import { MODELS } from "../core/report.js";

/** Every stable error code of the contract (section 7). */
const ERROR_CODES = [
  "ERR_INVALID_JSON",
  "ERR_INVALID_UTF8",
  "ERR_UNKNOWN_MODEL",
  "ERR_INVALID_CONTENT_ENCODING",
  "ERR_UNSUPPORTED_PARAMETER",
  "ERR_INVALID_API_KEY",
  "ERR_METHOD_NOT_ALLOWED",
  "ERR_PAYLOAD_TOO_LARGE",
  "ERR_UNSUPPORTED_MEDIA_TYPE",
  "ERR_RATE_LIMITED",
  "ERR_INTERNAL",
  "ERR_KEY_SERVICE_UNAVAILABLE",
  "ERR_NOT_FOUND",
] as const;

const MODEL_VALUES: ReadonlySet<string> = new Set(MODELS);
const LEVEL_VALUES: ReadonlySet<string> = new Set(["schema", "full"]);
const OUTCOME_VALUES: ReadonlySet<string> = new Set(["valid", "invalid", ...ERROR_CODES]);

const KIB = 1024;
const MIB = 1024 * KIB;
// Upper bounds (exclusive) in bytes; 4 MiB is the raw body limit, so gte_4mb holds only bodies at that limit or gzip-inflated.
const SIZE_BUCKETS: readonly (readonly [label: string, belowBytes: number])[] = [
  ["lt_10kb", 10 * KIB],
  ["lt_100kb", 100 * KIB],
  ["lt_1mb", MIB],
  ["lt_4mb", 4 * MIB],
];
const LARGEST_SIZE_BUCKET = "gte_4mb";

export function modelLabel(model: string): string {
  return MODEL_VALUES.has(model) ? model : "none";
}

export function levelLabel(level: string): string {
  return LEVEL_VALUES.has(level) ? level : "none";
}

export function outcomeLabel(outcome: string): string {
  return OUTCOME_VALUES.has(outcome) ? outcome : "other";
}

export function sizeBucketLabel(sizeBytes: number): string {
  return SIZE_BUCKETS.find(([, belowBytes]) => sizeBytes < belowBytes)?.[0] ?? LARGEST_SIZE_BUCKET;
}
