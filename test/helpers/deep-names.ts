// A hostile shape for the exact text pass of runtime/core/json-structure.ts: a catalog whose path runs through long
// member names down near the nesting limit, with a repeated name (which sends the text to the pass) and a list of
// strings at its end. Anything the pass spends per string in proportion to the path's length makes it quadratic.

export interface DeepNames {
  text: string;
  /** The RFC 6901 pointer to the innermost object, which holds the repeated name "x" and the list. */
  innermost: string;
}

/**
 * `levels` objects nested under "catalog", each with one member whose name is `nameLength` characters long (with a
 * slash and a tilde, which pointers escape), down to `{"x":1,"x":2,"list":[...items]}`; `items` are JSON texts.
 */
export function deepNamesDocument(levels: number, nameLength: number, items: readonly string[]): DeepNames {
  const names = Array.from({ length: levels }, (_, level) => `${String(level).padStart(3, "0")}/~${"n".repeat(Math.max(0, nameLength - 5))}`);
  const text = `{"catalog":${names.map((name) => `{"${name}":`).join("")}{"x":1,"x":2,"list":[${items.join(",")}]}${"}".repeat(levels)}}`;
  const innermost = `/catalog${names.map((name) => `/${name.replace("~", "~0").replace("/", "~1")}`).join("")}`;
  return { text, innermost };
}
