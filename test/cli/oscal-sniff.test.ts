// The walk's test of whether a file is an OSCAL document: by its root members only, whatever the chunks its bytes
// arrive in, and deciding as early as the bytes allow.
import { describe, expect, it } from "vitest";
import { oscalSniffer, type Sniffed } from "../../runtime/cli/oscal-sniff.js";
import type { InputFormat } from "../../runtime/cli/input-format.js";

/** The sniffer's answer for `text` fed in chunks of `size` bytes, and how many bytes it read to give it. */
function sniff(text: string, format: InputFormat, size: number): { answer: Sniffed; bytesRead: number } {
  const bytes = Buffer.from(text, "utf8");
  const sniffer = oscalSniffer(format);
  for (let start = 0; start < bytes.length; start += size) {
    const answer = sniffer.feed(bytes.subarray(start, start + size));
    if (answer !== "undecided") return { answer, bytesRead: Math.min(bytes.length, start + size) };
  }
  return { answer: sniffer.end(), bytesRead: bytes.length };
}

const JSON_CASES: Array<[string, Sniffed]> = [
  ['{"catalog": {"uuid": "x"}}', "oscal"],
  ['\uFEFF  {"$schema": "s", "system-security-plan": {}}', "oscal"],
  ['{"name": "x", "catalog": 1}', "oscal"],
  ['{"catalog": ', "oscal"], // truncated: the validator reports it
  ['{"compilerOptions": {"catalog": "nested"}, "profile-not": 1}', "not-oscal"],
  ['{"a": "}{\\"catalog\\": 1", "b": [{"catalog": 1}]}', "not-oscal"],
  ['{\n  // "catalog": 1\n  /* "profile": 2 */ "x": 1\n}', "not-oscal"],
  ['{"cat\\u0061log": {}}', "oscal"], // an escaped name might spell a model: the validator decides
  ['[{"catalog": {}}]', "not-oscal"],
  ["\0\0\0\0", "not-oscal"],
  ["", "not-oscal"],
];

const YAML_CASES: Array<[string, Sniffed]> = [
  ["catalog:\n  uuid: x\n", "oscal"],
  ["# comment\n---\n'assessment-plan':\n  uuid: x\n", "oscal"],
  ["--- \"mapping-collection\": {}\n", "oscal"],
  ["name: ci\non: push\njobs:\n  catalog:\n    runs-on: x\n", "not-oscal"],
  ["description: |\n  catalog: in a block scalar\n", "not-oscal"],
  ["catalogue: x\n", "not-oscal"],
];

describe("the OSCAL sniffer", () => {
  it.each(JSON_CASES)("JSON %j is %s, in any chunks", (text, expected) => {
    for (const size of [1, 2, 3, 7, 64 * 1024]) expect(sniff(text, "json", size).answer).toBe(expected);
  });

  it.each(YAML_CASES)("YAML %j is %s, in any chunks", (text, expected) => {
    for (const size of [1, 5, 64 * 1024]) expect(sniff(text, "yaml", size).answer).toBe(expected);
  });

  it("decides at the model member, without reading the rest of a large document", () => {
    const large = `{"catalog": {"groups": [${Array.from({ length: 100_000 }, () => '{"id": "x"}').join(",")}]}}`;
    expect(sniff(large, "json", 4096)).toEqual({ answer: "oscal", bytesRead: 4096 });
    expect(sniff(`catalog:\n${"  - x\n".repeat(100_000)}`, "yaml", 4096)).toEqual({ answer: "oscal", bytesRead: 4096 });
  });
});
