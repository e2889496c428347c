// The generated modules' functions read module-level bindings at every step. V8 checks every read of a module-level
// `let` or `const` from a function for its temporal dead zone (the control's visit function held 410 such checks); a
// `var` needs none, so the generated modules declare their module-level bindings with `var` (a rule pack's module: the
// bindings of the program function it exports).
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { buildPaths } from "../../compiler/paths.js";

const { outDir } = buildPaths();

const parse = (file: string) => ts.createSourceFile(file, readFileSync(path.join(outDir, file), "utf8"), ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS);

/** The names `statements` declare with `let` or `const`, and how many they declare with `var`. */
function bindings(statements: readonly ts.Statement[], source: ts.SourceFile): { lexical: string[]; vars: number } {
  const lexical: string[] = [];
  let vars = 0;
  for (const statement of statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const { declarationList } = statement;
    if ((declarationList.flags & ts.NodeFlags.BlockScoped) === 0) vars += declarationList.declarations.length;
    else lexical.push(...declarationList.declarations.map((declaration) => declaration.name.getText(source)));
  }
  return { lexical, vars };
}

function topLevelBindings(file: string): { lexical: string[]; vars: number } {
  const source = parse(file);
  return bindings(source.statements, source);
}

/** The bindings of a pack module's program: the function it exports, which declares what its inner functions share. */
function programBindings(file: string): { lexical: string[]; vars: number } {
  const source = parse(file);
  let program: ts.FunctionExpression | undefined;
  for (const statement of source.statements) {
    if (ts.isExpressionStatement(statement) && ts.isBinaryExpression(statement.expression) && ts.isFunctionExpression(statement.expression.right)) program = statement.expression.right;
  }
  if (program?.body === undefined) throw new Error(`${file} exports no program function`);
  return bindings(program.body.statements, source);
}

describe("module-level bindings of the generated code", () => {
  it("are var in the semantic module", () => {
    const { lexical, vars } = topLevelBindings("semantic.cjs");
    expect(lexical).toEqual([]);
    expect(vars).toBeGreaterThan(100);
  });

  it("are var in every validator module but the function the module exports", () => {
    for (const name of readdirSync(path.join(outDir, "validators"))) {
      const { lexical, vars } = topLevelBindings(path.join("validators", name));
      expect(lexical, name).toEqual([]);
      expect(vars, name).toBeGreaterThan(10);
    }
  });

  it("are var in every rule pack's program", () => {
    for (const name of readdirSync(path.join(outDir, "packs")).filter((file) => file.endsWith(".cjs"))) {
      const { lexical, vars } = programBindings(path.join("packs", name));
      expect(lexical, name).toEqual([]);
      expect(vars, name).toBeGreaterThan(10);
    }
  });
});
