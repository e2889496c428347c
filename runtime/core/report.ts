// The report types of the contract (sections 2.2 to 2.4). Shared by the core, the CLI and the HTTP layer.

export const MODELS = [
  "catalog",
  "profile",
  "component-definition",
  "system-security-plan",
  "assessment-plan",
  "assessment-results",
  "plan-of-action-and-milestones",
  "mapping-collection",
] as const;

export type Model = (typeof MODELS)[number];

export type Level = "schema" | "full";

export type Severity = "error" | "warning";

export interface ValidationIssue {
  ruleId: string;
  /** RFC 6901 JSON Pointer into the submitted document. */
  path: string;
  message: string;
  keyword: string;
  severity: Severity;
  /**
   * A rule pack's finding on a node of another document (one the caller supplied, read by `doc()`): its href as the
   * constraint passed it, as written in the submitted document. `path` then points at the node of the submitted document
   * whose constraint reached there. Absent for findings in the submitted document.
   */
  document?: string;
  /** With `document`: the node's RFC 6901 pointer in that document (in the catalog it resolves to, for a profile). */
  documentPath?: string;
  /** 1-based line of the value `path` points at, in the original text (absent where no text was given). */
  line?: number;
  /** 1-based column of that value, counted in Unicode code points from the start of its line. */
  column?: number;
}

export interface SemanticRulesMeta {
  count: number;
  sha256: string;
}

/** The OSCAL release a document declares and the one it was checked against (an addition to the contract's meta). */
export interface ReleaseMeta {
  /** The document's oscal-version, as `oscalVersion` (`unknown` when it declares none). */
  declared: string;
  /** The OSCAL release the validators implement, which the document was checked against (as `validator`). */
  checkedAgainst: string;
  /** Present when the two differ: what that means for the report. Never a finding: it is no fault of the document. */
  note?: string;
}

export interface ReportMeta {
  engine: string;
  validator: string;
  schemaSource: string;
  patches: string[];
  durationMs: number;
  semanticRules?: SemanticRulesMeta;
  release: ReleaseMeta;
}

export interface ValidationReport {
  valid: boolean;
  model: Model;
  oscalVersion: string;
  level: Level;
  complete: boolean;
  issues: ValidationIssue[];
  issueCount: number;
  truncated: boolean;
  meta: ReportMeta;
}

/** Most issues a report carries; `issueCount` still holds the true total. */
export const MAX_REPORTED_ISSUES = 200;

/** The contract's comma-separated `rules` value as ids: items trimmed, empty items ignored. */
export function ruleIdList(text: string): string[] {
  return text.split(",").map((id) => id.trim()).filter((id) => id !== "");
}
