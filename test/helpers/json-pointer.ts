// An RFC 6901 JSON Pointer resolver written for the tests, independent of the runtime's own pointer code, so that a
// report path is checked against the standard rather than against the code that produced it.

export type Resolution = { found: true; value: unknown } | { found: false; reason: string };

/** Array indices per RFC 6901 section 4: "0" or digits without a leading zero; "-" names no existing element. */
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

export function resolvePointer(document: unknown, pointer: string): Resolution {
  if (pointer === "") return { found: true, value: document };
  if (!pointer.startsWith("/")) return { found: false, reason: `a non-empty pointer must start with "/"` };
  let node = document;
  for (const raw of pointer.slice(1).split("/")) {
    if (/~[^01]|~$/.test(raw)) return { found: false, reason: `invalid escape in token "${raw}"` };
    // ~1 first, then ~0: "~01" must become "~1", not "/".
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) {
      if (!ARRAY_INDEX.test(token) || Number(token) >= node.length) return { found: false, reason: `no element "${token}" in an array of ${node.length}` };
      node = node[Number(token)];
    } else if (typeof node === "object" && node !== null) {
      if (!Object.hasOwn(node, token)) return { found: false, reason: `no member "${token}"` };
      node = (node as Record<string, unknown>)[token];
    } else {
      return { found: false, reason: `cannot descend into a ${node === null ? "null" : typeof node} with "${token}"` };
    }
  }
  return { found: true, value: node };
}

/** Escapes one reference token (RFC 6901 section 3). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
