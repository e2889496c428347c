// The checks JSON.parse does not make (repeated names, excluded characters) cost time linear in the document whatever
// its shape. Shown by counting work, not by timing: the characters of pointer text spelled out (reference tokens
// escaped), and the bytes the JavaScript structure scan searches, as hostile documents double in size.
import { describe, expect, it } from "vitest";
import { validateBytes, validateDocument, type ValidationOutcome } from "../../runtime/core/validate.js";
import { checkParsedDocument, scanJsonBytesInJs, textFindings } from "../../runtime/core/json-structure.js";
import { escapedTokenCharacters } from "../../runtime/core/json-pointer.js";
import { MAX_REPORTED_ISSUES } from "../../runtime/core/report.js";
import { deepNamesDocument } from "../helpers/deep-names.js";

const encode = (text: string) => new TextEncoder().encode(text);
/** Levels of long names: the innermost list is at depth 103, well within the nesting limit of 256. */
const LEVELS = 100;
const SCALES = [1, 2, 4];

/**
 * The hostile document at `scale`: names and list both grow with it, so the pointer to each item grows too. Names are
 * longer than a report quotes (64 characters): reported paths stop before the first, at /catalog.
 */
const atScale = (scale: number, item: string) => deepNamesDocument(LEVELS, 80 * scale, new Array<string>(1000 * scale).fill(item));

function pointerWorkOf(validate: () => ValidationOutcome): { work: number; outcome: ValidationOutcome } {
  const before = escapedTokenCharacters();
  const outcome = validate();
  return { work: escapedTokenCharacters() - before, outcome };
}

/** Doubling the document's size at most about doubles the work (quadratic work would quadruple). */
function expectLinearGrowth(sizes: readonly number[], work: readonly number[]): void {
  for (let k = 1; k < sizes.length; k++) {
    expect(work[k]! / work[k - 1]!, `work ${work.join(", ")} for sizes ${sizes.join(", ")}`).toBeLessThan(1.25 * (sizes[k]! / sizes[k - 1]!));
  }
}

/**
 * The pointer text spelled out is about what the report shows: its paths (and a schema finding's long member name,
 * less than 1000 characters here), not a pointer per string.
 */
function expectWorkOfReport(work: number, issues: readonly { path: string }[]): void {
  expect(work).toBeLessThan(issues.reduce((sum, issue) => sum + issue.path.length, 1000));
}

function report(outcome: ValidationOutcome) {
  if (outcome.kind !== "report") throw new Error(`expected a report, got ${outcome.kind}`);
  return outcome.report;
}

describe("the exact text pass on long paths", () => {
  it("one repeated name under a deep path of long names: pointers are spelled out for the findings only", () => {
    const sizes: number[] = [];
    const work: number[] = [];
    for (const scale of SCALES) {
      const { text } = atScale(scale, '"a"');
      const measured = pointerWorkOf(() => validateBytes(encode(text)));
      const { issues } = report(measured.outcome);
      expect(issues.filter((issue) => issue.ruleId === "JSON-001.a")).toEqual([expect.objectContaining({ keyword: "duplicate-name", path: "/catalog" })]);
      expectWorkOfReport(measured.work, issues);
      sizes.push(text.length);
      work.push(measured.work);
    }
    expectLinearGrowth(sizes, work);
  });

  it("a finding in every string deep down: only the reported findings' pointers are spelled out, all are counted", () => {
    const sizes: number[] = [];
    const work: number[] = [];
    for (const scale of SCALES) {
      const { text } = atScale(scale, '"\\u0001"');
      const measured = pointerWorkOf(() => validateBytes(encode(text)));
      const { issues, issueCount, truncated } = report(measured.outcome);
      expect(issues).toHaveLength(MAX_REPORTED_ISSUES);
      expect(truncated).toBe(true);
      // The repeated name and a control character in each of the list's strings, then the schema's findings.
      expect(issueCount).toBeGreaterThan(1 + 1000 * scale);
      expect(issues.slice(0, 3).map(({ ruleId, keyword }) => ({ ruleId, keyword }))).toEqual([
        { ruleId: "JSON-001.a", keyword: "duplicate-name" },
        { ruleId: "JSON-003.a", keyword: "control-character" },
        { ruleId: "JSON-003.a", keyword: "control-character" },
      ]);
      expectWorkOfReport(measured.work, issues);
      sizes.push(text.length);
      work.push(measured.work);
    }
    expectLinearGrowth(sizes, work);
  });

  it("names each finding at its exact pointer, escapes included, wherever it lies, in text and parsed", () => {
    const { text, innermost } = deepNamesDocument(40, 12, ['"a"', '"\\u0001"', '{"b\\ud800":["\\udc00", 1, "ok"]}', '"a"']);
    const characterFindings = [
      { ruleId: "JSON-003.a", path: `${innermost}/list/1` },
      { ruleId: "JSON-002.a", path: `${innermost}/list/2/b\ud800` },
      { ruleId: "JSON-002.a", path: `${innermost}/list/2/b\ud800/0` },
    ];
    expect(textFindings(text).map(({ ruleId, path }) => ({ ruleId, path }))).toEqual([{ ruleId: "JSON-001.a", path: `${innermost}/x` }, ...characterFindings]);
    const checked = checkParsedDocument(JSON.parse(text));
    expect(!checked.tooDeep && checked.findings.map(({ ruleId, path }) => ({ ruleId, path }))).toEqual(characterFindings);
  });

  it("cuts a path as a report does, saying how long the whole pointer is or which name it stops before", () => {
    const long = deepNamesDocument(LEVELS, 40, ['"\\u0001"']);
    const [repeat, character] = textFindings(long.text);
    expect(character!.path.length).toBeLessThanOrEqual(1024);
    expect(long.innermost.startsWith(`${character!.path}/`)).toBe(true);
    expect(character!.message).toMatch(new RegExp(`\\(Path cut to an ancestor: the full path is ${long.innermost.length + "/list/0".length} characters long\\.\\)$`));
    expect(repeat).toMatchObject({ ruleId: "JSON-001.a", path: character!.path, message: expect.stringContaining(`the full path is ${long.innermost.length + "/x".length} characters`) });
    const longNames = deepNamesDocument(LEVELS, 80, ['"\\u0001"']);
    expect(textFindings(longNames.text)[1]).toMatchObject({ path: "/catalog", message: expect.stringMatching(/\(Path cut before a member name of 80 characters, "000\/~nnnnnnnnnnn…"\.\)$/) });
  });

  it("a parsed document with a finding in every string deep down costs linear work too", () => {
    const sizes: number[] = [];
    const work: number[] = [];
    for (const scale of SCALES) {
      const { text, innermost } = atScale(scale, '"\\u0001"');
      const measured = pointerWorkOf(() => validateDocument(JSON.parse(text)));
      const { issues, issueCount } = report(measured.outcome);
      expect(issueCount).toBeGreaterThan(1000 * scale);
      expect(issues[0]).toMatchObject({ ruleId: "JSON-003.a", path: "/catalog" });
      expectWorkOfReport(measured.work, issues);
      sizes.push(text.length);
      work.push(measured.work);
    }
    expectLinearGrowth(sizes, work);
  });
});

/** Bytes whose native searches count the bytes they pass over. */
class SearchCountingBytes extends Uint8Array {
  searched = 0;

  override indexOf(byte: number, from = 0): number {
    const at = super.indexOf(byte, from);
    this.searched += (at < 0 ? this.length : at) - from;
    return at;
  }
}

describe("the JavaScript structure scan", () => {
  it("searches each byte of a long string of escapes about once, and still finds an excluded one at its end", () => {
    const sizes: number[] = [];
    const searched: number[] = [];
    for (const scale of SCALES) {
      const escapes = "\\n".repeat(20_000 * scale);
      const bytes = new SearchCountingBytes(encode(`{"catalog":{"remarks":"${escapes}","title":"${escapes}\\u0001"}}`));
      expect(scanJsonBytesInJs(bytes)).toEqual({ tooDeep: false, needsTextPass: true });
      expect(scanJsonBytesInJs(new SearchCountingBytes(encode(`{"catalog":{"remarks":"${escapes}"}}`)))).toEqual({ tooDeep: false, needsTextPass: false });
      expect(bytes.searched).toBeLessThan(3 * bytes.length);
      sizes.push(bytes.length);
      searched.push(bytes.searched);
    }
    expectLinearGrowth(sizes, searched);
  });
});
