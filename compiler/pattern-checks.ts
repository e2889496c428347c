// Plain-code equivalents of the string datatype patterns that V8's regular-expression engine runs slowest for what they
// check: StringDatatype's (no line break; no leading or trailing space, tab or line break) and the single-line one.
// They hold for most of a document's strings, prose included, and the engine walks every character of each, where
// these checks look at two characters and let a native search find line breaks (about twice as fast on OSCAL text).
// Each check accepts exactly the strings its pattern accepts (test/compiler/pattern-checks.test.ts compares them on
// every short string over the characters the pattern distinguishes, and the UUID check on every one-character change
// of UUIDs), and the validators call it only on strings (Ajv applies `pattern` to strings alone). The token pattern
// becomes the same language written with character classes instead of alternations in capturing groups, which the
// engine matches about a third faster (it is the pattern of every id, name and class). The UUID check looks at its fixed positions in plain code: on strings JSON.parse has just
// made, as validators meet them, that is about twice as fast as the engine (which is as fast only on strings it has
// matched before). The `uri` and `uri-reference` formats get a shortcut for the common shape of a URI (below).

import { createRequire } from "node:module";

export interface PatternCheck {
  /** The pattern as the schema writes it, with the flags Ajv compiles it with. */
  source: string;
  flags: string;
  /** An expression of an object with a `test(text)` method, standing in for `new RegExp(source, flags)`. */
  code: string;
}

const STRING = "^[^\\t\\n\\r ]([^\\n\\r]*[^\\t\\n\\r ])?$";
const SINGLE_LINE = "^[^\n]+$";
const TOKEN = "^(\\p{L}|_)(\\p{L}|\\p{N}|[.\\-_])*$";
const UUID = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[45][0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$";

// No CR or LF anywhere, and neither the first nor the last character is a tab, LF, CR or space (one character is
// both). A surrogate pair's units are never one of these, so looking at code units is looking at code points.
const STRING_CHECK = `{
  test(text) {
    const last = text.length - 1;
    if (last < 0) return false;
    const first = text.charCodeAt(0);
    const end = text.charCodeAt(last);
    return first !== 0x20 && first !== 0x09 && first !== 0x0a && first !== 0x0d && end !== 0x20 && end !== 0x09 && end !== 0x0a && end !== 0x0d && text.indexOf("\\n") === -1 && text.indexOf("\\r") === -1;
  },
}`;

const SINGLE_LINE_CHECK = `{
  test(text) {
    return text.length > 0 && text.indexOf("\\n") === -1;
  },
}`;

const TOKEN_CHECK = "/^[\\p{L}_][\\p{L}\\p{N}._-]*$/u";

// 36 code units: hyphens at 8, 13, 18 and 23, the version (4 or 5) at 14, the variant (8, 9, a or b, either case) at 19,
// hex digits elsewhere. A string with a surrogate pair is longer in code units than in code points, but holds no hex
// digit there either way.
const UUID_CHECK = `{
  digits: (() => {
    const digits = new Uint8Array(128);
    for (const digit of "0123456789abcdefABCDEF") digits[digit.charCodeAt(0)] = 1;
    return digits;
  })(),
  test(text) {
    if (text.length !== 36 || text.charCodeAt(8) !== 0x2d || text.charCodeAt(13) !== 0x2d || text.charCodeAt(18) !== 0x2d || text.charCodeAt(23) !== 0x2d) return false;
    const version = text.charCodeAt(14);
    const variant = text.charCodeAt(19);
    return (version === 0x34 || version === 0x35) && (variant === 0x38 || variant === 0x39 || variant === 0x61 || variant === 0x62 || variant === 0x41 || variant === 0x42) &&
      this.hex(text, 0, 8) && this.hex(text, 9, 13) && this.hex(text, 15, 18) && this.hex(text, 20, 23) && this.hex(text, 24, 36);
  },
  // A table, not comparisons: digits and letters alternate unpredictably, and the branches of comparisons made the
  // check slower than the engine.
  hex(text, from, to) {
    const digits = this.digits;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f || digits[c] === 0) return false;
    }
    return true;
  },
}`;

export const PATTERN_CHECKS: readonly PatternCheck[] = [
  { source: STRING, flags: "u", code: STRING_CHECK },
  { source: SINGLE_LINE, flags: "u", code: SINGLE_LINE_CHECK },
  { source: TOKEN, flags: "u", code: TOKEN_CHECK },
  { source: UUID, flags: "u", code: UUID_CHECK },
];

const PATTERN_DEFINITION = /const (pattern\d+) = new RegExp\(("(?:[^"\\]|\\.)*"), "([a-z]*)"\);/g;

/** Ajv's module-level `const patternN = new RegExp(...)` definitions of the listed patterns, replaced by their checks. */
export function replacePatternChecks(code: string): string {
  return code.replace(PATTERN_DEFINITION, (definition, name: string, literal: string, flags: string) => {
    const source = JSON.parse(literal) as string;
    const check = PATTERN_CHECKS.find((candidate) => candidate.source === source && candidate.flags === flags);
    return check === undefined ? definition : `const ${name} = ${check.code};`;
  });
}

// The characters of the common shapes below: those RFC 3986 allows unescaped in each part (no percent-escapes, which
// are rare in OSCAL).
const SCHEME = "[a-z][a-z0-9+\\-.]*:";
const HOST = "[a-z0-9\\-._~!$&'()*+,;=]*";
const SEGMENT_CHARACTER = "[a-z0-9\\-._~!$&'()*+,;=:@]";
const PATH_AFTER_HOST = `(?:\\/${SEGMENT_CHARACTER}*)*`;
const ROOTLESS_PATH = `${SEGMENT_CHARACTER}+(?:\\/${SEGMENT_CHARACTER}*)*`;
// "//" and a host name without user information or a port, an absolute path, or a relative one ("./a.json", "a/b").
const HIERARCHICAL_PART = `\\/\\/${HOST}${PATH_AFTER_HOST}|\\/(?:${ROOTLESS_PATH})?|${ROOTLESS_PATH}`;
const QUERY_AND_FRAGMENT = "(?:\\?[a-z0-9\\-._~!$&'()*+,;=:@/?]*)?(?:#[a-z0-9\\-._~!$&'()*+,;=:@/?]*)?";

/**
 * The shape of most URIs in OSCAL documents (a scheme, then "//", a host name and a path, or a path alone as in
 * "urn:..." and "file:../a.json", then a query and a fragment, without percent-escapes, user information or a port):
 * ajv-formats' full `uri` expression, which is a hundred times longer, costs three times as much per string and takes
 * milliseconds to compile in a cold process, accepts these strings too (test/compiler/pattern-checks.test.ts checks it
 * on every short string after each prefix that matters), so a string it accepts passes without the full one.
 */
export const COMMON_URI = `^${SCHEME}(?:${HIERARCHICAL_PART})${QUERY_AND_FRAGMENT}$`;

/**
 * The same for `uri-reference` (every href): the parts of a common URI, each optional, so that relative references
 * ("./attachments/a.pdf", "../catalog.json", "//host/a") and fragments of the document ("#ac-1") take the short
 * expression too. ajv-formats' expression is built the same way: an optional scheme, then an optional hierarchical
 * part of the same three forms.
 */
export const COMMON_URI_REFERENCE = `^(?:${SCHEME})?(?:${HIERARCHICAL_PART})?${QUERY_AND_FRAGMENT}$`;

const URI_FORMAT = /const (formats\d+) = (require\("ajv-formats\/dist\/formats"\)\.fullFormats\.uri);/g;
// Ajv inlines the uri-reference expression as a literal, written as ajv-formats' RegExp prints.
const uriReference = (createRequire(import.meta.url)("ajv-formats/dist/formats") as { fullFormats: Record<string, RegExp> }).fullFormats["uri-reference"]!;
const URI_REFERENCE_FORMAT = new RegExp(`const (formats\\d+) = (${`/${uriReference.source}/${uriReference.flags}`.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")});`, "g");

/**
 * Ajv's module-level references to the `uri` format (a function) and the `uri-reference` format (a regular expression,
 * inlined), replaced by ones that try the common shape first.
 */
export function withCommonUrisFirst(code: string): string {
  return code
    .replace(URI_FORMAT, (_, name: string, full: string) => `const ${name}Common = /${COMMON_URI}/i;const ${name}Full = ${full};const ${name} = (text) => ${name}Common.test(text) || ${name}Full(text);`)
    .replace(
      URI_REFERENCE_FORMAT,
      (_, name: string, full: string) => `const ${name}Common = /${COMMON_URI_REFERENCE}/i;const ${name}Full = ${full};const ${name} = { test: (text) => ${name}Common.test(text) || ${name}Full.test(text) };`,
    );
}
