// The OSCAL release a document declares against the one it was checked against: the report's `meta.release`, a note
// when they differ, and, on findings that a known change between the two releases explains, a sentence saying so. A
// document declaring 1.1.2 is checked against the 1.2.2 schemas (the only ones compiled in): its user should not have
// to guess that an error may be a release difference rather than a mistake.
import { PUBLISHED_OSCAL_VERSIONS } from "./model.js";
import type { Model, ReleaseMeta } from "./report.js";

/** A change between releases that makes a document of the earlier release fail the later schema where it touches. */
interface ReleaseChange {
  model: Model;
  /** The release that made the change: documents declaring an earlier release are affected. */
  since: string;
  /** Schema locations the change concerns (a prefix of the failing keyword's schema path). */
  schemaPathPrefix: string;
  what: string;
}

// Only changes seen in real documents are listed (NIST's 1.2.1 release notes; usnistgov/OSCAL#2183).
const KNOWN_CHANGES: readonly ReleaseChange[] = [
  {
    model: "mapping-collection",
    since: "1.2.1",
    schemaPathPrefix: "#/definitions/oscal-mapping-oscal-mapping-common:confidence-score/",
    what: "confidence-score lost the STRVALUE member it had in 1.2.0 and holds either category or percentage",
  },
  {
    model: "mapping-collection",
    since: "1.2.1",
    schemaPathPrefix: "#/definitions/oscal-mapping-oscal-mapping-common:coverage/",
    what: "the value of coverage, STRVALUE in 1.2.0, became the required target-coverage",
  },
];

/** The release parts of a published version ("1.2.0" → [1, 2, 0]); the declared one is checked to be published first. */
const releaseParts = (version: string): number[] => version.split(".").map(Number);

function isEarlier(version: string, than: string): boolean {
  const [a, b] = [releaseParts(version), releaseParts(than)];
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
}

/** `meta.release` of a report on a document declaring `declared` (`unknown` when it declares none). */
export function releaseMeta(declared: string, checkedAgainst: string): ReleaseMeta {
  if (declared === checkedAgainst) return { declared, checkedAgainst };
  let note: string;
  if (declared === "unknown") {
    note = `The document declares no oscal-version (metadata/oscal-version): it was checked against OSCAL ${checkedAgainst}, and the report is not complete.`;
  } else if (!PUBLISHED_OSCAL_VERSIONS.has(declared)) {
    note = `The document declares oscal-version ${JSON.stringify(declared)}, which is not a published OSCAL release: it was checked against OSCAL ${checkedAgainst}, and the report is not complete.`;
  } else {
    note = `The document declares OSCAL ${declared} and was checked against OSCAL ${checkedAgainst}, the release this validator implements: a finding may come from a change between the two releases rather than from a mistake.`;
  }
  return { declared, checkedAgainst, note };
}

/**
 * The sentence a schema finding at `schemaPath` gets when a known change after the release `declared` explains it
 * ("OSCAL 1.2.1 changed this: ..."); undefined otherwise, and always for an unpublished or unknown version.
 */
export function releaseChangeBehind(model: Model, declared: string, schemaPath: string): string | undefined {
  if (!PUBLISHED_OSCAL_VERSIONS.has(declared)) return undefined;
  const change = KNOWN_CHANGES.find((candidate) => candidate.model === model && schemaPath.startsWith(candidate.schemaPathPrefix) && isEarlier(declared, candidate.since));
  return change === undefined ? undefined : `OSCAL ${change.since} changed this: ${change.what}; the document declares ${declared}.`;
}
