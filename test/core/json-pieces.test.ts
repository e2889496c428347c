// A large document is parsed in pieces (runtime/core/json-pieces.ts, with the split points the compaction records):
// the value must be the one JSON.parse makes of the whole text, members in the same order, and a text JSON.parse
// refuses must be refused, as the whole text would be, on the way through parseBody.
import { describe, expect, it, vi } from "vitest";
import { parseBody } from "../../runtime/core/body.js";
import { PIECE_BYTES } from "../../runtime/core/json-pieces.js";
import { oneByteJson } from "../../runtime/core/json-text.js";
import { withResidentDocument } from "../../runtime/core/json-wasm.js";
import { listCorpus, readCorpusBytes } from "../helpers/corpus.js";
import { SeededRandom } from "../agreement/prng.js";

const encode = (text: string) => new TextEncoder().encode(text);
const decodedParse = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));

/** What validateBytes makes of the bytes: the value in pieces, or the text, or nothing. */
const madeOf = (bytes: Uint8Array) => withResidentDocument(bytes, () => oneByteJson(bytes));

/** The value parsed in pieces, which the test requires to be how it was made. */
function inPieces(bytes: Uint8Array): unknown {
  const made = madeOf(bytes);
  expect(made !== undefined && "value" in made, "parsed in pieces").toBe(true);
  return (made as { value: unknown }).value;
}

/** Same values, members in the same order. */
const sameAs = (value: unknown, expected: unknown) => expect(JSON.stringify(value)).toBe(JSON.stringify(expected));

/** A large document: an object whose members hold arrays of `count` copies of `item`, and `more` members besides. */
const large = (item: string, count: number, more = "") => `{"model":{"first":[${Array(count).fill(item).join(",")}],"second":{"a":[${Array(count).fill(item).join(",")}]}${more}}}`;

describe("a document larger than a piece", () => {
  it("parses every corpus document larger than a piece to the same values, members in the same order", () => {
    // A process's first text past 1 MiB is read whole: one read first, so that every corpus document goes in pieces.
    expect(madeOf(encode(large("1", 300_000)))).toHaveProperty("text");
    let parsed = 0;
    for (const document of listCorpus()) {
      const bytes = readCorpusBytes(document);
      const made = madeOf(bytes);
      if (made === undefined || !("value" in made)) continue;
      parsed++;
      sameAs(made.value, decodedParse(bytes));
    }
    expect(parsed).toBeGreaterThan(20);
  });

  it("is taken apart where escaped characters widen the text before the split points, wherever they stand", () => {
    for (const character of ["é", "€", "😀", "é€😀", "\\u00e9", '\\"', "\\\\"]) {
      for (let pad = 0; pad < 64; pad += 7) {
        const bytes = encode(large(`{"v":"${"a".repeat(pad)}${character}","w":[1 ,2 ]}`, 4000));
        expect(bytes.length).toBeGreaterThan(PIECE_BYTES);
        sameAs(inPieces(bytes), decodedParse(bytes));
      }
    }
  });

  it("reads a process's first text past 1 MiB whole, later ones in pieces up to 16 MiB, and a single scalar whole", async () => {
    // A fresh instance of the modules: the first large text is the process's, and earlier tests have read some.
    vi.resetModules();
    const text = await import("../../runtime/core/json-text.js");
    const wasm = await import("../../runtime/core/json-wasm.js");
    const madeByFresh = (bytes: Uint8Array) => wasm.withResidentDocument(bytes, () => text.oneByteJson(bytes));
    const item = `"${"x".repeat(62)}"`;
    /** Two arrays of `item`s, `bytes` long give or take an item. */
    const sized = (bytes: number) => encode(large(item, Math.round(bytes / (2 * (item.length + 1)))));
    const textOf = (bytes: Uint8Array, around: number) => {
      expect(Math.abs(bytes.length - around)).toBeLessThan(4 * item.length);
      return bytes;
    };
    const withinFirst = textOf(sized(text.MOST_PIECED_FIRST_TEXT_BYTES - 1024), text.MOST_PIECED_FIRST_TEXT_BYTES - 1024);
    const pastFirst = textOf(sized(text.MOST_PIECED_FIRST_TEXT_BYTES + 1024), text.MOST_PIECED_FIRST_TEXT_BYTES + 1024);
    const within = textOf(sized(text.MOST_PIECED_TEXT_BYTES - 1024), text.MOST_PIECED_TEXT_BYTES - 1024);
    const past = textOf(sized(text.MOST_PIECED_TEXT_BYTES + 1024), text.MOST_PIECED_TEXT_BYTES + 1024);
    expect(madeByFresh(withinFirst)).toHaveProperty("value");
    expect(madeByFresh(pastFirst)).toHaveProperty("text");
    expect(madeByFresh(pastFirst)).toHaveProperty("value");
    const value = madeByFresh(within);
    expect(value).toHaveProperty("value");
    sameAs((value as { value: unknown }).value, decodedParse(within));
    expect(madeByFresh(past)).toHaveProperty("text");
    expect(madeByFresh(encode(`"${"x".repeat(300_000)}"`))).toHaveProperty("text");
  });

  it("keeps a __proto__ member an own member, and orders integer-like names first, as JSON.parse does", () => {
    const bytes = encode(large('{"x":"y"}', 20_000, ',"__proto__":{"polluted":true},"2":"two","1":"one","z":[1]'));
    const value = inPieces(bytes) as { model: Record<string, unknown> };
    const expected = decodedParse(bytes) as { model: Record<string, unknown> };
    sameAs(value, expected);
    expect(Object.keys(value.model)).toEqual(Object.keys(expected.model));
    expect(Object.getPrototypeOf(value.model)).toBe(Object.prototype);
    expect(Object.hasOwn(value.model, "__proto__")).toBe(true);
  });

  it("finds the names of members too large for a piece, and reads a text whose names hold escapes whole", () => {
    const list = `[${Array(20_000).fill('"x"').join(",")}]`;
    const plain = encode(`{"model":{"a":${list},"small":1,"b c":${list},"d":${list}}}`);
    const value = inPieces(plain) as { model: Record<string, unknown> };
    sameAs(value, decodedParse(plain));
    expect(Object.keys(value.model)).toEqual(["a", "small", "b c", "d"]);
    const escaped = encode(`{"model":{"a\\"b":${list},"c\\\\":${list},"\\u0064":${list}}}`);
    expect(madeOf(escaped)).toHaveProperty("text");
    expect(parseBody(escaped)).toMatchObject({ ok: true, document: decodedParse(escaped) });
  });

  it("holds containers too large for a piece at every level, below the levels it splits too", () => {
    const leaf = `{"s":"{[,]}\\"${"x".repeat(400)}","n":[1,2]}`;
    const list = `[${Array(300).fill(leaf).join(",")}]`;
    let value = list;
    for (const name of ["f", "e", "d", "c", "b", "a"]) value = `{"${name}":${value},"${name}2":${list}}`;
    const bytes = encode(value);
    sameAs(inPieces(bytes), decodedParse(bytes));
  });

  const invalid: Record<string, string> = {
    "an empty element": large("1", 100_000).replace("1,1,", "1,,"),
    "a trailing comma in an array": large("1", 100_000).replace("1]", "1,]"),
    "a trailing comma in an object": large("1", 100_000).replace("}}", ",}}"),
    "a member without its colon": large("1", 100_000).replace('"second":', '"second"'),
    "a bracket closing a brace": large("1", 100_000).replace("]}}", "]]}"),
    "text after the document": large("1", 100_000) + "1",
    "a control character in a name": large("1", 100_000).replace('"second"', '"sec\tond"'),
    "a missing comma before a container larger than a piece": `{"model":[1 ${large("1", 100_000)}]}`,
  };
  for (const [what, text] of Object.entries(invalid)) {
    it(`is refused as the whole text is: ${what}`, () => {
      expect(() => JSON.parse(text)).toThrow();
      expect(() => madeOf(encode(text))).toThrow(SyntaxError);
      expect(parseBody(encode(text))).toMatchObject({ ok: false, error: { code: "ERR_INVALID_JSON" } });
    });
  }

  it("gives JSON.parse's verdict and value on random large texts and on their bytes changed at random", () => {
    const random = new SeededRandom(20261125);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random.next() * items.length)]!;
    const strings = ["a", "é", "😀", "\\n", '\\"', "{[,:]}", "x".repeat(200)];
    const value = (depth: number): string => {
      const kind = random.next();
      if (depth > 5 || kind < 0.3) return pick([`"${pick(strings)}"`, "1 ", "true", "null", "-0.5e3"]);
      const count = depth < 2 ? 20 + Math.floor(random.next() * 40) : Math.floor(random.next() * 6);
      if (kind < 0.6) return `[${Array.from({ length: count }, () => value(depth + 1)).join(",")}]`;
      return `{${Array.from({ length: count }, (_, i) => `"${pick(["n", "é", "__proto__", "1"])}${i}":${value(depth + 1)}`).join(",")}}`;
    };
    const structural = [0x2c, 0x5b, 0x5d, 0x7b, 0x7d, 0x3a, 0x22, 0x20];
    for (let round = 0; round < 12; round++) {
      let text = value(0);
      while (text.length < 2 * PIECE_BYTES) text = `[${text},${value(1)}]`;
      const bytes = encode(text);
      expect(madeOf(bytes)).toHaveProperty("value");
      const parsed = parseBody(bytes);
      sameAs(parsed.ok ? parsed.document : undefined, decodedParse(bytes));
      for (let change = 0; change < 25; change++) {
        const changed = Uint8Array.from(bytes);
        changed[Math.floor(random.next() * changed.length)] = pick(structural);
        let expected: unknown;
        try {
          expected = decodedParse(changed);
        } catch {
          expected = undefined;
        }
        const outcome = parseBody(changed);
        if (expected === undefined) expect(outcome.ok).toBe(false);
        else sameAs(outcome.ok ? outcome.document : "refused", expected);
      }
    }
  });
});
