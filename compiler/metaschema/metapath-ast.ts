// The Metapath syntax tree: built by the parser (./metapath.ts), compiled to JavaScript for NIST's constraints
// (../semantic/emit) and for rule packs (../packs/emit).

export type Expr =
  | { type: "path"; rootDescendant: boolean; steps: Step[] }
  | { type: "union"; items: Expr[] }
  | { type: "and" | "or"; items: Expr[] }
  | { type: "cmp"; op: ComparisonOp; left: Expr; right: Expr }
  | { type: "call"; name: string; args: Expr[] }
  | { type: "literal"; value: string | number }
  | { type: "sequence"; items: Expr[] }
  | { type: "var"; name: string }
  | { type: "vcmp"; op: ValueComparisonOp; left: Expr; right: Expr }
  | { type: "if"; condition: Expr; then: Expr; else: Expr }
  | { type: "quantified"; quantifier: "some" | "every"; bindings: { name: string; in: Expr }[]; satisfies: Expr }
  | { type: "map"; left: Expr; right: Expr }
  | { type: "lookup"; base: Expr };

export type ValueComparisonOp = "eq" | "ne" | "lt" | "le" | "gt" | "ge";

export type ComparisonOp = "=" | "!=" | "<" | "<=" | ">" | ">=";

export type Step =
  | { axis: "self"; predicates: Expr[] }
  | { axis: "flag"; name: string; predicates: Expr[] }
  | { axis: "child" | "descendant"; names: string[]; predicates: Expr[] }
  | { axis: "call"; call: Expr & { type: "call" }; predicates: Expr[] }
  | { axis: "group"; branches: PathExpr[]; predicates: Expr[] }
  // Pack-only steps: the document node (an absolute path's start), the parent, any child or descendant element,
  // and an expression (variable, lookup, union of absolute paths) from which a path continues or which is filtered.
  | { axis: "root"; predicates: Expr[] }
  | { axis: "parent"; predicates: Expr[] }
  | { axis: "any"; descendant: boolean; predicates: Expr[] }
  | { axis: "expr"; expr: Expr; predicates: Expr[] };

export type PathExpr = Expr & { type: "path" };

