// The structure scan runs in WebAssembly where it can and in JavaScript elsewhere: both must give the same answers, on
// the corpus and on texts built around what the scan looks for (depth at the limit, repeats, escapes, block edges).
import { describe, expect, it } from "vitest";
import { MAX_NESTING_DEPTH, scanJsonBytesInJs } from "../../runtime/core/json-structure.js";
import { documentBuffer, wasmScanJsonBytes, withResidentDocument } from "../../runtime/core/json-wasm.js";
import { validateBytes } from "../../runtime/core/validate.js";
import { asciiJsonText } from "../../runtime/core/json-text.js";
import { listCorpus, readCorpusBytes } from "../helpers/corpus.js";
import { SeededRandom } from "../agreement/prng.js";

const encode = (text: string) => new TextEncoder().encode(text);

/**
 * The scan the compaction makes on its way, for a document kept resident (as validateBytes keeps it). The compaction
 * scans whether or not the one-byte text is then made (it is not for a non-ASCII character after a backslash).
 */
function scanMadeByCompaction(bytes: Uint8Array) {
  return withResidentDocument(bytes, () => {
    asciiJsonText(bytes);
    return wasmScanJsonBytes(bytes);
  });
}

function bothScans(text: string) {
  const bytes = encode(text);
  JSON.parse(text); // the scan's precondition
  const wasm = wasmScanJsonBytes(bytes);
  // The compaction's scan is checked here too, so that every text below tests both.
  expect(scanMadeByCompaction(bytes), text).toEqual(wasm);
  return { wasm, js: scanJsonBytesInJs(bytes) };
}

/** A string of `length` bytes that ends at a chosen offset from a 16- or 64-byte block edge. */
const filler = (length: number) => "x".repeat(length);

const texts: Record<string, string> = {
  "a repeated name": '{"a":1,"b":2,"a":3}',
  "the same name in nested objects": '{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}',
  "a name spelled with an escape": '{"\\u0061":1,"b":2}',
  "an escaped NUL in a value": '["\\u0000"]',
  "an escaped tab, line feed and carriage return": '["\\u0009\\u000a\\u000D"]',
  "a lone high surrogate": '["\\ud800"]',
  "a lone low surrogate in capitals": '["\\uDC00"]',
  "a surrogate pair": '["\\uD83D\\uDE00"]',
  "an escaped backslash before u": '["\\\\u0000"]',
  "escaped quotes and brackets inside strings": '{"a":"\\"{[,]}\\"","b":"]}","c":[",{"]}',
  "nesting at the limit": "[".repeat(MAX_NESTING_DEPTH) + "]".repeat(MAX_NESTING_DEPTH),
  "nesting past the limit": "[".repeat(MAX_NESTING_DEPTH + 1) + "]".repeat(MAX_NESTING_DEPTH + 1),
  "objects nested past the limit": '{"a":'.repeat(MAX_NESTING_DEPTH + 1) + "1" + "}".repeat(MAX_NESTING_DEPTH + 1),
  "a repeat after a name and values that cross block edges": `{"${filler(29)}":"${filler(47)}\\"","z":[${'"y",'.repeat(9)}1],"${filler(29)}":0}`,
  "a lone surrogate escape split across a block edge": `["${filler(12)}\\udfff"]`,
  "a scalar document": '"just a string"',
  "whitespace between names and their colons": '{"a" :1,"b"\n\t: {"a"  :2}, "a"\r\n:3}',
  "a colon inside a string value": '{"a":"b:c","b":"a:"}',
};

describe("the WebAssembly structure scan", () => {
  it("runs here (Node.js has WebAssembly with SIMD)", () => {
    expect(wasmScanJsonBytes(encode("{}"))).toEqual({ tooDeep: false, needsTextPass: false });
  });

  for (const [what, text] of Object.entries(texts)) {
    it(`agrees with the JavaScript scan: ${what}`, () => {
      const { wasm, js } = bothScans(text);
      expect(wasm).toEqual(js);
    });
  }

  it("agrees for every offset of a repeat and of an escape against the block edges", () => {
    for (let pad = 0; pad < 140; pad++) {
      for (const text of [
        `{"${filler(pad)}":1,"${filler(pad)}":2}`,
        `["${filler(pad)}\\u001f"]`,
        `[{"a":"${filler(pad)}\\\\"},{"a":1}]`,
        `[{"a":"${filler(pad)}\\\\\\"\\\\","a":1}]`,
        `[{"${filler(pad)}\\"":1,"${filler(pad)}\\"":2}]`,
        `{"a":"${filler(pad)}","b":{"a":[1,{"b":2}],"a":3}}`,
      ]) {
        const { wasm, js } = bothScans(text);
        expect(wasm, text).toEqual(js);
      }
    }
  });

  it("tells apart names of one length that differ in one byte, wherever it is", () => {
    for (let length = 1; length <= 48; length++) {
      for (let at = 0; at < length; at++) {
        const name = (byte: string) => filler(at) + byte + filler(length - at - 1);
        const { wasm, js } = bothScans(`{"${name("a")}":1,"${name("b")}":2}`);
        expect(wasm, `${length} ${at}`).toEqual(js);
      }
    }
  });

  it("sends an object with more names than it tracks to the exact pass, which finds nothing there", () => {
    const many = JSON.stringify(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`name${i}`, i])));
    expect(bothScans(many)).toEqual({ wasm: { tooDeep: false, needsTextPass: true }, js: { tooDeep: false, needsTextPass: false } });
  });

  it("agrees with the JavaScript scan on random texts made of what it looks for", () => {
    const random = new SeededRandom(20261124);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random.next() * items.length)]!;
    const pieces = ["a", "b", "x".repeat(20), "y".repeat(61), "z".repeat(63), "\\\\", '\\"', "\\u0000", "\\u001F", "\\ud800", "\\u0041", "\\n", "{", "[", ",", ":", "é", "\\\\u0000"];
    const text = () => Array.from({ length: Math.floor(random.next() * 10) }, () => pick(pieces)).join("");
    const value = (depth: number): string => {
      const kind = random.next();
      if (depth > 6 || kind < 0.4) return pick([`"${text()}"`, "1", "true", "null"]);
      const count = Math.floor(random.next() * 5);
      if (kind < 0.6) return `[${Array.from({ length: count }, () => value(depth + 1)).join(",")}]`;
      return `{${Array.from({ length: count }, () => `"${pick(["a", "b", text()])}":${value(depth + 1)}`).join(", ")}}`;
    };
    for (let i = 0; i < 3000; i++) {
      const document = value(0);
      const { wasm, js } = bothScans(document);
      expect(wasm, document).toEqual(js);
    }
  });

  it("agrees with the JavaScript scan on every corpus document, on its own and made by the compaction", () => {
    for (const document of listCorpus()) {
      const bytes = readCorpusBytes(document);
      const js = scanJsonBytesInJs(bytes);
      expect(wasmScanJsonBytes(bytes), document.file).toEqual(js);
      expect(scanMadeByCompaction(bytes), document.file).toEqual(js);
    }
  });

  // The compaction reads a text before JSON.parse has accepted it: whatever it holds, the scan on its way must end
  // without reading or writing out of bounds, and the text is then refused as before.
  const notJson: Record<string, string> = {
    "more closing brackets than opening ones": "]]]}},,[1,2]" + "[".repeat(40),
    "a member name that never closes, after a backslash": '{"a\\',
    "an escape at the very end": '["\\u',
    "control characters where separators go": "\u0002\u001a\u000c".repeat(50),
    "deep nesting, then closing past the top": "[".repeat(300) + "]".repeat(600),
  };
  for (const [what, text] of Object.entries(notJson)) {
    it(`is made by the compaction of a text that is not JSON without harm: ${what}`, () => {
      const bytes = encode(text);
      expect(() => JSON.parse(text)).toThrow();
      withResidentDocument(bytes, () => asciiJsonText(bytes));
      expect(validateBytes(bytes)).toMatchObject({ kind: "body-error", error: { code: expect.stringMatching(/^ERR_(INVALID_JSON|PAYLOAD_TOO_LARGE)$/) } });
    });
  }

  it("reads nothing past the document when a member name never closes", () => {
    // A large document first, so that the module's memory is dropped after it (see KEPT_MEMORY_BYTES): the unclosed
    // name is then followed by memory never written, which holds no quote that would end the search by chance.
    expect(validateBytes(encode(`["${filler(6_500_000)}"]`))).toMatchObject({ kind: "body-error", error: { code: "ERR_UNKNOWN_MODEL" } });
    const unclosed = encode(`{"${filler(200)}`);
    // Called directly: validateBytes would take a fault of the compaction for text that is not JSON, and decode instead.
    expect(withResidentDocument(unclosed, () => asciiJsonText(unclosed))).toBe(`{"${filler(200)}`);
  });
});

describe("a resident document", () => {
  const repeated = encode('{"a":1,"a":2}');
  const distinct = encode('{"a":1,"b":2}');
  it("is read again after its bytes change outside the scope that kept it", () => {
    const bytes = Uint8Array.from(distinct);
    withResidentDocument(bytes, () => expect(wasmScanJsonBytes(bytes)?.needsTextPass).toBe(false));
    bytes.set(repeated);
    expect(wasmScanJsonBytes(bytes)?.needsTextPass).toBe(true);
  });
  it("is copied in again after another document took its place", () => {
    withResidentDocument(repeated, () => {
      expect(wasmScanJsonBytes(repeated)?.needsTextPass).toBe(true);
      expect(wasmScanJsonBytes(distinct)?.needsTextPass).toBe(false);
      expect(wasmScanJsonBytes(repeated)?.needsTextPass).toBe(true);
    });
  });
  it("stays as it was for the scan after its escaped text is made", () => {
    // Escaped, the names would hold backslashes, which send a text to the exact pass; as written, they do not.
    const bytes = encode('{"é":1,"è":2}');
    withResidentDocument(bytes, () => {
      expect(asciiJsonText(bytes)).toBe('{"\\u00e9":1,"\\u00e8":2}');
      expect(wasmScanJsonBytes(bytes)).toEqual({ tooDeep: false, needsTextPass: false });
    });
  });
});

describe("a document read into the module's memory", () => {
  /** The document read into a documentBuffer, as the CLI reads a file. */
  function readIn(bytes: Uint8Array): Uint8Array {
    const view = documentBuffer(bytes.length)!;
    view.set(bytes);
    return view;
  }
  const withNonAscii = encode('{"catalog":{"uuid":"nope","metadata":{"title":"Sécurité — contrôles","version":"1"}},"é":1,"é":2}');
  const documents: Record<string, Uint8Array> = {
    "a corpus document with findings at full": readCorpusBytes(listCorpus().find((document) => document.file === "catalog/trestle-soc2-catalog.json")!),
    "a document with non-ASCII text, a repeated name and schema findings": withNonAscii,
    "a document after a byte-order mark": Uint8Array.from([0xef, 0xbb, 0xbf, ...withNonAscii]),
    "text that is not JSON": encode('{"catalog": '),
    // Its escaped text needs more memory than the module has at this point: the view must not be detached by a growth.
    "a document of 5 MB of non-ASCII text": encode(`{"catalog":{"uuid":"nope","metadata":{"title":"${"é".repeat(2_500_000)}"}}}`),
  };
  for (const [what, bytes] of Object.entries(documents)) {
    it(`is validated where it is, as a copy would be: ${what}`, () => {
      // The view first: the copy's validation would grow the module's memory ahead of it.
      const view = readIn(bytes);
      const outcome = validateBytes(view, { level: "full" });
      // Neither changed nor detached (a grown memory would leave the view empty).
      expect(Buffer.from(view).equals(bytes)).toBe(true);
      const expected = validateBytes(Uint8Array.from(bytes), { level: "full" });
      if (outcome.kind === "report") outcome.report.meta.durationMs = expected.kind === "report" ? expected.report.meta.durationMs : 0;
      expect(outcome).toEqual(expected);
    });
  }

  it("keeps what was read while another document is loaded during its validation", () => {
    const view = readIn(encode('{"a":1,"a":2}'));
    withResidentDocument(view, () => {
      expect(wasmScanJsonBytes(view)?.needsTextPass).toBe(true);
      expect(asciiJsonText(encode('{"b":"é","c":[1,2,3]}'))).toBe('{"b":"\\u00e9","c":[1,2,3]}');
      expect(wasmScanJsonBytes(encode('{"a":1,"b":2}'))?.needsTextPass).toBe(false);
      expect(wasmScanJsonBytes(view)?.needsTextPass).toBe(true);
    });
    expect(new TextDecoder().decode(view)).toBe('{"a":1,"a":2}');
  });

  it("is not lent during a validation, whose document the memory holds", () => {
    const view = readIn(encode('{"a":1,"a":2}'));
    withResidentDocument(view, () => {
      expect(wasmScanJsonBytes(view)?.needsTextPass).toBe(true);
      expect(documentBuffer(13)).toBeUndefined();
      expect(wasmScanJsonBytes(view)?.needsTextPass).toBe(true);
    });
    expect(new TextDecoder().decode(view)).toBe('{"a":1,"a":2}');
  });

  it("is lent for a document of a few megabytes, not for a larger one, and validation goes on as before", () => {
    expect(documentBuffer(4_000_000)).toHaveLength(4_000_000);
    expect(documentBuffer(12_000_000)).toBeUndefined();
    expect(validateBytes(encode('{"a":1}'))).toMatchObject({ kind: "body-error", error: { code: "ERR_UNKNOWN_MODEL" } });
  });
});
