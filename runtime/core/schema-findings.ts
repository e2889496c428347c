// Ajv errors → the report's issues: absolute pointers, stable rule ids, plain-language messages, and for a failed anyOf
// every error of the branch the value meant instead of every branch's complaints.
import type { CollectingValidators, SchemaError } from "#generated/models.js";
import type { ValidationIssue, Model } from "./report.js";
import { describeSchemaError } from "./schema-messages.js";
import { isRecord } from "./model.js";
import { releaseChangeBehind } from "./release-notes.js";
import { escapeToken, unescapeToken } from "./json-pointer.js";

const VALUE_KEYWORDS: ReadonlySet<string> = new Set(["pattern", "format"]);

/** The findings, of which only the first `limit` become issues (a report lists no more), and how many there are. */
export function collectSchemaFindings(
  model: Model,
  release: { checkedAgainst: string; declared: string },
  validators: CollectingValidators,
  document: unknown,
  limit: number,
): { issues: ValidationIssue[]; count: number } {
  validators.collect(document);
  const raw = validators.collect.errors ?? [];
  const errors = withoutRepeatedDatatypeFaults(reduceAlternatives(document, raw, 0, raw.length));
  // Only pattern and format messages depend on the value; resolving every error's pointer would cost as much as the
  // rest of this conversion put together on documents with many errors.
  const issues = errors
    .slice(0, limit)
    .map((error) => toIssue(model, release, error, VALUE_KEYWORDS.has(error.keyword) ? valueAt(document, error.instancePath) : undefined));
  return { issues, count: errors.length };
}

/**
 * A value that fails both the format and the pattern of its datatype (a date-time's `format` and `pattern`) has one
 * fault, which one finding names: the second error at the same value from the same datatype is dropped.
 */
function withoutRepeatedDatatypeFaults(errors: SchemaError[]): SchemaError[] {
  const repeats = (error: SchemaError, previous: SchemaError | undefined) =>
    previous !== undefined &&
    VALUE_KEYWORDS.has(error.keyword) &&
    VALUE_KEYWORDS.has(previous.keyword) &&
    error.instancePath === previous.instancePath &&
    error.schemaPath.slice(0, error.schemaPath.lastIndexOf("/")) === previous.schemaPath.slice(0, previous.schemaPath.lastIndexOf("/"));
  return errors.some((error, index) => repeats(error, errors[index - 1])) ? errors.filter((error, index) => !repeats(error, errors[index - 1])) : errors;
}

/** The issue of a schema error; its message says so when a known change between the releases explains it. */
function toIssue(model: Model, release: { checkedAgainst: string; declared: string }, error: SchemaError, value: unknown): ValidationIssue {
  const { path, message } = describeSchemaError(error, value);
  const change = release.declared === release.checkedAgainst ? undefined : releaseChangeBehind(model, release.declared, error.schemaPath);
  return {
    ruleId: `nist-schema:${release.checkedAgainst}:${model}:${error.keyword}:${error.schemaPath}:${error.keyword}`,
    path,
    message: change === undefined ? message : `${message} ${change}`,
    keyword: error.keyword,
    severity: "error",
  };
}

/**
 * Ajv (collecting every error) reports a failed anyOf right after the errors of all its branches, branch after branch,
 * and the generated code counts how many errors each branch made (`params.branchErrors`), which splits that run into
 * branches; the whole run is replaced by the errors of the branch the value most plausibly meant (closestBranch).
 * Working from the end of the list lets nested alternatives be reduced inside their branch first. This reduces
 * errors[from, to): ranges of the one list rather than copies, and no allocation per error, as a document may have tens
 * of thousands of errors inside alternatives nested several deep.
 */
function reduceAlternatives(document: unknown, errors: readonly SchemaError[], from: number, to: number): SchemaError[] {
  const reversed: SchemaError[] = [];
  let end = to;
  while (end > from) {
    const error = errors[end - 1]!;
    const branchErrors = error.keyword === "anyOf" ? (error.params.branchErrors as number[] | undefined) : undefined;
    if (branchErrors === undefined) {
      reversed.push(error);
      end -= 1;
      continue;
    }
    const branchRuns = splitIntoBranches(document, errors, end - 1, branchErrors);
    const closest = closestBranch(document, branchRuns, error);
    for (let i = closest.length - 1; i >= 0; i--) reversed.push(closest[i]!);
    end -= 1 + branchRuns.reduce((sum, run) => sum + run.rawCount, 0);
  }
  return reversed.reverse();
}

interface BranchRun {
  rawCount: number;
  errors: SchemaError[];
}

/** What one branch of an alternative between object forms declares and requires (compiler/emit-validators.ts). */
interface BranchShape {
  declares: string[];
  requires: string[];
}

/** The reduced errors of each branch of the alternative at `alternativeIndex`, whose branches made `counts` errors before it. */
function splitIntoBranches(document: unknown, errors: readonly SchemaError[], alternativeIndex: number, counts: readonly number[]): BranchRun[] {
  let start = alternativeIndex - counts.reduce((sum, count) => sum + count, 0);
  const runs: BranchRun[] = [];
  for (const count of counts) {
    runs.push({ rawCount: count, errors: reduceAlternatives(document, errors, start, start + count) });
    start += count;
  }
  return runs;
}

/**
 * The errors of the branch the value most plausibly meant. Between object forms (`params.branchShapes`): the branch
 * whose required members the value has, then the one whose own members (those not every branch declares) it uses with
 * content, an empty array or object counting for less than one with content: a catalog group with groups and an empty
 * `controls` array meant the groups form, whatever its groups' own errors. Then, and between other schemas, the branch
 * with the fewest complaints about the value's own shape (errors at its path), then the fewest errors. In the chosen
 * branch, a member it does not allow but another branch does is reported as the clash it is (see withClash).
 */
function closestBranch(document: unknown, runs: readonly BranchRun[], alternative: SchemaError): SchemaError[] {
  const shapes = alternative.params.branchShapes as BranchShape[] | undefined;
  const value = shapes === undefined ? undefined : valueAt(document, alternative.instancePath);
  const members = isRecord(value) ? value : undefined;
  const errorScore = (run: BranchRun) => run.errors.filter((error) => error.instancePath === alternative.instancePath).length * 1_000_000 + run.errors.length;
  const intentScore = (index: number) => (members === undefined ? 0 : formIntent(shapes!, index, members));
  let best = 0;
  for (let index = 1; index < runs.length; index++) {
    const byIntent = intentScore(index) - intentScore(best);
    if (byIntent > 0 || (byIntent === 0 && errorScore(runs[index]!) < errorScore(runs[best]!))) best = index;
  }
  const chosen = runs[best]!.errors;
  if (members === undefined) return chosen;
  const errors: SchemaError[] = [];
  for (const error of chosen) {
    const clash = withClash(error, alternative.instancePath, shapes!, best, members);
    errors.push(clash);
    if (clash !== error) errors.push(...errorsInside(runs, shapes!, `${alternative.instancePath}/${escapeToken(String(error.params.additionalProperty))}`, String(error.params.additionalProperty)));
  }
  return errors;
}

/**
 * The errors inside a clashing member's content, as the branch that declares it found them: they are faults whichever
 * form the object keeps (a subgroup's empty array stays wrong when its parent also holds controls), and leaving them out
 * would hide them until the clash is fixed. The member's own complaint (empty) is already in the clash's message.
 */
function errorsInside(runs: readonly BranchRun[], shapes: readonly BranchShape[], memberPath: string, member: string): SchemaError[] {
  const declaring = shapes.findIndex((shape) => shape.declares.includes(member));
  return runs[declaring]!.errors.filter((error) => error.instancePath.startsWith(`${memberPath}/`));
}

/** How strongly the value's members point at branch `index`: required members missing weigh most, then its own members. */
function formIntent(shapes: readonly BranchShape[], index: number, members: Record<string, unknown>): number {
  const shape = shapes[index]!;
  const missing = shape.requires.filter((name) => !(name in members)).length;
  let own = 0;
  for (const name of Object.keys(members)) {
    const declaredHere = shape.declares.includes(name);
    if (declaredHere === shapes.every((other) => other.declares.includes(name))) continue; // not telling the forms apart
    own += (declaredHere ? 1 : -1) * (hasContent(members[name]) ? 2 : 1);
  }
  return -missing * 1_000 + own;
}

/** Whether a member's value holds something: not an empty array, object or string. */
function hasContent(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return value !== "";
}

/**
 * An "additionalProperties" error of the chosen branch, on the alternative's own value, for a member another branch
 * declares: the error with `params.clashesWith` (the chosen branch's own members the value uses) and `params.memberIsEmpty`,
 * so its message says the two forms cannot be mixed rather than that a valid member is not allowed.
 */
function withClash(error: SchemaError, at: string, shapes: readonly BranchShape[], chosen: number, members: Record<string, unknown>): SchemaError {
  if (error.keyword !== "additionalProperties" || error.instancePath !== at) return error;
  const member = String(error.params.additionalProperty);
  if (!shapes.some((shape) => shape.declares.includes(member))) return error;
  const own = shapes[chosen]!.declares.filter((name) => name in members && !shapes.every((shape) => shape.declares.includes(name)));
  return { ...error, params: { ...error.params, clashesWith: own, memberIsEmpty: !hasContent(members[member]) } };
}

function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let node = root;
  for (const token of pointer.slice(1).split("/")) {
    const key = unescapeToken(token);
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
