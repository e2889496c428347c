// Import phase: which controls of one imported catalog an import includes (spec "Including Controls").
import { addTo, type Obj, objects, strings, text } from "./model.js";

/** A control of an imported catalog, where it sits, and whether the import includes it. */
export interface ControlEntry {
  control: Obj;
  id: string | undefined;
  parent: ControlEntry | undefined;
  children: ControlEntry[];
  included: boolean;
}

/** Every control of a catalog in document order (depth first), each with its parent control. */
export function controlEntries(catalog: Obj): ControlEntry[] {
  const entries: ControlEntry[] = [];
  const visitControls = (controls: unknown, parent: ControlEntry | undefined): void => {
    for (const control of objects(controls)) {
      const entry: ControlEntry = { control, id: text(control.id), parent, children: [], included: false };
      entries.push(entry);
      parent?.children.push(entry);
      visitControls(control.controls, entry);
    }
  };
  const visitGroups = (groups: unknown): void => {
    for (const group of objects(groups)) {
      visitControls(group.controls, undefined);
      visitGroups(group.groups);
    }
  };
  visitControls(catalog.controls, undefined);
  visitGroups(catalog.groups);
  return entries;
}

/** A glob (`*`, `?`, `[...]`) as an anchored regular expression: the specification matches patterns as globs. */
export function globPattern(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else if (char === "[" && glob.indexOf("]", i + 2) > i) {
      const end = glob.indexOf("]", i + 2);
      const body = glob.slice(i + 1, end).replace(/^!/, "^").replace(/[\\\]]/g, "\\$&");
      source += `[${body}]`;
      i = end;
    } else source += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "s");
}

/** The controls one `include-controls` or `exclude-controls` item selects, with descendants when it asks for them. */
function selectedBy(selector: Obj, entries: readonly ControlEntry[], byId: ReadonlyMap<string, ControlEntry[]>): { selected: ControlEntry[]; missingIds: string[] } {
  const selected: ControlEntry[] = [];
  const missingIds: string[] = [];
  for (const id of strings(selector["with-ids"])) {
    const found = byId.get(id);
    if (found === undefined) missingIds.push(id);
    else selected.push(...found);
  }
  // A `matching` item without a pattern matches nothing (req-include-by-match-empty).
  const patterns = objects(selector.matching).flatMap((match) => (typeof match.pattern === "string" ? [globPattern(match.pattern)] : []));
  if (patterns.length > 0) selected.push(...entries.filter((entry) => entry.id !== undefined && patterns.some((pattern) => pattern.test(entry.id!))));
  if (selector["with-child-controls"] === "yes") {
    const withDescendants = (entry: ControlEntry): ControlEntry[] => [entry, ...entry.children.flatMap(withDescendants)];
    return { selected: selected.flatMap(withDescendants), missingIds };
  }
  return { selected, missingIds };
}

/**
 * Marks the controls an import includes: include-all or include-controls, each included control's ancestors too (spec
 * "Dealing with Nested Controls"), then exclude-controls, which wins (req-exclude). Returns the ids an include names
 * that the catalog lacks.
 */
export function markIncluded(importDirective: Obj, entries: readonly ControlEntry[]): string[] {
  const byId = new Map<string, ControlEntry[]>();
  for (const entry of entries) if (entry.id !== undefined) addTo(byId, entry.id, entry);
  const missing: string[] = [];
  if (importDirective["include-all"] !== undefined) for (const entry of entries) entry.included = true;
  for (const selector of objects(importDirective["include-controls"])) {
    const { selected, missingIds } = selectedBy(selector, entries, byId);
    missing.push(...missingIds);
    for (const entry of selected) {
      for (let ancestor: ControlEntry | undefined = entry; ancestor !== undefined && !ancestor.included; ancestor = ancestor.parent) ancestor.included = true;
    }
  }
  for (const selector of objects(importDirective["exclude-controls"])) for (const entry of selectedBy(selector, entries, byId).selected) entry.included = false;
  return missing;
}
