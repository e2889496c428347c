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
