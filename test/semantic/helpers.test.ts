// The run-time half of the semantic layer (runtime/semantic/helpers.ts), exercised the way generated code drives it:
// a path stack, findings reported at a depth, verdicts at the end.
import { describe, expect, it } from "vitest";
import { CMPG, PathNode, SemanticRun, type ReferenceLabel, type RuleTables, type Segment } from "../../runtime/semantic/helpers.js";
import { compareGeneral, equal, greater, greaterOrEqual, less, lessOrEqual, notEqual, TRUE } from "../../runtime/packs/primitives.js";

// Rules 0 and 1 are strict, rule 2 allows other values; each names its values differently, so that a message tells
// which rule wrote it.
const tables: RuleTables = {
  allowOther: [false, false, true],
  allowedValues: [["x"], ["y"], ["z"]],
  allowedSubject: ["The part name", "The property name", "The link relation"],
  allowedWhere: ["here", "for a property in the OSCAL namespace", "here"],
};
const missingKey: ReferenceLabel = ["The link's hypertext reference", "names no resource in this document"];

/** A run over `model` with a helper that sets the path stack as the generated walk does. */
function runOver(model: string) {
  const path: Segment[] = [model];
  const root = new PathNode(null, model);
  // From the root each time: the generated walk caches the nodes of its prefixes, which these tests do not need.
  const nodeAt = (depth: number) => {
    let node = root;
    for (let d = 1; d < depth; d++) node = node.child(path[d]!);
    return node;
  };
  const run = new SemanticRun(tables, ["ix"], root, nodeAt, path, false);
  const at = (...segments: Segment[]) => {
    segments.forEach((segment, i) => {
      path[i + 1] = segment;
    });
    return segments.length + 1;
  };
  return { run, at };
}

describe("semantic run", () => {
  it("names findings by escaped JSON Pointers and returns them in document order", () => {
    const document = { catalog: { b: [{ "a/b~c": 1 }, { q: 2 }], a: 3 } };
    const { run, at } = runOver("catalog");
    run.report(0, at("a"), "on a");
    run.report(1, at("b", 1, "q"), "on q");
    run.report(0, at("b", 0, "a/b~c"), "on a/b~c");
    run.report(2, at("b"), "on b");
    run.report(0, at(), "on the root");
    const found = run.finish(document.catalog, 0);
    expect(found.map((f) => [f.at.pointer, f.message])).toEqual([
      ["/catalog", "on the root"],
      ["/catalog/b", "on b"],
      ["/catalog/b/0/a~1b~0c", "on a/b~c"],
      ["/catalog/b/1/q", "on q"],
      ["/catalog/a", "on a"],
    ]);
  });

  it("passes a value one of several allowed-values constraints enumerates, and reports a miss of all under the strict one", () => {
    const { run, at } = runOver("catalog");
    const accepted = { name: "y" };
    const rejected = { name: "w" };
    run.allowed(0, false, accepted, "name", "y", at("parts", 0, "name"));
    run.allowed(1, true, accepted, "name", "y", at("parts", 0, "name"));
    run.allowed(0, false, rejected, "name", "w", at("parts", 1, "name"));
    run.allowed(2, false, rejected, "name", "w", at("parts", 1, "name"));
    const found = run.finish({ parts: [accepted, rejected] }, 0);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: 0, message: 'The part name "w" is not one of the values allowed here: "x", "z".' });
    expect(found[0]!.at.pointer).toBe("/catalog/parts/1/name");
  });

  it("reports a value two strict constraints miss under each, in its own words with the values of all", () => {
    const { run, at } = runOver("catalog");
    const rejected = { name: "w" };
    const listedByOne = { name: "y" };
    const missedByAllowOtherOnly = { name: "x" };
    run.allowed(0, false, rejected, "name", "w", at("parts", 0, "name"));
    run.allowed(2, false, rejected, "name", "w", at("parts", 0, "name"));
    run.allowed(1, false, rejected, "name", "w", at("parts", 0, "name"));
    run.allowed(0, false, listedByOne, "name", "y", at("parts", 1, "name"));
    run.allowed(1, true, listedByOne, "name", "y", at("parts", 1, "name"));
    run.allowed(0, true, missedByAllowOtherOnly, "name", "x", at("parts", 2, "name"));
    run.allowed(2, false, missedByAllowOtherOnly, "name", "x", at("parts", 2, "name"));
    const found = run.finish({ parts: [rejected, listedByOne, missedByAllowOtherOnly] }, 0);
    expect(found.map((f) => [f.rule, f.at.pointer, f.message])).toEqual([
      [0, "/catalog/parts/0/name", 'The part name "w" is not one of the values allowed here: "x", "y", "z".'],
      [1, "/catalog/parts/0/name", 'The property name "w" is not one of the values allowed for a property in the OSCAL namespace: "x", "y", "z".'],
    ]);
  });

  it("reports a miss by the same constraints under each of them on every node, from the verdicts of the first", () => {
    // The second check of the same combination takes its verdicts from the first's: each node still gets one per rule.
    const { run, at } = runOver("catalog");
    const parts = [{ name: "v" }, { name: "w" }];
    for (const [i, part] of parts.entries()) for (const rule of [1, 0]) run.allowed(rule, false, part, "name", part.name, at("parts", i, "name"));
    const found = run.finish({ parts }, 0);
    expect(found.map((f) => [f.rule, f.at.pointer, f.message])).toEqual([
      [1, "/catalog/parts/0/name", 'The property name "v" is not one of the values allowed for a property in the OSCAL namespace: "x", "y".'],
      [0, "/catalog/parts/0/name", 'The part name "v" is not one of the values allowed here: "x", "y".'],
      [1, "/catalog/parts/1/name", 'The property name "w" is not one of the values allowed for a property in the OSCAL namespace: "x", "y".'],
      [0, "/catalog/parts/1/name", 'The part name "w" is not one of the values allowed here: "x", "y".'],
    ]);
  });

  it("passes a node matched long before another constraint misses it, however many matches lie between", () => {
    const { run, at } = runOver("catalog");
    // Chunks of the list hold 256, 512, 1,024, 2,048, then 4,096 matches: nodes on either side of each boundary.
    const parts = Array.from({ length: 8000 }, () => ({ name: "y" }));
    for (let i = 0; i < parts.length - 1; i++) run.allowed(1, true, parts[i], "name", "y", at("parts", i, "name"));
    for (const i of [0, 255, 256, 767, 768, 1791, 1792, 3839, 3840, 7935, 7936, 7998, 7999]) run.allowed(0, false, parts[i], "name", "y", at("parts", i, "name"));
    expect(run.finish({ parts }, 0).map((f) => f.at.pointer)).toEqual(["/catalog/parts/7999/name"]);
  });

  it("passes what a search missed and a later constraint matched, however many misses wait or however long", () => {
    // A search's misses wait for later matches of their nodes; past 32 at once, or 256 matches, the run stops waiting.
    for (const [missed, between] of [[2, 0], [33, 0], [40, 0], [2, 300]] as const) {
      const { run, at } = runOver("catalog");
      const parts = Array.from({ length: missed }, () => ({ name: "y" }));
      const others = Array.from({ length: between }, () => ({ name: "y" }));
      run.missesAsOf(run.missClock());
      for (const [i, part] of parts.entries()) run.allowed(0, false, part, "name", "y", at("parts", i, "name"));
      run.missesAsOf(-1);
      for (const [i, other] of others.entries()) run.allowed(1, true, other, "name", "y", at("groups", i, "name"));
      // Every node the search missed but the last is matched.
      for (let i = 0; i < missed - 1; i++) run.allowed(1, true, parts[i], "name", "y", at("parts", i, "name"));
      const found = run.finish({ parts, groups: others }, 0);
      expect(found.map((f) => f.at.pointer)).toEqual([`/catalog/parts/${missed - 1}/name`]);
    }
  });

  it("answers a search's miss only by a match of the same key of the same object", () => {
    const { run, at } = runOver("catalog");
    const prop = { name: "y", value: "y" };
    run.missesAsOf(run.missClock());
    run.allowed(0, false, prop, "name", "y", at("props", 0, "name"));
    run.allowed(0, false, prop, "value", "y", at("props", 0, "value"));
    run.missesAsOf(-1);
    run.allowed(1, true, prop, "value", "y", at("props", 0, "value"));
    expect(run.finish({ props: [prop] }, 0).map((f) => f.at.pointer)).toEqual(["/catalog/props/0/name"]);
  });

  /**
   * The rules and the messages of the findings on a node that `made` rules miss as made, after a clock is taken, and
   * then `asOf` rules miss as of that clock: each strict rule reports, in that order, with the values of them all.
   */
  function verdictOnOneNode(made: readonly number[], asOf: readonly number[]): [number, string][] {
    const { run, at } = runOver("catalog");
    const part = { name: "w" };
    const clock = run.missClock();
    for (const rule of made) run.allowed(rule, false, part, "name", "w", at("parts", 0, "name"));
    run.missesAsOf(clock);
    for (const rule of asOf) run.allowed(rule, false, part, "name", "w", at("parts", 0, "name"));
    run.missesAsOf(-1);
    return run.finish({ parts: [part] }, 0).map((f) => [f.rule, f.message]);
  }

  const partW = (...allowed: string[]) => `The part name "w" is not one of the values allowed here: ${allowed.map((v) => `"${v}"`).join(", ")}.`;
  const propertyW = (...allowed: string[]) => `The property name "w" is not one of the values allowed for a property in the OSCAL namespace: ${allowed.map((v) => `"${v}"`).join(", ")}.`;

  it("reports first, of rules ordered alike, the one whose earliest miss was made first", () => {
    expect(verdictOnOneNode([1], [0, 1])).toEqual([
      [0, partW("x", "y")],
      [1, propertyW("x", "y")],
    ]);
  });

  it("orders three rules missing one node by their earliest misses, as of a clock or as made", () => {
    expect(verdictOnOneNode([1], [2, 0])).toEqual([
      [0, partW("x", "y", "z")],
      [1, propertyW("x", "y", "z")],
    ]);
    expect(verdictOnOneNode([0], [2, 1])).toEqual([
      [1, propertyW("x", "y", "z")],
      [0, partW("x", "y", "z")],
    ]);
  });

  it("orders the misses made as of an earlier clock before those made after it, and after those made before it", () => {
    const { run, at } = runOver("catalog");
    const before = { name: "v" };
    const after = { name: "w" };
    run.allowed(2, false, before, "name", "v", at("parts", 0, "name"));
    const clock = run.missClock();
    run.allowed(1, false, after, "name", "w", at("parts", 1, "name"));
    run.missesAsOf(clock);
    for (const [i, part] of [before, after].entries()) run.allowed(0, false, part, "name", part.name, at("parts", i, "name"));
    run.missesAsOf(-1);
    const found = run.finish({ parts: [before, after] }, 0);
    expect(found.map((f) => [f.rule, f.message])).toEqual([
      [0, 'The part name "v" is not one of the values allowed here: "x", "z".'],
      [0, 'The part name "w" is not one of the values allowed here: "x", "y".'],
      [1, 'The property name "w" is not one of the values allowed for a property in the OSCAL namespace: "x", "y".'],
    ]);
  });

  it("reports every unmatched key of one object, in the order first missed, under each strict constraint that missed it", () => {
    const { run, at } = runOver("catalog");
    const prop = { value: "v", name: "n" };
    run.allowed(1, false, prop, "value", "v", at("props", 0, "value"));
    run.allowed(0, false, prop, "name", "n", at("props", 0, "name"));
    run.allowed(2, false, prop, "name", "n", at("props", 0, "name"));
    run.allowed(0, false, prop, "value", "v", at("props", 0, "value"));
    const found = run.finish({ props: [prop] }, 0);
    expect(found.map((f) => [f.at.pointer, f.rule, f.message])).toEqual([
      ["/catalog/props/0/value", 1, 'The property name "v" is not one of the values allowed for a property in the OSCAL namespace: "x", "y".'],
      ["/catalog/props/0/value", 0, 'The part name "v" is not one of the values allowed here: "x", "y".'],
      ["/catalog/props/0/name", 0, 'The part name "n" is not one of the values allowed here: "x", "z".'],
    ]);
  });

  it("resolves references after the walk, against keys indexed later", () => {
    const { run, at } = runOver("catalog");
    const index = run.indexes["ix"]!;
    run.reference(1, index, "later", at("links", 0), missingKey);
    run.reference(1, index, "never", at("links", 1), missingKey);
    run.reference(1, index, null, at("links", 2), missingKey);
    index.add("later");
    const found = run.finish({ links: [{}, {}, {}] }, 0);
    expect(found.map((f) => [f.at.pointer, f.message])).toEqual([
      ["/catalog/links/1", 'The link\'s hypertext reference "never" names no resource in this document.'],
      ["/catalog/links/2", "The link's hypertext reference is missing or empty, so it names no resource in this document."],
    ]);
  });

  it("reports a fragment link only when no id or uuid of the document matches it", () => {
    const { run, at } = runOver("catalog");
    run.link("sec%201", at("links", 0, "href"));
    run.link("nowhere", at("links", 1, "href"));
    run.declare("sec 1");
    const found = run.finish({ links: [{ href: "#sec%201" }, { href: "#nowhere" }] }, 2);
    expect(found.map((f) => [f.rule, f.at.pointer])).toEqual([[2, "/catalog/links/1/href"]]);
  });

  it("looks many fragment links up among the declared ids as it does a few, whether declared before or after them", () => {
    const { run, at } = runOver("catalog");
    const hrefs = ["a", "gone", "b%20c", "d", "nowhere", "e", "a", "later", "missing", "f"];
    run.declare("a");
    hrefs.slice(0, 6).forEach((href, i) => run.link(href, at("links", i, "href")));
    for (const id of ["e", "d", "b c", "f"]) run.declare(id);
    hrefs.slice(6).forEach((href, i) => run.link(href, at("links", 6 + i, "href")));
    run.declare("later");
    const found = run.finish({ links: hrefs.map((href) => ({ href: `#${href}` })) }, 2);
    expect(found.map((f) => f.at.pointer)).toEqual(["/catalog/links/1/href", "/catalog/links/4/href", "/catalog/links/8/href"]);
  });

  it("does not report a fragment link again where its link already holds a finding, and keeps a malformed escape as written", () => {
    const { run, at } = runOver("catalog");
    const index = run.indexes["ix"]!;
    run.reference(1, index, "gone", at("links", 0), missingKey);
    run.link("gone", at("links", 0, "href"));
    run.report(0, at("links", 1), "on the second link");
    run.link("also-gone", at("links", 1, "href"));
    run.link("bad%zz", at("links", 2, "href"));
    run.link("%41", at("links", 3, "href"));
    run.declare("A");
    const found = run.finish({ links: [{ href: "#gone" }, { href: "#also-gone" }, { href: "#bad%zz" }, { href: "#%41" }] }, 2);
    expect(found.map((f) => [f.rule, f.at.pointer])).toEqual([
      [1, "/catalog/links/0"],
      [0, "/catalog/links/1"],
      [2, "/catalog/links/2/href"],
    ]);
    expect(found[2]!.message).toBe('The link target "#bad%zz" names no id or uuid declared in this document.');
  });
});

describe("general comparisons", () => {
  it("compare two values as the packs do: a number with a string that reads as one as numbers", () => {
    expect(CMPG(greater, ["10"], [9])).toBe(true);
    expect(CMPG(equal, [1], ["1.0"])).toBe(true);
    expect(CMPG(less, ["a"], [1])).toBe(false);
    const atoms = [0, 1, 10, 9, "9", "10", "1.0", "a", "", true, false, "true"];
    for (const compare of [equal, notEqual, less, lessOrEqual, greater, greaterOrEqual]) {
      for (const a of atoms) for (const b of atoms) expect(CMPG(compare, [a], [b]), `${compare.name} ${JSON.stringify([a, b])}`).toBe(compareGeneral(compare, [a], [b]) === TRUE);
    }
  });

  it("holds when some pair of values compares true", () => {
    expect(CMPG(greater, [1, 5], [3])).toBe(true);
    expect(CMPG(greater, [1, 2], [3])).toBe(false);
    expect(CMPG(equal, [], [3])).toBe(false);
  });
});
