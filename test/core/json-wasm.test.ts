// The structure scan runs in WebAssembly where it can and in JavaScript elsewhere: both must give the same answers, on
// the corpus and on texts built around what the scan looks for (depth at the limit, repeats, escapes, block edges).
import { describe, expect, it } from "vitest";
import { MAX_NESTING_DEPTH, scanJsonBytesInJs } from "../../runtime/core/json-structure.js";
import { wasmScanJsonBytes } from "../../runtime/core/json-wasm.js";
import { listCorpus, readCorpusBytes } from "../helpers/corpus.js";

const encode = (text: string) => new TextEncoder().encode(text);

function bothScans(text: string) {
  const bytes = encode(text);
  JSON.parse(text); // the scan's precondition
  return { wasm: wasmScanJsonBytes(bytes), js: scanJsonBytesInJs(bytes) };
}

/** A string of `length` bytes that ends at a chosen offset from a 16-byte block edge. */
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
    for (let pad = 0; pad < 40; pad++) {
      for (const text of [`{"${filler(pad)}":1,"${filler(pad)}":2}`, `["${filler(pad)}\\u001f"]`, `[{"a":"${filler(pad)}\\\\"},{"a":1}]`]) {
        const { wasm, js } = bothScans(text);
        expect(wasm, text).toEqual(js);
      }
    }
  });

  it("sends an object with more names than it tracks to the exact pass, which finds nothing there", () => {
    const many = JSON.stringify(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`name${i}`, i])));
    expect(bothScans(many)).toEqual({ wasm: { tooDeep: false, needsTextPass: true }, js: { tooDeep: false, needsTextPass: false } });
  });

  it("agrees with the JavaScript scan on every corpus document", () => {
    for (const document of listCorpus()) {
      const bytes = readCorpusBytes(document);
      expect(wasmScanJsonBytes(bytes), document.file).toEqual(scanJsonBytesInJs(bytes));
    }
  });
});
