// The one-byte JSON text must parse to exactly what the decoded document parses to, and must never turn invalid JSON
// into valid JSON; errors are still located on the document's own characters. In WebAssembly the text also leaves out
// the whitespace JSON.parse would skip (compact in compiler/json-wasm/json-wasm.wat), checked here against a reading
// of the same rule one character at a time.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { parseBody } from "../../runtime/core/body.js";
import { asciiJsonText, asciiJsonTextInJs } from "../../runtime/core/json-text.js";
import { listCorpus } from "../helpers/corpus.js";

const encode = (text: string) => new TextEncoder().encode(text);
const decodedParse = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));

/** Text whose non-ASCII characters (2, 3 and 4 UTF-8 bytes) fall on and around the 1 KiB and 64 KiB block edges. */
function straddlingDocument(): string {
  const characters = ["é", "’", "€", "😀", "𝔘"];
  const values: string[] = [];
  for (const edge of [1024, 2048, 65_536, 131_072]) {
    for (let shift = -4; shift <= 4; shift++) {
      const prefix = `{"v":["`.length;
      const padding = "a".repeat(Math.max(0, edge + shift - prefix - values.join('","').length - 3));
      values.push(padding + characters[(edge + shift) % characters.length]!);
    }
  }
  return JSON.stringify({ v: values, "clé 😀": "ünïcödé", ascii: "plain" });
}

/**
 * The compaction's rule, a character at a time: outside strings, a run of JSON whitespace is left out when the
 * character before it is a separator (quote, bracket, brace, comma, colon; and the control characters the module's
 * table also matches, which are invalid there) or the text's start; any other run is kept whole. As in the module, a
 * backslash escapes the next character wherever it stands, so an escaped quote (outside a string, where the text is
 * invalid anyway) opens no string.
 */
function compactedByRule(text: string): string {
  const separators = new Set(['"', ",", ":", "[", "]", "{", "}", "\x02", "\x0c", "\x1a"]);
  const whitespace = new Set([" ", "\t", "\n", "\r"]);
  let out = "";
  let inString = false;
  let escaped = false;
  let dropping = true;
  for (const character of text) {
    if (inString) {
      out += character;
      if (escaped) escaped = false;
      else if (character === "\\") escaped = true;
      else if (character === '"') inString = false;
      dropping = character === '"' && !inString;
      continue;
    }
    const isEscaped: boolean = escaped;
    escaped = !isEscaped && character === "\\";
    if (whitespace.has(character)) {
      if (!dropping) out += character;
      continue;
    }
    out += character;
    inString = character === '"' && !isEscaped;
    dropping = separators.has(character);
  }
  return out;
}

/** Whether JSON.parse accepts the text, and what it makes of it. */
function parsed(text: string | undefined): { ok: boolean; value?: unknown } {
  if (text === undefined) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

describe("one-byte JSON text in WebAssembly, without the whitespace JSON.parse skips", () => {
  it("leaves out indentation and the spaces after separators, and nothing inside strings", () => {
    const text = '\r\n {\n  "a b" : [ 1 , 2 ],\n\t"c": "x \\" y",\n  "d": {\n  }\n}\n';
    expect(asciiJsonText(encode(text))).toBe('{"a b":[1 ,2 ],"c":"x \\" y","d":{}}');
    // Outside a string, an escaped quote opens none: what follows it is still outside (the text is invalid either way).
    expect(asciiJsonText(encode('[\\"  ,1]'))).toBe('[\\",1]');
  });

  it("keeps whitespace after other tokens, so that none run together and invalid JSON stays invalid", () => {
    for (const text of ["[1 2]", "[tru e]", "[- 1]", "[1 .5]", "[1 e5]", "[true false]", "[1\n2]", '["a" "b"]', '{"a" 1}', "[nul\tl]"]) {
      expect(parsed(asciiJsonText(encode(text))).ok, text).toBe(false);
    }
    expect(asciiJsonText(encode("[true ,null\n]"))).toBe("[true ,null\n]");
  });

  it("follows the rule on texts made of the characters it acts on, across its 64-byte chunks", () => {
    // Seeded, so that a failure repeats: runs of whitespace and strings of every length cross the chunk edges.
    let seed = 12345;
    const random = (below: number) => Math.floor(((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) * below);
    const pieces = ['"', "\\", ",", ":", "[", "]", "{", "}", " ", "\n", "\t", "\r", "a", "1", "-", ".", "é", "😀", "\x02", "\x0c", "\x1a", "\x01"];
    for (let round = 0; round < 1000; round++) {
      let text = "";
      const length = random(300);
      for (let i = 0; i < length; i++) text += random(4) === 0 ? " ".repeat(random(80)) : pieces[random(pieces.length)]!;
      const oneByte = asciiJsonText(encode(text));
      expect(oneByte, JSON.stringify(text)).toBe(asciiJsonTextInJs(encode(compactedByRule(text))));
      // Undefined sends the text to the decoder, which is always right; a text made must keep the verdict.
      if (oneByte !== undefined) expect(parsed(oneByte).ok, JSON.stringify(text)).toBe(parsed(text).ok);
    }
  });

  it("parses every corpus document to the same values, in about three fifths of its bytes", () => {
    let bytesIn = 0;
    let bytesOut = 0;
    for (const document of listCorpus()) {
      const bytes = new Uint8Array(readFileSync(document.absolutePath));
      const text = asciiJsonText(bytes)!;
      expect(isDeepStrictEqual(JSON.parse(text), decodedParse(bytes)), document.file).toBe(true);
      bytesIn += bytes.length;
      bytesOut += text.length;
    }
    expect(bytesOut / bytesIn).toBeLessThan(0.65);
  });
});

describe.each([
  ["in WebAssembly", asciiJsonText],
  ["in JavaScript", asciiJsonTextInJs],
])("one-byte JSON text %s", (_, asciiJsonText) => {
  it("is the same text either way for text without whitespace, with the same escapes", () => {
    // The last two are mostly non-ASCII, so they grow nearly as much as a text can: the in-place escaping makes room.
    for (const text of [straddlingDocument(), '{"a":"é\\u00e9\\"","b":"😀"}', "[" + '"ü",'.repeat(5000) + "1]", "[" + '"😀ü"'.repeat(3000).replaceAll('""', '","') + "]"]) {
      expect(asciiJsonText(encode(text))).toBe(asciiJsonTextInJs(encode(text)));
    }
  });

  it("parses to the same values as the decoded text, for characters of every UTF-8 length at block edges", () => {
    const bytes = encode(straddlingDocument());
    expect(/[^\x00-\x7f]/.test(asciiJsonText(bytes)!)).toBe(false);
    expect(JSON.parse(asciiJsonText(bytes)!)).toEqual(decodedParse(bytes));
  });

  it("parses every corpus document that holds non-ASCII characters to the same values", () => {
    let nonAscii = 0;
    for (const document of listCorpus()) {
      const bytes = new Uint8Array(readFileSync(document.absolutePath));
      if (bytes.every((byte) => byte < 0x80)) continue;
      nonAscii++;
      expect(isDeepStrictEqual(JSON.parse(asciiJsonText(bytes)!), decodedParse(bytes)), document.file).toBe(true);
    }
    expect(nonAscii).toBeGreaterThan(10);
  });

  it("drops a byte-order mark", () => {
    expect(asciiJsonText(new Uint8Array([0xef, 0xbb, 0xbf, ...encode('{"a":"é"}')]))).toBe('{"a":"\\u00e9"}');
  });

  it("does not apply to bytes that are not UTF-8, nor to a non-ASCII character after a backslash", () => {
    expect(asciiJsonText(new Uint8Array([0x22, 0xc3, 0x28, 0x22]))).toBeUndefined();
    expect(asciiJsonText(encode('{"a":"\\é"}'))).toBeUndefined();
    expect(asciiJsonText(encode("[" + '"ü",'.repeat(5000) + '"\\é"]'))).toBeUndefined();
  });

  it("does not apply to bytes that are not UTF-8, wherever they stand against the 64-byte chunks", () => {
    const malformed = [[0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0x80], [0xe2, 0x82], [0xc3]];
    for (let pad = 0; pad < 70; pad++) {
      for (const sequence of malformed) {
        const bytes = Uint8Array.from([...encode(`["${"a".repeat(pad)}`), ...sequence, ...encode('"]')]);
        expect(asciiJsonText(bytes), `${pad} ${sequence}`).toBeUndefined();
      }
      // Well-formed, the same characters are escaped wherever they stand, and at the document's very end too.
      const wellFormed = encode(`["${"a".repeat(pad)}é€😀\u00e9 ü"]`);
      expect(JSON.parse(asciiJsonText(wellFormed)!), `${pad}`).toEqual(decodedParse(wellFormed));
      expect(asciiJsonText(Uint8Array.from([...encode(`${" ".repeat(pad)}"`), 0xe2, 0x82])), `${pad}`).toBeUndefined();
    }
  });

  it("leaves mostly non-ASCII text to the decoder, which parses it the same", () => {
    const bytes = encode(JSON.stringify({ catalog: { title: "é€😀".repeat(200_000), note: "a".repeat(1000) } }));
    expect(asciiJsonText(bytes)).toBeUndefined();
    expect(parseBody(bytes)).toEqual({ ok: true, document: decodedParse(bytes), findings: [] });
  });

  it.each([
    ["a non-ASCII character after a backslash", '{\n  "a": "x\\é"\n}', 2, 10],
    ["a non-ASCII character outside strings", '{\n  "a": é\n}', 2, 8],
    // Columns count UTF-16 code units, as editors do: 😀 takes two.
    ["an error after non-ASCII characters", '{"é€😀": 1,,}', 1, 12],
  ])("keeps %s invalid, located on the document's characters", (_, text, line, column) => {
    expect(parseBody(encode(text))).toEqual({ ok: false, error: expect.objectContaining({ code: "ERR_INVALID_JSON", line, column }) });
  });
});
