// What a rule pack's generated module (generated/packs/<name>.cjs) and the run time that loads it (runtime/packs)
// agree on, declared once: the compiler writes it into generated/packs/index.d.ts, which the run time imports, so
// neither side imports the other.

/** A definition of the node view: assemblies ("a": flags, children) and fields ("f": flags, JSON value key or null). */
export type DefinitionRow =
  | ["a", flags: [name: string, json: string][], children: [name: string, json: string, definition: number][]]
  | ["f", flags: [name: string, json: string][], valueKey: string | null];

/** The definitions of a pack's node view, the definition of each model's root, and the names below each definition. */
export interface ViewDefinitions {
  definitions: DefinitionRow[];
  roots: Record<string, number>;
  /** Per definition, the element names that can occur below it (`//name` searches skip subtrees that hold none). */
  namesBelow: string[][];
}

export interface PackRule {
  id: string;
  constraintId: string;
  severity: "error" | "warning";
  keyword: string;
  description: string;
  models: string[];
}

/**
 * A child's position in the node view: its instance number times this, plus its array index. A small integer for V8
 * while instance numbers stay under 32 (the compiler checks the definitions) and arrays under 2^26 items.
 */
export type InstanceSpan = 0x4000000;
