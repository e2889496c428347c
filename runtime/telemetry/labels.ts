// Fixed allow-lists for metric labels: a label can only ever hold one of these values, so nothing from a document, a key
// or a client address can reach the metrics, even if a caller passes it by mistake.
import { MODELS } from "../core/report.js";
import { PROBLEM_CODES } from "../api/definition.js";

const MODEL_VALUES: ReadonlySet<string> = new Set(MODELS);
const LEVEL_VALUES: ReadonlySet<string> = new Set(["schema", "full"]);
const OUTCOME_VALUES: ReadonlySet<string> = new Set(["valid", "invalid", ...PROBLEM_CODES]);

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
