// RFC 6901 reference tokens: the one place the core escapes and unescapes them; and paths built token by token.

let escapedCharacters = 0;

export function escapeToken(token: string): string {
  escapedCharacters += token.length;
  // Most tokens hold neither character: they are returned as they are, without two passes of replacement.
  return token.indexOf("~") < 0 && token.indexOf("/") < 0 ? token : token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Characters of reference tokens escapeToken has spelled out into pointers in this thread: the pointer text findings
 * cost, which tests check grows linearly with a hostile document.
 */
export function escapedTokenCharacters(): number {
  return escapedCharacters;
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
 * Where a value lies: its reference token and where its parent lies (undefined: the whole document), with the length
 * of its pointer. Values below one another share their ancestors' nodes, so that going one level deeper costs O(1)
 * whatever the depth and length of the path, and a pointer is spelled out only for what is reported.
 */
export interface PathNode {
  readonly parent: PathNode | undefined;
  readonly token: string | number;
  readonly pointerLength: number;
}

export function pathNode(parent: PathNode | undefined, token: string | number): PathNode {
  return { parent, token, pointerLength: (parent?.pointerLength ?? 0) + 1 + escapedLength(String(token)) };
}

/** The length of escapeToken(token), without spelling it out. */
function escapedLength(token: string): number {
  let length = token.length;
  for (let i = 0; i < token.length; i++) {
    const unit = token.charCodeAt(i);
    if (unit === 0x7e || unit === 0x2f) length++; // ~ and / take two characters
  }
  return length;
}

/** The unescaped reference tokens of the pointer to `node`, root first. */
export function pathNames(node: PathNode | undefined): string[] {
  const names: string[] = [];
  for (let at = node; at !== undefined; at = at.parent) names.push(String(at.token));
  return names.reverse();
}
