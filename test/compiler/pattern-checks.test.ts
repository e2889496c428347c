// The plain-code checks that stand in for datatype patterns in the emitted validators must accept exactly what the
// patterns accept: compared here on every short string over alphabets of the characters each pattern distinguishes.
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { COMMON_URI, COMMON_URI_REFERENCE, PATTERN_CHECKS, replacePatternChecks, withCommonUrisFirst } from "../../compiler/pattern-checks.js";

type Check = { test(text: string): boolean };

function checkOf(index: number): { check: Check; pattern: RegExp } {
  const { source, flags, code } = PATTERN_CHECKS[index]!;
  return { check: new Function(`return ${code};`)() as Check, pattern: new RegExp(source, flags) };
}

const ALL_ASCII = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
/** Beyond ASCII: letters, numbers, spaces, line separators, a lone surrogate of each kind and a surrogate pair. */
const BEYOND_ASCII = ["é", "ß", "Ж", "中", "٣", "²", "Ⅻ", "\u00a0", "\u2028", "\u2029", "\ufeff", "\ud800", "\udc00", "\ud835\udc00", "\ud83d\ude00", "·"];

function* stringsUpTo(alphabet: readonly string[], maxLength: number): Generator<string> {
  let level = [""];
  yield "";
  for (let length = 1; length <= maxLength; length++) {
    const next: string[] = [];
    for (const prefix of level) for (const symbol of alphabet) next.push(prefix + symbol);
    yield* next;
    level = next;
  }
}

function disagreements(check: Check, pattern: RegExp, texts: Iterable<string>): string[] {
  const found: string[] = [];
  for (const text of texts) if (check.test(text) !== pattern.test(text)) found.push(text);
  return found;
}

const indexOf = (source: string) => PATTERN_CHECKS.findIndex((check) => check.source === source);

describe("pattern checks", () => {
  const UUID_SOURCE = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[45][0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$";

  it("covers the string, single-line, token and UUID patterns", () => {
    expect(PATTERN_CHECKS.map((check) => check.source)).toEqual(["^[^\\t\\n\\r ]([^\\n\\r]*[^\\t\\n\\r ])?$", "^[^\n]+$", "^(\\p{L}|_)(\\p{L}|\\p{N}|[.\\-_])*$", UUID_SOURCE]);
  });

  it("UUID: every one-character change, insertion and deletion of UUIDs of each version and variant", () => {
    const { check, pattern } = checkOf(indexOf(UUID_SOURCE));
    const characters = [...ALL_ASCII, ...BEYOND_ASCII, ...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c + 0x100))];
    const texts: string[] = [];
    for (const [version, variant] of [["4", "8"], ["5", "b"], ["4", "A"], ["5", "B"], ["4", "9"], ["5", "a"]]) {
      const uuid = `0a1B2c3D-4e5F-${version}6a7-${variant}8c9-AbCdEf012345`;
      texts.push(uuid, uuid.toUpperCase(), uuid.toLowerCase());
      for (let at = 0; at <= uuid.length; at++) {
        texts.push(uuid.slice(0, at) + uuid.slice(at + 1));
        for (const c of characters) texts.push(uuid.slice(0, at) + c + uuid.slice(at + 1), uuid.slice(0, at) + c + uuid.slice(at));
      }
    }
    expect(texts.filter((text) => pattern.test(text)).length).toBeGreaterThan(6 * 36 * 10);
    expect(disagreements(check, pattern, texts)).toEqual([]);
    expect(disagreements(check, pattern, stringsUpTo([...ALL_ASCII, ...BEYOND_ASCII], 2))).toEqual([]);
  });

  it("string: every string of up to 4 characters over the characters it distinguishes", () => {
    const { check, pattern } = checkOf(indexOf("^[^\\t\\n\\r ]([^\\n\\r]*[^\\t\\n\\r ])?$"));
    const alphabet = ["a", " ", "\t", "\n", "\r", "\u000b", "\u00a0", "\u2028", "\ud800", "\udc00", "\ud835\udc00"];
    expect(disagreements(check, pattern, stringsUpTo(alphabet, 4))).toEqual([]);
    expect(disagreements(check, pattern, stringsUpTo([...ALL_ASCII, ...BEYOND_ASCII], 2))).toEqual([]);
  });

  it("single line: every string of up to 4 characters over the characters it distinguishes", () => {
    const { check, pattern } = checkOf(indexOf("^[^\n]+$"));
    expect(disagreements(check, pattern, stringsUpTo(["a", "\n", "\r", "\u2028", "\ud800", "\ud835\udc00"], 4))).toEqual([]);
    expect(disagreements(check, pattern, stringsUpTo([...ALL_ASCII, ...BEYOND_ASCII], 2))).toEqual([]);
  });

  it("token: every string of up to 4 characters over the characters it distinguishes", () => {
    const { check, pattern } = checkOf(indexOf("^(\\p{L}|_)(\\p{L}|\\p{N}|[.\\-_])*$"));
    // Letters (one a surrogate pair), numbers of each kind, the three punctuation marks, and what is none of them.
    const alphabet = ["a", "Z", "é", "\ud835\udc00", "7", "٣", "²", "Ⅻ", "_", ".", "-", " ", ":", "\ud83d\ude00", "\ud800"];
    expect(disagreements(check, pattern, stringsUpTo(alphabet, 4))).toEqual([]);
    expect(disagreements(check, pattern, stringsUpTo([...ALL_ASCII, ...BEYOND_ASCII], 2))).toEqual([]);
  });

  it("replaces only the definitions of listed patterns, with the flags they were listed with", () => {
    const code = 'const pattern0 = new RegExp("^[^\\n]+$", "u");const pattern1 = new RegExp("^[^\\n]+$", "");const pattern2 = new RegExp("^a$", "u");';
    const replaced = replacePatternChecks(code);
    expect(replaced).not.toContain('const pattern0 = new RegExp');
    expect(replaced).toContain('const pattern1 = new RegExp("^[^\\n]+$", "");');
    expect(replaced).toContain('const pattern2 = new RegExp("^a$", "u");');
  });

  const fullFormats = (createRequire(import.meta.url)("ajv-formats/dist/formats") as { fullFormats: { uri: (text: string) => boolean; "uri-reference": RegExp } }).fullFormats;
  const fullUriReference = (text: string) => fullFormats["uri-reference"].test(text);

  for (const [format, commonSource, full, examples] of [
    ["uri", COMMON_URI, fullFormats.uri, ["http://csrc.nist.gov/ns/oscal", "https://doi.org/10.6028/NIST.SP.800-53r5", "HTTPS://Example.com/a/b?x=1&y=2#top", "urn:edu.uoft.tax", "file:../../validation.yaml", "mailto:a@b.c"]],
    ["uri-reference", COMMON_URI_REFERENCE, fullUriReference, ["#ac-1", "#3a7c0b2e-8a1f-4b6e-9c3d-2f1e0a9b8c7d", "https://fedramp.gov/x.json#part", "", "?q", "./img/logo.png", "../../catalog.json#ac-1", "//path/to/ssp.json", "/a/b", "60f92bcf-f353-4236-9803-2a5d417555f4"]],
  ] as const) {
    it(`common ${format}s: every string the shortcut accepts, the full format accepts, on every short string in each part`, () => {
      const common = new RegExp(commonSource, "i");
      const alphabet = ["a", "Z", "0", "+", "-", ".", "_", "~", ":", "/", "?", "#", "[", "]", "@", "!", "$", "&", "'", "(", ")", "*", ",", ";", "=", "%", " ", "é", '"', "\\"];
      const accepted: string[] = [];
      const wrong: string[] = [];
      // The characters go in every part: before and in the scheme, after its colon, in the host, the path, the query
      // and the fragment.
      const shapes = [(c: string) => c, (c: string) => `${c}a://h`, (c: string) => `a${c}://h`, (c: string) => `a:${c}//h`, (c: string) => `a://${c}`, (c: string) => `${c}/p`, (c: string) => `a:${c}/p`];
      // After a scheme or none: "//" and a host, an absolute path, a relative one, and what follows each.
      for (const part of ["a://h", "a://h/", "a://h/p/", "a://h?", "a://h#f", "#", "?", "a:", "a:/", "a:p/", "a:p?", "//", "//h/", "/", "/p/", "p/", "./", "../p", "p?", "p#"]) shapes.push((c: string) => part + c);
      for (const shape of shapes) {
        for (const characters of stringsUpTo(alphabet, 3)) {
          const text = shape(characters);
          if (!common.test(text)) continue;
          accepted.push(text);
          if (!full(text)) wrong.push(text);
        }
      }
      expect(wrong).toEqual([]);
      expect(accepted.length).toBeGreaterThan(50_000);
      for (const example of examples) expect(common.test(example), example).toBe(true);
    });
  }

  it("the uri formats try the common shape first and answer as the full formats do", () => {
    const literal = `/${fullFormats["uri-reference"].source}/${fullFormats["uri-reference"].flags}`;
    const code = `const formats4 = require("ajv-formats/dist/formats").fullFormats.uri;const formats5 = ${literal};`;
    const rewritten = withCommonUrisFirst(code);
    expect(rewritten).toContain("formats4Common.test(text) || formats4Full(text)");
    expect(rewritten).toContain("formats5Common.test(text) || formats5Full.test(text)");
    const [uri, uriReference] = new Function("require", `${rewritten} return [formats4, formats5];`)(createRequire(import.meta.url)) as [(text: string) => boolean, RegExp];
    for (const [text, valid] of [["http://csrc.nist.gov/ns/oscal", true], ["urn:ietf:rfc:3986", true], ["http://h:8080/%20", true], ["no scheme", false], ["a://h/ space", false]] as const) expect(uri(text), text).toBe(valid);
    for (const [text, valid] of [["#ac-1", true], ["../x.json", true], ["http://h:8080/%20", true], ["#a b", false], ["a://h/ space", false]] as const) expect(uriReference.test(text), text).toBe(valid);
  });
});
