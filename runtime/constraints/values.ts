// What NIST's generated checks and the rule packs' do alike with the values of a document, so that both layers read,
// key, quote and list them in the same words: what is a JSON object or atom, index keys of several key fields and of
// key-field patterns, the quoted excerpt of a value, and the allowed-values lists and messages. NIST's module takes
// these by name from the constraint run time (./runtime.ts); the packs' node view, primitives and engine import them.
import { excerpt } from "../core/issue-bounds.js";

export function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
export function isAtom(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/**
 * The index key of several key fields: one string per node (the fields joined by U+001F, an empty one as U+0000), or
 * null when every key field is empty (not indexed). Built in one loop: it runs for every prop of some contexts.
 */
export function KEYN(parts: readonly (string | null | undefined)[]): string | null {
  let any = false;
  let key = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (i > 0) key += "\u001f";
    if (part === undefined || part === null) key += "\u0000";
    else {
      key += part;
      any = true;
    }
  }
  return any ? key : null;
}
/** key-field/@pattern: the key is the first capturing group of a full match. */
export function KEYPAT(re: RegExp, v: string | undefined): string | null {
  if (v === undefined) return null;
  const m = re.exec(v);
  return m === null || m[1] === undefined || m[1] === "" ? null : m[1];
}

/**
 * key-field/@pattern `literal(.*)` (as `#(.*)`: a fragment's id): KEYPAT's key without a match array per value. `.`
 * matches any character but a line terminator.
 */
export function KEYREST(prefix: string, v: string | undefined): string | null {
  if (v === undefined || v.length === prefix.length || !v.startsWith(prefix)) return null;
  // Keys are short: a loop over them costs less than a regular expression's call.
  for (let i = prefix.length; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) return null;
  }
  return v.slice(prefix.length);
}

/** A value of the document as messages quote it: a JSON string of the core's excerpt, as every layer's messages. */
export function EX(v: unknown): string {
  return JSON.stringify(excerpt(String(v)));
}

const ALLOWED_LISTS = new WeakMap<Iterable<string>, string>();
/**
 * The values allowed-values constraints allow, as their messages list them: distinct, sorted, the first 12 and how many
 * more. Worked out once per set or array of values.
 */
export function allowedList(values: Iterable<string>): string {
  let text = ALLOWED_LISTS.get(values);
  if (text === undefined) {
    const sorted = [...new Set(values)].sort();
    const shown = sorted.slice(0, 12).map((v) => JSON.stringify(v)).join(", ");
    ALLOWED_LISTS.set(values, (text = sorted.length > 12 ? `${shown}, ... (${sorted.length - 12} more)` : shown));
  }
  return text;
}

/**
 * The message of a value that allowed-values constraints do not allow, as the packs write it: the value (a quoted
 * excerpt), where it was found when that is known, the values allowed (`allowedList`), and what ends it (the source).
 */
export function notAllowed(value: string, where: string | undefined, allowed: string, ending: string): string {
  return `Value ${value} is not allowed${where === undefined ? "" : ` for ${where}`}; allowed: ${allowed}${ending}`;
}

/**
 * The message of a value that NIST's allowed-values constraints do not allow: what the value is (`The property name`),
 * the value (a quoted excerpt), where the values apply (`here`, `for a property in the OSCAL namespace`), the values
 * allowed (`allowedList`).
 */
export function notOneOf(subject: string, value: string, where: string, allowed: string): string {
  return `${subject} ${value} is not one of the values allowed ${where}: ${allowed}.`;
}

/** Excerpt of a key of several fields (KEYN): the fields' values separated by commas, an empty one left empty. */
export function EXKEY(key: string): string {
  return EX(key.split("\u0000").join("").split("\u001f").join(", "));
}
