// The element names that can occur below each definition of a pack's node view: the generated walk skips subtrees
// that cannot hold what it looks for, and the program carries the table for the run time's `//name` searches.
import type { DefinitionRow } from "../program-interface.js";

/**
 * Element names that can occur below each definition (for `//name` and the generated walk: subtrees that cannot hold
 * one are skipped).
 */
export function namesBelow(definitions: readonly DefinitionRow[]): Set<string>[] {
  const table = definitions.map(() => new Set<string>());
  for (let changed = true; changed; ) {
    changed = false;
    definitions.forEach((row, def) => {
      if (row[0] !== "a") return;
      const names = table[def]!;
      const before = names.size;
      for (const [name, , child] of row[2]) {
        names.add(name);
        for (const below of table[child]!) names.add(below);
      }
      if (names.size !== before) changed = true;
    });
  }
  return table;
}
