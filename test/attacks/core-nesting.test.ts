// The nesting limit is the same in a cold worker and a warm one, for bytes, text and parsed documents: a document at
// the limit is validated, one level more is refused with 413-style ERR_PAYLOAD_TOO_LARGE, before any validator runs.
import { describe, expect, it } from "vitest";
import { Worker } from "node:worker_threads";
import path from "node:path";
import { repoRoot } from "../../compiler/paths.js";
import { MAX_NESTING_DEPTH } from "../../runtime/core/json-structure.js";
import { validateBytes, validateDocument } from "../../runtime/core/validate.js";
import { parseText } from "../../runtime/core/body.js";

const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";
const metadata = { title: "T", "last-modified": "2024-05-01T12:00:00Z", version: "1.0", "oscal-version": "1.2.2" };

/** A catalog whose groups nest to exactly `depth` levels of objects and arrays (the root object is level 1). */
function catalogOfDepth(depth: number): string {
  // root 1, catalog 2, then each group adds an array and an object; an odd depth ends in an empty `parts` array.
  const groups = Math.floor((depth - 2) / 2);
  let group: Record<string, unknown> = { id: "g", title: "T", ...(depth % 2 === 1 ? { parts: [] } : {}) };
  for (let i = 1; i < groups; i++) group = { id: "g", title: "T", groups: [group] };
  return JSON.stringify({ catalog: { uuid, metadata, groups: [group] } });
}

type Outcome = "report" | "ERR_PAYLOAD_TOO_LARGE" | string;

/** Validates every document in a fresh worker, first cold, then again after warming the validators up. */
function inFreshWorker(documents: readonly string[], level: "schema" | "full"): Promise<{ cold: Outcome[]; warm: Outcome[] }> {
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    import(workerData.core).then(({ validateBytes }) => {
      const run = () => workerData.documents.map((text) => {
        const outcome = validateBytes(new TextEncoder().encode(text), { level: workerData.level });
        return outcome.kind === "report" ? "report" : outcome.error.code;
      });
      const cold = run();
      for (let i = 0; i < 30; i++) run();
      parentPort.postMessage({ cold, warm: run() });
    });`;
  const core = path.join(repoRoot, "dist/runtime/core/validate.js");
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { documents, level, core } });
    worker.once("message", (result: { cold: Outcome[]; warm: Outcome[] }) => void worker.terminate().then(() => resolve(result)));
    worker.once("error", reject);
  });
}

describe("nesting limit", () => {
  const atLimit = catalogOfDepth(MAX_NESTING_DEPTH);
  const beyond = catalogOfDepth(MAX_NESTING_DEPTH + 1);

  it("the test documents nest exactly to the limit and one level beyond", () => {
    const depthOf = (text: string) => {
      let depth = 0;
      let deepest = 0;
      for (const c of text) if (c === "{" || c === "[") deepest = Math.max(deepest, ++depth); else if (c === "}" || c === "]") depth--;
      return deepest;
    };
    expect([depthOf(atLimit), depthOf(beyond)]).toEqual([MAX_NESTING_DEPTH, MAX_NESTING_DEPTH + 1]);
  });

  it("bytes, text and parsed documents: validated at the limit, refused one level beyond", () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    expect(validateBytes(encode(atLimit)).kind).toBe("report");
    expect(validateBytes(encode(beyond))).toEqual({ kind: "body-error", error: expect.objectContaining({ code: "ERR_PAYLOAD_TOO_LARGE", resolution: expect.stringContaining("nest at most") }) });
    expect(parseText(atLimit).ok).toBe(true);
    expect(parseText(beyond)).toEqual({ ok: false, error: expect.objectContaining({ code: "ERR_PAYLOAD_TOO_LARGE" }) });
    expect(validateDocument(JSON.parse(atLimit)).kind).toBe("report");
    expect(validateDocument(JSON.parse(beyond))).toMatchObject({ kind: "body-error", error: { code: "ERR_PAYLOAD_TOO_LARGE" } });
  });

  it("a parsed document nested far beyond the limit is refused without recursion", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(validateDocument({ catalog: { uuid, metadata, groups: deep } })).toMatchObject({ kind: "body-error", error: { code: "ERR_PAYLOAD_TOO_LARGE" } });
  });

  it.each(["schema", "full"] as const)("gives the same answers cold and warm in a fresh worker at level %s", async (level) => {
    const invalidAtLimit = atLimit.replace('"title":"T"}', '"title":"T","bogus":1}');
    const { cold, warm } = await inFreshWorker([atLimit, beyond, invalidAtLimit], level);
    expect(cold).toEqual(["report", "ERR_PAYLOAD_TOO_LARGE", "report"]);
    expect(warm).toEqual(cold);
  });
});
