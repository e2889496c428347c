// What the code of both constraint emitters meets at run time, so that NIST's generated module and every pack's agree.
import type { ComparisonOp, ValueComparisonOp } from "../metaschema/metapath-ast.js";

/**
 * The one module NIST's generated module and every pack's require by name, for their helpers, primitives and engine:
 * package.json's imports map it to the compiled run time (runtime/constraints/runtime.ts, bundled as CommonJS by
 * scripts/build-cli.mjs), the browser bundle to the source.
 */
export const CONSTRAINT_RUNTIME_MODULE = "#runtime/constraints/runtime.cjs";

/**
 * The run time's comparator of each comparison operator (runtime/packs/primitives.ts): the generated code passes the one
 * it compares with, so that both layers compare two values alike and neither switches on an operator.
 */
export const COMPARATORS: Readonly<Record<ComparisonOp | ValueComparisonOp, string>> = {
  "=": "equal", eq: "equal", "!=": "notEqual", ne: "notEqual", "<": "less", lt: "less", "<=": "lessOrEqual", le: "lessOrEqual",
  ">": "greater", gt: "greater", ">=": "greaterOrEqual", ge: "greaterOrEqual",
};
