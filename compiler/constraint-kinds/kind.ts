// What one kind of constraint compiles to, in both kinds of generated module: NIST's semantic module, whose walk is
// positioned on the JSON itself with the node's metaschema definition known at build time (compiler/semantic/emit),
// and a rule pack's module, whose code runs over the node view (flags by their XML names, `..`, `//x`, other
// documents: compiler/packs/emit). Each kind is one module here: the two shapes of its code side by side, with the
// words they share.
import type { Code, Name } from "../codegen/code.js";
import type { Expr } from "../metaschema/metapath.js";
import type { ConstraintKind } from "../metaschema/constraint.js";
import type { CompiledConstraint } from "../semantic/emit/constraint.js";
import type { CompileUnit, EmitContext, NodeRef } from "../semantic/emit/context.js";
import type { SourceConstraint } from "../packs/emit/module.js";

/** What a kind's node-view emitter may ask of the pack module being emitted. */
export interface ViewEmit {
  /** The constant holding the constraint's values as a Set. */
  values(): Name;
  /** The constant holding the constraint's patterns, as full-match regular expression literals. */
  patterns(): Name;
  /** The function `(t, s)` giving a target's key (a string, or null when it has none). */
  key(): Name;
  /** The function `(f, s)` evaluating an expression. */
  expr(expr: Expr): Name;
}

export interface KindEmitter {
  kind: ConstraintKind;
  /**
   * NIST's rules: the code of a constraint at a node of its context, which the walk places into that definition's
   * visit function; throws NotApplicable when it cannot be decided from the document.
   */
  overJson(unit: CompileUnit, ref: NodeRef, ctx: EmitContext): CompiledConstraint;
  /** A pack's rules: absent for an index, which a pack builds rather than checks (compiler/packs/emit/module.ts). */
  overView?: {
    /** The condition the target `t` (in the scope `s`) passes; `true` when every target passes. */
    test(c: SourceConstraint, t: Name, emit: ViewEmit): Code | true;
    /** The message (a string) of a failure at `t` when the constraint writes none; absent: the rule's description. */
    defaultMessage?(c: SourceConstraint, t: Name, description: string, emit: ViewEmit): Code;
  };
}
