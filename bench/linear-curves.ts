// Validation time against input size for the shapes that once grew super-linearly (a backtracking email pattern,
// error lists copied per item, deep nesting, huge names, many findings, unclosed parameter insertions): each shape at 1x
// and 10x its size, with the time per byte and the ratio of the two (linear growth gives about 1; quadratic about 10);
// the semantic layer on parts nested 200 and 2,000 deep, with the ratio of its time per level. Also the cost of the
// structure scan (nesting depth, duplicate names), in WebAssembly and in JavaScript, on the SP 800-53 catalog against
// JSON.parse of the same text.
// Not part of the tests. Run: npx tsx bench/linear-curves.ts   (OSCAL_BENCH_RUNS sets the runs per size)
import { readFileSync } from "node:fs";
import path from "node:path";
import { validateBytes, type ValidateOptions } from "../runtime/core/validate.js";
import { resolveSemanticRules, runSemanticLayer } from "../runtime/core/semantic.js";
import { scanJsonBytes, scanJsonBytesInJs } from "../runtime/core/json-structure.js";
import { corpusDir } from "../test/helpers/corpus.js";
import { measure } from "./timing.js";

const RUNS = Number(process.env.OSCAL_BENCH_RUNS ?? 5);
const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const metadata = { title: "T", "last-modified": "2024-05-01T12:00:00Z", version: "1.0", "oscal-version": "1.2.2" };
const catalog = (content: Record<string, unknown>) => ({ catalog: { uuid, metadata, ...content } });

/** Each shape, as a function of a size factor (1 or 10). */
const SHAPES: Record<string, (factor: number) => unknown> = {
  "email: '@' x 10k·f and a newline": (f) =>
    catalog({ metadata: { ...metadata, parties: [{ uuid, type: "person", name: "A", "email-addresses": [`${"@".repeat(10_000 * f)}\n`] }] } }),
  "array: 20k·f wrong-typed items": (f) => catalog({ params: new Array(20_000 * f).fill(1) }),
  "nesting: 20·f group chains 120 deep": (f) => {
    const chain = () => {
      let group: Record<string, unknown> = { id: "g", title: "T" };
      for (let i = 0; i < 120; i++) group = { id: "g", title: "T", groups: [group] };
      return group;
    };
    return catalog({ groups: Array.from({ length: 20 * f }, chain) });
  },
  "huge names: 240 names of 10k·f characters": (f) =>
    catalog(Object.fromEntries(Array.from({ length: 240 }, (_, i) => [`${String(i).padStart(3, "0")}${"x".repeat(10_000 * f)}`, 1]))),
  "many findings: 10k·f unknown properties": (f) => catalog(Object.fromEntries(Array.from({ length: 10_000 * f }, (_, i) => [`unknown-${i}`, i]))),
};

/** Shapes whose cost is in the semantic layer, validated at level full. */
const FULL_LEVEL_SHAPES: Record<string, (factor: number) => unknown> = {
  "insertions: 2k·f unclosed in one prose": (f) =>
    catalog({ controls: [{ id: "c1", title: "C", parts: [{ id: "c1_smt", name: "statement", prose: `${"{{insert:param,".repeat(2_000 * f)} }}` }] }] }),
};

function medianMs(bytes: Uint8Array, options: ValidateOptions = {}): number {
  return measure(RUNS, 1, () => {
    const outcome = validateBytes(bytes, options);
    if (outcome.kind !== "report") throw new Error(`expected a report, got ${outcome.kind}`);
  }).whole.median;
}

console.log(`median of ${RUNS} runs per size, node ${process.version}`);
console.log(`${"shape".padEnd(44)} ${"1x bytes".padStart(10)} ${"1x ms".padStart(8)} ${"ns/byte".padStart(8)} ${"10x bytes".padStart(11)} ${"10x ms".padStart(8)} ${"ns/byte".padStart(8)} ${"ratio".padStart(6)}`);
const shapes = [...Object.entries(SHAPES).map(([name, shape]) => ({ name, shape, options: {} })), ...Object.entries(FULL_LEVEL_SHAPES).map(([name, shape]) => ({ name, shape, options: { level: "full" } as const }))];
for (const { name, shape, options } of shapes) {
  const [small, large] = [1, 10].map((factor) => new TextEncoder().encode(JSON.stringify(shape(factor))));
  const [smallMs, largeMs] = [medianMs(small!, options), medianMs(large!, options)];
  const perByte = (ms: number, bytes: Uint8Array) => (ms * 1e6) / bytes.length;
  const ratio = perByte(largeMs, large!) / perByte(smallMs, small!);
  console.log(
    `${name.padEnd(44)} ${String(small!.length).padStart(10)} ${smallMs.toFixed(1).padStart(8)} ${perByte(smallMs, small!).toFixed(1).padStart(8)} ${String(large!.length).padStart(11)} ${largeMs.toFixed(1).padStart(8)} ${perByte(largeMs, large!).toFixed(1).padStart(8)} ${ratio.toFixed(2).padStart(6)}`,
  );
}

// Parts nested deeper than a JSON text may be (the structure scan stops at 256 levels): the semantic layer alone, on
// the parsed document, with a finding at every level ("item" is not a part name of a control or of a part).
const resolved = resolveSemanticRules([]);
if (!resolved.ok) throw new Error("the default rules resolve");
const nestedParts = (depth: number): unknown => {
  let part: Record<string, unknown> = { id: `p${depth}`, name: "item", prose: "Do it." };
  for (let level = depth - 1; level >= 1; level--) part = { id: `p${level}`, name: "item", parts: [part] };
  return catalog({ controls: [{ id: "c1", title: "Control", parts: [part] }] });
};
const [shallowMs, deepMs] = [200, 2_000].map((depth) => {
  const document = nestedParts(depth);
  return measure(RUNS, 1, () => runSemanticLayer("catalog", document, resolved.active)).whole.median / depth;
});
console.log(`\nsemantic layer, parts nested 200 deep ${(shallowMs! * 1000).toFixed(1)} us per level, 2,000 deep ${(deepMs! * 1000).toFixed(1)} us per level, ratio ${(deepMs! / shallowMs!).toFixed(2)}`);

const catalogBytes = new Uint8Array(readFileSync(path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json")));
const catalogText = new TextDecoder().decode(catalogBytes);
const scan = measure(40, 10, () => scanJsonBytes(catalogBytes)).whole.median;
const scanInJs = measure(40, 10, () => scanJsonBytesInJs(catalogBytes)).whole.median;
const parse = measure(40, 10, () => JSON.parse(catalogText)).whole.median;
console.log(
  `\nstructure scan (depth, duplicate names, escapes) on the SP 800-53 catalog (${catalogBytes.length} bytes): ${scan.toFixed(2)} ms ` +
    `(${(scan / parse).toFixed(2)}x JSON.parse), in JavaScript ${scanInJs.toFixed(2)} ms (${(scanInJs / parse).toFixed(2)}x), JSON.parse ${parse.toFixed(2)} ms`,
);
