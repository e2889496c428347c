// Findings carry the line and column (1-based, columns in code points) of what their path names in the original text.
// Every expected position below is counted by hand from the document text written next to it.
import { describe, expect, it } from "vitest";
import { validateBytes, validateDocument } from "../../runtime/core/validate.js";
import { jsonLocator, jsonLocatorInJs, withLocations, type LocationRequest } from "../../runtime/core/locate.js";
import { pointerTokens } from "../../runtime/core/json-pointer.js";
import { MAX_NESTING_DEPTH, scanJsonBytes, textFindings } from "../../runtime/core/json-structure.js";
import { withResidentDocument } from "../../runtime/core/json-wasm.js";
import type { ValidationIssue } from "../../runtime/core/report.js";
import { listCorpus, readCorpusBytes } from "../helpers/corpus.js";
import { resolvePointer } from "../helpers/json-pointer.js";
import { SeededRandom } from "../agreement/prng.js";

const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const encode = (text: string) => new TextEncoder().encode(text);

function issues(text: string | Uint8Array, options = {}): ValidationIssue[] {
  const outcome = validateBytes(typeof text === "string" ? encode(text) : text, options);
  if (outcome.kind !== "report") throw new Error(`expected a report, got ${JSON.stringify(outcome)}`);
  return outcome.report.issues;
}

/** path, keyword (first words of the message) → line:column, for compact comparisons. */
const placed = (found: readonly ValidationIssue[]) => found.map((issue) => `${issue.path} ${issue.keyword} ${issue.line}:${issue.column}`);

describe("finding positions in JSON", () => {
  it("pretty-printed: values, the object of a missing property, and the name of a property not allowed", () => {
    const text = [
      "{", //                                                                   line 1
      '  "catalog": {', //                                                      line 2
      '    "uuid": "not-a-uuid",', //                                           line 3: value at column 13
      '    "metadata": {', //                                                   line 4: object at column 17
      '      "title": "T",', //                                                 line 5
      '      "last-modified": "2024-05-01T12:00:00Z",', //                      line 6
      '      "version": "1",', //                                               line 7
      '      "oscal-version": "1.2.2",', //                                     line 8
      '      "links": [ { "href": "#a", "rel": "bad rel" } ],', //              line 9: "bad rel" at column 41
      '      "x-extra": true', //                                               line 10: name at column 7
      "    },", //
      '    "groups": []', //                                                    line 12: array at column 15
      "  }",
      "}",
    ].join("\n");
    expect(placed(issues(text)).sort()).toEqual(
      [
        "/catalog/uuid pattern 3:13",
        "/catalog/metadata/links/0/rel pattern 9:41",
        "/catalog/metadata/x-extra additionalProperties 10:7",
        "/catalog/groups minItems 12:15",
      ].sort(),
    );
  });

  it("minified: everything on line 1, columns count every character before the value", () => {
    // {"catalog":{"uuid":"x","metadata":{"title":"T"}}}
    //  column of "x" is 20, of the metadata object 35
    const found = issues('{"catalog":{"uuid":"x","metadata":{"title":"T"}}}');
    expect(new Set(placed(found))).toEqual(new Set(["/catalog/uuid pattern 1:20", "/catalog/metadata required 1:35"]));
  });

  it("columns count code points: a two-byte, a three-byte and a four-byte character (a surrogate pair) are one column each", () => {
    // Line 2: `  "uuid": "é€😀", "metadata": {}` — é (2 bytes), € (3 bytes), 😀 (4 bytes, 2 UTF-16 units).
    // Columns: "uuid" starts at 3, the value at 11; é 12, € 13, 😀 14, closing quote 15, comma 16, space 17,
    // "metadata" 18-27, colon 28, space 29, `{` 30.
    const text = '{"catalog": {\n  "uuid": "é€😀", "metadata": {}\n}}';
    expect(new Set(placed(issues(text)))).toEqual(new Set(["/catalog/uuid pattern 2:11", "/catalog/metadata required 2:30"]));
  });

  it("non-ASCII text before a finding on an earlier line does not shift later lines", () => {
    const text = '{"catalog": {"metadata": {"title": "😀😀😀 ünïcödé"},\n"uuid": 7}}';
    expect(placed(issues(text)).filter((entry) => entry.startsWith("/catalog/uuid"))).toEqual(["/catalog/uuid type 2:9"]);
  });

  it("a leading byte-order mark does not count as a column", () => {
    const text = '{"catalog":{"uuid":"x","metadata":{}}}';
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...encode(text)]);
    expect(placed(issues(withBom))).toEqual(placed(issues(text)));
    expect(placed(issues(withBom))).toContain("/catalog/uuid pattern 1:20");
  });

  it("a repeated member name: the finding is placed at the last occurrence, the one JSON.parse keeps", () => {
    // {"catalog": {"uuid": "x", "metadata": {}, "uuid": "y"}}: the second value, "y", is at column 51.
    const text = '{"catalog": {"uuid": "x", "metadata": {}, "uuid": "y"}}';
    expect(text.indexOf('"y"') + 1).toBe(51);
    expect(placed(issues(text)).filter((entry) => entry.startsWith("/catalog/uuid ")).sort()).toEqual(["/catalog/uuid duplicate-name 1:51", "/catalog/uuid pattern 1:51"]);
  });

  it("placing findings adds their line and column after their own fields and changes nothing else", () => {
    // Findings of the JSON text itself list their fields in an order of their own: a report keeps it.
    const text = '{"catalog": {"uuid": "x", "metadata": {"title": "\\ud800"}, "uuid": "y"}}';
    const found = textFindings(text);
    const located = withLocations(found, jsonLocator(encode(text)));
    expect(found.length).toBe(2);
    expect(located.map((issue) => Object.keys(issue))).toEqual(found.map((issue) => [...Object.keys(issue), "line", "column"]));
    expect(located.map(({ line: _line, column: _column, ...rest }) => rest)).toEqual(found);
  });

  it("a scan told that no name repeats, which stops at the last request, places what the whole scan places", () => {
    const text = '{"a": [1, {"b": 2}], "c": {"d": [3, 4]},\n "e": 5}';
    const requests = ["/a/1/b", "/c", "/c/d/1", "/e", "/missing", ""].map((pointer) => ({ pointer, target: "value" as const }));
    const whole = jsonLocator(encode(text))(requests);
    expect(jsonLocator(encode(text), false)(requests)).toEqual(whole);
    expect(jsonLocator(encode(text), false)(requests.slice(0, 3))).toEqual(whole.slice(0, 3));
    expect(whole[3]).toEqual({ line: 2, column: 7 });
  });

  it("member names written with escapes match the decoded names of the path", () => {
    // "metad\u0061ta" is the name metadata; the object that lacks its required properties opens after it.
    const text = '{"catalog": {"uuid": "' + uuid + '", "metad\\u0061ta": {}}}';
    const column = 1 + '{"catalog": {"uuid": "'.length + uuid.length + '", "metad\\u0061ta": '.length;
    expect(column).toBe(79);
    expect(new Set(placed(issues(text)))).toEqual(new Set(["/catalog/metadata required 1:79"]));
  });

  it("names that are prefixes of others, non-ASCII names and names holding an escaped quote, through the locator itself", () => {
    const text = String.raw`{"ab": 0, "abc": [1], "é": 2, "q\"": 3, "x": {"é": 4}}`;
    // The "abc" array starts at column 18 (after a name "ab" that is no request's), the value of "é" at 28 (é is one
    // column), the value of the name q" at 38, and the name "é" inside "x" at 47.
    const requests: LocationRequest[] = [
      { pointer: "/abc", target: "value" },
      { pointer: "/é", target: "value" },
      { pointer: '/q"', target: "value" },
      { pointer: "/x/é", target: "name" },
    ];
    const expected = [
      { line: 1, column: 18 },
      { line: 1, column: 28 },
      { line: 1, column: 38 },
      { line: 1, column: 47 },
    ];
    // Without repeated names the scan stops at each request's first place, so a name matched wrongly would stand.
    expect(jsonLocator(encode(text), false)(requests)).toEqual(expected);
    expect(jsonLocator(encode(text))(requests)).toEqual(expected);
    expect(jsonLocatorInJs(encode(text), false)(requests)).toEqual(expected);
  });

  it("pointers that share their first characters but not their tokens with the pointer before them", () => {
    const text = '{"a": {"b": 1, "bc": 2, "b~c": 3}, "a/b": 4}';
    // 1 at column 13, 2 at 22, 3 at 32, the object of "a" at 7, 4 at 43.
    const requests: LocationRequest[] = ["/a/b", "/a/bc", "/a/b~0c", "/a", "/a~1b", "/a/b"].map((pointer) => ({ pointer, target: "value" }));
    const expected = [13, 22, 32, 7, 43, 13].map((column) => ({ line: 1, column }));
    expect(jsonLocator(encode(text))(requests)).toEqual(expected);
    expect(jsonLocator(encode(text), false)(requests)).toEqual(expected);
  });

  it("escaped names, pointer escapes, arrays and strings holding brackets, through the locator itself", () => {
    const text = '{"a\\u0062": [0, "]}\\"[{", {"x/y": 1, "t~": [true]}], "z": null}';
    // The text is {"a\u0062": [0, "]}\"[{", {"x/y": 1, "t~": [true]}], "z": null}. Its name "ab" starts at column 2
    // (the escape is 6 characters), its array at 13, element 2 (the object) at 27, the "x/y" value at 35, the name
    // "t~" at 38, true at 45, null at 59.
    const locate = jsonLocator(encode(text));
    const positions = locate([
      { pointer: "/ab", target: "name" },
      { pointer: "/ab", target: "value" },
      { pointer: "/ab/2", target: "value" },
      { pointer: "/ab/2/x~1y", target: "value" },
      { pointer: "/ab/2/t~0", target: "name" },
      { pointer: "/ab/2/t~0/0", target: "value" },
      { pointer: "/z", target: "value" },
      { pointer: "/missing", target: "value" },
      { pointer: "", target: "value" },
    ]);
    expect(positions).toEqual([
      { line: 1, column: 2 },
      { line: 1, column: 13 },
      { line: 1, column: 27 },
      { line: 1, column: 35 },
      { line: 1, column: 38 },
      { line: 1, column: 45 },
      { line: 1, column: 59 },
      undefined,
      { line: 1, column: 1 },
    ]);
  });

  it("CRLF line endings: the CR belongs to the line it ends", () => {
    const text = '{\r\n"catalog": {\r\n  "uuid": 1, "metadata": {}}}';
    expect(new Set(placed(issues(text)))).toEqual(new Set(["/catalog/uuid type 3:11", "/catalog/metadata required 3:26"]));
  });

  it("semantic findings at level full are placed too", () => {
    const metadata = { title: "T", "last-modified": "2024-05-01T12:00:00Z", version: "1", "oscal-version": "1.2.2" };
    const doc = { catalog: { uuid, metadata: { ...metadata, links: [{ href: "#nowhere" }] } } };
    const text = JSON.stringify(doc, null, 1);
    const found = issues(text, { level: "full" }).filter((issue) => issue.path === "/catalog/metadata/links/0/href");
    expect(found.length).toBeGreaterThan(0);
    const lineOfHref = text.split("\n").findIndex((line) => line.includes('"#nowhere"')) + 1;
    // That line is `     "href": "#nowhere"`: five spaces of indentation (one per level) and 8 characters of name.
    for (const issue of found) expect([issue.line, issue.column]).toEqual([lineOfHref, 14]);
  });

  it("valid documents carry no positions, and validateDocument (no text) never does", () => {
    const metadata = { title: "T", "last-modified": "2024-05-01T12:00:00Z", version: "1", "oscal-version": "1.2.2" };
    expect(issues(JSON.stringify({ catalog: { uuid, metadata } }))).toEqual([]);
    const outcome = validateDocument({ catalog: { uuid: "x", metadata } });
    expect(outcome.kind === "report" && outcome.report.issues.length).toBe(1);
    expect(outcome.kind === "report" && outcome.report.issues[0]).not.toHaveProperty("line");
  });
});

describe("finding positions on the corpus", () => {
  // Documents up to 512 KB keep the test quick; bench/locate.ts covers the largest catalog.
  const documents = listCorpus().filter((document) => document.size <= 512 * 1024);

  it("every reported finding is placed at its value (its name for additionalProperties), checked against an independent pointer resolver", () => {
    let placedCount = 0;
    for (const document of documents) {
      const bytes = readCorpusBytes(document);
      const text = new TextDecoder().decode(bytes);
      const lines = text.split("\n");
      const value = JSON.parse(text) as unknown;
      for (const level of ["schema", "full"] as const) {
        for (const issue of issues(bytes, { level })) {
          const where = `${document.file} ${issue.path} ${issue.line}:${issue.column}`;
          const at = [...lines[issue.line! - 1]!].slice(issue.column! - 1).join("");
          if (issue.keyword === "additionalProperties") {
            expect(at.startsWith(JSON.stringify(pointerTokens(issue.path)!.pop())), where).toBe(true);
          } else {
            const resolved = resolvePointer(value, issue.path);
            expect(resolved.found, where).toBe(true);
            if (resolved.found) expect(at.startsWith(firstCharacterOf(resolved.value)), where).toBe(true);
          }
          placedCount++;
        }
      }
    }
    expect(placedCount).toBeGreaterThan(100);
  });
});

/** Value pointers of every `every`-th node of a parsed document, in document order (the root excluded). */
function samplePointers(value: unknown, every: number): LocationRequest[] {
  const requests: LocationRequest[] = [];
  let seen = 0;
  const visit = (node: unknown, pointer: string): void => {
    if (pointer !== "" && seen++ % every === 0) requests.push({ pointer, target: "value" });
    if (node === null || typeof node !== "object") return;
    const entries = Array.isArray(node) ? node.map((child, i) => [String(i), child] as const) : Object.entries(node);
    for (const [name, child] of entries) visit(child, `${pointer}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`);
  };
  visit(value, "");
  return requests;
}

describe("the WebAssembly walk", () => {
  const filler = (length: number) => "x".repeat(length);

  it("places what the JavaScript scan places: brackets, escaped quotes and line feeds on every side of the 64-byte chunks", () => {
    for (let pad = 0; pad < 140; pad++) {
      // A string holding brackets, an escaped backslash and an escaped quote; nested arrays; CRLF; a string ending in an
      // escaped backslash; all shifted one byte further against the block edges each round.
      const skipped = `[{"${filler(pad)}": "]}\\\\\\"[{"},\n[${"[],".repeat(pad % 7)}[]],\r\n"${filler(pad)}\\\\"]`;
      const text = `{"a": ${skipped},\n  "b": {"c": [1,\n 2]}}`;
      JSON.parse(text);
      // Past "a" skipped whole (its line feeds counted in the skip), and into it.
      for (const pointers of [["/b/c/1", "/b"], ["/a/1", "/a/0", "/b"]]) {
        const requests = pointers.map((pointer) => ({ pointer, target: "value" as const }));
        expect(jsonLocator(encode(text))(requests), text).toEqual(jsonLocatorInJs(encode(text))(requests));
      }
    }
  });

  it("counts the columns of a long line as the JavaScript scan does: characters of 1 to 4 bytes on every side of the 16-byte blocks", () => {
    for (let pad = 0; pad < 48; pad++) {
      // One line of over 256 bytes (counted in WebAssembly) before each finding, the characters shifted a byte a round.
      const prose = Array.from({ length: 120 }, (_, i) => `${filler((i + pad) % 5)}${["é", "€", "😀", "a"][i % 4]}`).join("");
      const text = `{"a": "${prose}", "b": [1, "${prose}", {"c": "${prose}"}], "d": 2}`;
      JSON.parse(text);
      const requests = ["/b/2/c", "/b/1", "/d"].map((pointer) => ({ pointer, target: "value" as const }));
      const positions = jsonLocator(encode(text))(requests);
      expect(positions, text).toEqual(jsonLocatorInJs(encode(text))(requests));
      expect(positions[2]!.column).toBe([...text.slice(0, text.lastIndexOf("2"))].length + 1);
    }
  });

  it("finds children requested in any order: many members of one object, array indices out of order, values and names", () => {
    const members = Array.from({ length: 30 }, (_, i) => `"m${i}": [${Array.from({ length: 12 }, (_, j) => `{"v": ${i * 100 + j}}`).join(", ")}]`);
    const text = `{\n${members.join(",\n")}\n}`;
    const requests: LocationRequest[] = [];
    for (let i = 29; i >= 0; i -= 3) {
      for (const j of [11, 0, 7, 3]) requests.push({ pointer: `/m${i}/${j}/v`, target: "value" });
      requests.push({ pointer: `/m${i}`, target: "name" }, { pointer: `/m${i}/12`, target: "value" }, { pointer: `/m${i}/07`, target: "value" });
    }
    const positions = jsonLocator(encode(text), false)(requests);
    expect(positions).toEqual(jsonLocatorInJs(encode(text), false)(requests));
    const lines = text.split("\n");
    requests.forEach(({ pointer, target }, k) => {
      const [, name, index] = pointer.split("/");
      const position = positions[k];
      // Indices past the end (12) or not canonical (07) name nothing.
      if (index === "12" || index === "07") return expect(position, pointer).toBeUndefined();
      const at = lines[position!.line - 1]!.slice(position!.column - 1);
      const member = Number(name!.slice(1));
      expect(at.startsWith(target === "name" ? `"${name}"` : String(member * 100 + Number(index))), pointer).toBe(true);
    });
  });

  it("places what the JavaScript scan places on random documents, in every layout, for random requests", () => {
    const random = new SeededRandom(20261201);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random.next() * items.length)]!;
    // Names that are prefixes of others, array-index-like, empty, non-ASCII of 2 to 4 bytes, written with escapes (one
    // longer than the walk decodes), or holding a lone surrogate (which no UTF-8 bytes denote).
    const names = ["a", "ab", "b", "0", "1", "10", "", "é", "名前", "😀", "a/b", "t~", 'q"', "back\\slash", "x y", "tab\tnl\n", `${"L".repeat(5000)}\n`, "\ud800", "\udc00", "\ud800 and more"];
    const strings = ["", "]}[{,", '\\"', "line\nfeed", "é€😀", "a".repeat(70)];
    const value = (depth: number): unknown => {
      const kind = random.next();
      if (depth > 5 || kind < 0.3) return pick<unknown>([...strings, 0, -1.5e3, true, false, null]);
      if (kind < 0.6) return Array.from({ length: Math.floor(random.next() * 5) }, () => value(depth + 1));
      return Object.fromEntries(random.sample(names, Math.floor(random.next() * 5)).map((name) => [name, value(depth + 1)]));
    };
    const layouts = [
      (v: unknown) => JSON.stringify(v),
      (v: unknown) => JSON.stringify(v, null, 2),
      (v: unknown) => JSON.stringify(v, null, 1).replaceAll("\n", "\r\n"),
      (v: unknown) => `\ufeff${JSON.stringify(v, null, "\t")}`,
      // Every non-ASCII character as \u escapes (a surrogate pair above U+FFFF), in names and values alike.
      (v: unknown) => JSON.stringify(v, null, 1).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    ];
    for (let round = 0; round < 400; round++) {
      const document = { root: value(0) };
      const text = pick(layouts)(document);
      const all = samplePointers(document, 1);
      const members = all.filter(({ pointer }) => !/\/\d+$/.test(pointer)).map(({ pointer }) => ({ pointer, target: "name" as const }));
      const missing = ["/root/missing", "/root/0/9", "/nowhere/0"].map((pointer) => ({ pointer, target: "value" as const }));
      const requests = random.sample([...all, ...members, ...missing], 1 + Math.floor(random.next() * 30));
      const bytes = encode(text);
      for (const namesRepeat of [true, false]) {
        expect(jsonLocator(bytes, namesRepeat)(requests), text).toEqual(jsonLocatorInJs(bytes, namesRepeat)(requests));
      }
    }
  });

  it("places what the JavaScript scan places on every corpus document", () => {
    for (const document of listCorpus()) {
      const bytes = readCorpusBytes(document);
      const requests = samplePointers(JSON.parse(new TextDecoder().decode(bytes)), 997);
      expect(jsonLocator(bytes, false)(requests), document.file).toEqual(jsonLocatorInJs(bytes, false)(requests));
    }
  });

  // Within a validation the structure scan records where the large containers of the top levels end, and the locator
  // passes them by counting their line feeds.
  const scannedThenLocated = (bytes: Uint8Array, requests: LocationRequest[]) =>
    withResidentDocument(bytes, () => {
      scanJsonBytes(bytes);
      return jsonLocator(bytes, false)(requests);
    });

  it("passes a container the scan recorded as the JavaScript scan does, whatever its line feeds' place in a block", () => {
    for (let pad = 0; pad < 40; pad++) {
      // Large enough for the scan to record it, with a line feed after every third item.
      const items = Array.from({ length: 2000 }, (_, i) => `"${filler((i * 7 + pad) % 23)}"${i % 3 === 0 ? "\n" : ""}`).join(",");
      const text = `{"m": {${" ".repeat(pad)}\n "big": [${items}],\n "after": {"x": [1,\n 2]}}}`;
      JSON.parse(text);
      const requests = ["/m/after/x/1", "/m/after", "/m/big/1999"].map((pointer) => ({ pointer, target: "value" as const }));
      expect(scannedThenLocated(encode(text), requests), text.slice(0, 40)).toEqual(jsonLocatorInJs(encode(text))(requests));
    }
  });

  it("keeps the recorded ends apart from the member names of the deepest objects", () => {
    // The scan lists the hashes of the member names of each open object, up to the nesting limit. An object at that
    // depth whose fifth name hashes to the offset of an earlier container's brace once overwrote where that container
    // starts, so the locator took a wrong end for it. The hash is the scan's FNV-1a over the name's bytes.
    const fnv1a = (name: string) => [...encode(name)].reduce((hash, byte) => Math.imul(hash ^ byte, 0x01000193) >>> 0, 0x811c9dc5);
    let name = "";
    for (let i = 0; !(fnv1a(name) > 300 && fnv1a(name) < 3000); i++) name = `k${i.toString(36)}`;
    const head = '{\n "m": {\n  "pad": "';
    const padding = fnv1a(name) - `${head}",\n  "a": `.length;
    const deepest = `{"n0": 1, "n1": 2, "n2": 3, "n3": 4, "${name}": "${filler(20000)}"}`;
    const nested = `${"[\n".repeat(MAX_NESTING_DEPTH - 3)}${deepest}${"\n]".repeat(MAX_NESTING_DEPTH - 3)}`;
    const text = `${head}${filler(padding)}",\n  "a": {\n   "x": "${filler(20000)}"\n  },\n  "z": ${nested},\n  "b": [1,\n 2]\n }\n}\n`;
    JSON.parse(text);
    expect(text.indexOf('"a": {') + 5).toBe(fnv1a(name));
    const requests = ["/m/b/1", "/m/z"].map((pointer) => ({ pointer, target: "value" as const }));
    expect(scannedThenLocated(encode(text), requests)).toEqual(jsonLocatorInJs(encode(text))(requests));
  });

  it("passes recorded containers as the JavaScript scan does on every corpus document", () => {
    for (const document of listCorpus()) {
      const bytes = readCorpusBytes(document);
      const requests = samplePointers(JSON.parse(new TextDecoder().decode(bytes)), 997);
      expect(scannedThenLocated(bytes, requests), document.file).toEqual(jsonLocatorInJs(bytes, false)(requests));
    }
  });
});

/** How a JSON value's text starts (strings written without escapes start with their whole serialization). */
function firstCharacterOf(value: unknown): string {
  if (typeof value === "string") return /[\\"\u0000-\u001f]/.test(value) ? '"' : JSON.stringify(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "[";
  if (typeof value === "object") return "{";
  return String(value).slice(0, 1);
}
