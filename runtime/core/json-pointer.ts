// RFC 6901 reference tokens: the one place the core escapes and unescapes them.

export function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** `~1` first, then `~0`, so that "~01" becomes "~1", not "/". */
export function unescapeToken(token: string): string {
  return token.includes("~") ? token.replace(/~1/g, "/").replace(/~0/g, "~") : token;
}

/** The reference tokens of a pointer ("" is the whole document), or undefined for a malformed pointer. */
export function pointerTokens(pointer: string): string[] | undefined {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return undefined;
  return pointer.slice(1).split("/").map(unescapeToken);
}

/**
 * Where a value lies: its reference token and where its parent lies (undefined: the whole document). Values below one
 * another share their ancestors' nodes, so that a walk goes one level deeper in O(1) whatever the depth and length of
 * the path, and only the pointers actually reported are spelled out, each in time proportional to its length.
 */
export interface PathNode {
  readonly parent: PathNode | undefined;
  readonly token: string | number;
}

let spelledOutCharacters = 0;

/** The RFC 6901 pointer to `node`. */
export function pointerAt(node: PathNode | undefined): string {
  const tokens: string[] = [];
  for (let at = node; at !== undefined; at = at.parent) tokens.push(escapeToken(String(at.token)));
  const pointer = tokens.length === 0 ? "" : `/${tokens.reverse().join("/")}`;
  spelledOutCharacters += pointer.length;
  return pointer;
}

/**
 * Characters of pointer text pointerAt has spelled out in this thread: the work a hostile document's findings cost,
 * which tests check grows linearly with the document.
 */
export function pointerCharactersSpelledOut(): number {
  return spelledOutCharacters;
}
