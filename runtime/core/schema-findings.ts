// Ajv errors → the report's issues: absolute pointers, stable rule ids, plain-language messages, and one finding per
// failed anyOf instead of every branch's complaints.
import type { CollectingValidators, SchemaError } from "#generated/models.js";
import type { ValidationIssue, Model } from "./report.js";
import { describeSchemaError } from "./schema-messages.js";
import { unescapeToken } from "./json-pointer.js";

const VALUE_KEYWORDS: ReadonlySet<string> = new Set(["pattern", "format"]);

/** The findings, of which only the first `limit` become issues (a report lists no more), and how many there are. */
export function collectSchemaFindings(
  model: Model,
  release: string,
  validators: CollectingValidators,
  document: unknown,
  limit: number,
): { issues: ValidationIssue[]; count: number } {
  validators.collect(document);
  const raw = validators.collect.errors ?? [];
  const errors = reduceAlternatives(raw, 0, raw.length);
  // Only pattern and format messages depend on the value; resolving every error's pointer would cost as much as the
  // rest of this conversion put together on documents with many errors.
  const issues = errors
    .slice(0, limit)
    .map((error) => toIssue(model, release, error, VALUE_KEYWORDS.has(error.keyword) ? valueAt(document, error.instancePath) : undefined));
  return { issues, count: errors.length };
}

function toIssue(model: Model, release: string, error: SchemaError, value: unknown): ValidationIssue {
  const { path, message } = describeSchemaError(error, value);
  return {
    ruleId: `nist-schema:${release}:${model}:${error.keyword}:${error.schemaPath}:${error.keyword}`,
    path,
    message,
    keyword: error.keyword,
    severity: "error",
  };
}

/**
 * Ajv (collecting every error) reports a failed anyOf right after the errors of all its branches, branch after branch,
 * and the generated code counts how many errors each branch made (`params.branchErrors`), which splits that run into
 * branches; the whole run is replaced by the errors of the branch the value came closest to. Working from the end of
 * the list lets nested alternatives be reduced inside their branch first. This reduces errors[from, to): ranges of the
 * one list rather than copies, and no allocation per error, as a document may have tens of thousands of errors inside
 * alternatives nested several deep.
 */
function reduceAlternatives(errors: readonly SchemaError[], from: number, to: number): SchemaError[] {
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
    const branchRuns = splitIntoBranches(errors, end - 1, branchErrors);
    const closest = closestBranch(branchRuns, error.instancePath);
    for (let i = closest.length - 1; i >= 0; i--) reversed.push(closest[i]!);
    end -= 1 + branchRuns.reduce((sum, run) => sum + run.rawCount, 0);
  }
  return reversed.reverse();
}

interface BranchRun {
  rawCount: number;
  errors: SchemaError[];
}

/** The reduced errors of each branch of the alternative at `alternativeIndex`, whose branches made `counts` errors before it. */
function splitIntoBranches(errors: readonly SchemaError[], alternativeIndex: number, counts: readonly number[]): BranchRun[] {
  let start = alternativeIndex - counts.reduce((sum, count) => sum + count, 0);
  const runs: BranchRun[] = [];
  for (const count of counts) {
    runs.push({ rawCount: count, errors: reduceAlternatives(errors, start, start + count) });
    start += count;
  }
  return runs;
}

/** The branch with the fewest complaints about the value's own shape (errors at its path), then the fewest errors. */
function closestBranch(runs: readonly BranchRun[], instancePath: string): SchemaError[] {
  const score = (run: BranchRun) => {
    const shapeErrors = run.errors.filter((error) => error.instancePath === instancePath).length;
    return shapeErrors * 1_000_000 + run.errors.length;
  };
  let best = runs[0]!;
  for (const run of runs.slice(1)) if (score(run) < score(best)) best = run;
  return best.errors;
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
