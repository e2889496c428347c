// The hashed forms of general equality give exactly the answers of comparing every pair: `A = B` with a long side, and
// `some $x in S satisfies $x = E` / `every $x in S satisfies $x != E` evaluated by quantifiedEquality, on sequences of
// atoms whose comparisons convert (strings read as numbers, booleans as names and 0 or 1, dates as instants), with the
// same error where a pair cannot be compared.
import { describe, expect, it } from "vitest";
import { packModule } from "#generated/packs/index.js";
import { packProgram, Run, type PackModule } from "../../runtime/packs/engine.js";
import type { Item } from "../../runtime/packs/node-view.js";
import { compareFlagWith, compareGeneral, comparisonsMade, effectiveBoolean, equal, notEqual, quantifiedEquality, NotEvaluated, type Evaluator } from "../../runtime/packs/primitives.js";

const ATOMS: Item[] = ["", " ", "0", "1", "1.0", "01", "0x1", "1e0", "-0", "true", "false", "abc", "Infinity", "2020-01-01", 0, -0, 1, 1.5, Infinity, true, false];
const DATE = new Date("2020-01-01T00:00:00Z");

/** A seeded generator, so that a failure names a case that can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function sequence(next: () => number, length: number, withDate: boolean): Item[] {
  return Array.from({ length }, () => (withDate && next() < 0.05 ? DATE : ATOMS[Math.floor(next() * ATOMS.length)]!));
}

/** The outcome of an evaluation, or the message of what it threw. */
function outcome(evaluate: () => Item[]): unknown {
  try {
    return evaluate();
  } catch (error) {
    if (error instanceof NotEvaluated) return `not evaluated: ${error.message}`;
    throw error;
  }
}

const scope = new Run(packProgram(packModule("fedramp") as PackModule), { active: () => true, now: DATE }).rootScope;
const constant = (items: Item[]): Evaluator => () => items;

describe("hashed general equality", () => {
  it("answers A = B as comparing every pair does", () => {
    const next = random(1);
    for (let round = 0; round < 3000; round++) {
      const withDate = round % 10 === 0;
      const long = sequence(next, 8 + Math.floor(next() * 12), withDate);
      const short = sequence(next, Math.floor(next() * 4), withDate);
      // Pairs in order, left side first: where a date meets a string that is none, the first such pair is the error.
      const pairwise = (left: Item[], right: Item[]) => () => (left.some((a) => right.some((b) => compareGeneral(equal, [a], [b])[0] === true)) ? [true] : [false]);
      expect(outcome(() => compareGeneral(equal, long, short)), `round ${round}`).toEqual(outcome(pairwise(long, short)));
      expect(outcome(() => compareGeneral(equal, short, long)), `round ${round}`).toEqual(outcome(pairwise(short, long)));
    }
  });

  it("answers some $x in S satisfies $x = E and every $x in S satisfies $x != E as the quantifier does", () => {
    const next = random(2);
    for (let round = 0; round < 3000; round++) {
      const within = sequence(next, Math.floor(next() * 20), round % 10 === 0);
      const other = sequence(next, Math.floor(next() * 3), round % 10 === 0);
      for (const some of [true, false]) {
        // The quantifier as written: each item in turn, until one decides.
        const quantifier = () => [within.some((x) => effectiveBoolean(compareGeneral(some ? equal : notEqual, [x], other)) === some) ? some : !some];
        const expected = outcome(quantifier);
        expect(outcome(() => quantifiedEquality(some, constant(within), constant(other), undefined, scope)), `round ${round}, ${some ? "some" : "every"}`).toEqual(expected);
      }
    }
  });

  it("looks for one atom in a new sequence pair by pair, and hashes the sequence when it is looked in again", () => {
    const ids: Item[] = Array.from({ length: 100 }, (_, i) => `id-${i}`);
    const work = (probe: () => Item[]) => {
      const before = comparisonsMade();
      expect(probe()).toEqual([true]);
      return comparisonsMade() - before;
    };
    // The first atom matches at once: no set of the hundred is made for one look-up.
    expect(work(() => compareFlagWith(equal, "id-0", ids))).toBe(1);
    // Probed again, the sequence is hashed once (100 atoms, then the look-up); later look-ups cost one each.
    expect(work(() => compareFlagWith(equal, "id-99", ids))).toBe(101);
    expect(work(() => compareGeneral(equal, ["id-98"], ids))).toBe(1);
    expect(work(() => compareGeneral(equal, ids, ["id-97"]))).toBe(1);
  });
});
