// The emitter of each constraint kind of a rule pack: the condition one target `t` of a constraint passes, and the
// message of a failure when the constraint writes none. NIST's kinds (compiler/semantic/emit/kinds/) write code over
// the JSON the semantic walk is positioned on; these write code over the node view the pack's walk yields (flags by
// their XML names, `..`, `//x`): the two share the syntax trees and the code builder, not the code they emit.
import { code, type Code, type Name } from "../../codegen/code.js";
import type { SourceConstraint } from "./module.js";

/** What a kind's emitter may ask of the module being emitted. */
export interface ConstraintEmit {
  /** The constant holding the constraint's values as a Set. */
  values(): Name;
  /** The constant holding the constraint's patterns, as full-match regular expression literals. */
  patterns(): Name;
  /** The function `(t, s)` giving a target's key (a string, or undefined when it has none). */
  key(): Name;
  /** The function `(f, s)` evaluating an expression. */
  expr(expr: NonNullable<SourceConstraint["test"]>): Name;
}

export interface KindEmitter {
  /** The condition the target `t` (in the scope `s`) passes; `true` when every target passes. has-cardinality: `t` is the context node. */
  test(c: SourceConstraint, t: Name, emit: ConstraintEmit): Code | true;
  /** The message (a string) of a failure at `t` when the constraint writes none; absent: the rule's description. */
  defaultMessage?(c: SourceConstraint, t: Name, description: string, emit: ConstraintEmit): Code;
}

/** Every kind that checks targets (an index builds one instead: compiler/packs/emit/module.ts). */
export const PACK_KINDS: Readonly<Record<Exclude<SourceConstraint["kind"], "index">, KindEmitter>> = {
  expect: {
    test: (c, t, emit) => code`effectiveBoolean(${emit.expr(c.test!)}(${t}, s))`,
  },
  "allowed-values": {
    // Other values allowed: every target passes, whatever its value.
    test: (c, t, emit) => (c.allowOther ? true : code`valueIn(${t}, ${emit.values()})`),
    // The value found and those allowed, in the words of NIST's layer (runtime/semantic/helpers.cts notAllowed).
    defaultMessage: (_, t, description, emit) => code`valueNotAllowed(${t}, ${emit.values()}, ${`. ${description}`})`,
  },
  matches: {
    test: (_, t, emit) => code`valueMatches(${t}, ${emit.patterns()})`,
  },
  "index-has-key": {
    // The index was built before any target (see the check function): a key it holds is never undefined.
    test: (c, t, emit) => code`R.index(${c.index!}).has(${emit.key()}(${t}, s))`,
  },
  "is-unique": {
    test: (c, t, emit) => code`R.firstKey(${c.rule}, ${emit.key()}(${t}, s))`,
  },
  // `t` is the context node (the check function's): the bounds apply to the number of targets there.
  "has-cardinality": {
    test: (c, t, emit) => code`countWithin(${emit.expr(c.target)}(${t}, s).length, ${c.minOccurs}, ${c.maxOccurs})`,
    defaultMessage: (c, t, description, emit) => code`countOutside(${emit.expr(c.target)}(${t}, s).length, ${c.minOccurs}, ${c.maxOccurs}, ${` ${description}`})`,
  },
};
