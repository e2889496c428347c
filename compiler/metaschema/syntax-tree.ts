// Walking a Metapath syntax tree (./metapath-ast.ts): what the compilers ask of a whole tree (does it read a variable,
// search descendants, call a function) is answered on its nodes, not on a serialisation of it.
import type { Expr, Step } from "./metapath-ast.js";

export type SyntaxNode = Expr | Step;

/** Every expression and step of a tree (or of trees, or of any object holding them), depth first, the tree first. */
export function* syntaxNodes(tree: unknown): Generator<SyntaxNode> {
  if (Array.isArray(tree)) {
    for (const item of tree) yield* syntaxNodes(item);
    return;
  }
  if (tree === null || typeof tree !== "object") return;
  const node = tree as Record<string, unknown>;
  if (typeof node.type === "string" || typeof node.axis === "string") yield node as unknown as SyntaxNode;
  for (const child of Object.values(node)) yield* syntaxNodes(child);
}

/** Whether some node of the tree passes the test. */
export function someNode(tree: unknown, test: (node: SyntaxNode) => boolean): boolean {
  for (const node of syntaxNodes(tree)) if (test(node)) return true;
  return false;
}

/** Whether the tree reads the named variable, or any variable when no name is given. */
export function readsVariable(tree: unknown, name?: string): boolean {
  return someNode(tree, (node) => "type" in node && node.type === "var" && (name === undefined || node.name === name));
}
