// FedRAMP's unit tests (YAML under the shared fedramp folder) and their content, read the way FedRAMP's harness reads
// them: each test names content files and one expectation on one constraint id.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { repoRoot } from "../../compiler/paths.js";

export const fedrampDir = path.resolve(repoRoot, process.env.FEDRAMP_DIR ?? "../shared/fedramp");

export interface UnitTest {
  file: string;
  /** Content files as `content/<name>.json` (the YAML names the XML originals). */
  content: string[];
  constraintId: string;
  result: "pass" | "fail";
}

interface ExternalRef {
  href: string;
  resourceJson?: string;
  resolvedCatalogJson?: string;
}

export interface ContentEntry {
  model: string;
  externalRefs?: ExternalRef[];
  expectations: { constraintId: string; result: "pass" | "fail"; unitTest: string; caveat?: string }[];
}

export const expected = JSON.parse(readFileSync(path.join(fedrampDir, "expected.json"), "utf8")) as Record<string, ContentEntry>;

export function unitTests(): UnitTest[] {
  const dir = path.join(fedrampDir, "unit-tests");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".yaml"))
    .sort()
    .map((file) => {
      const testCase = (parseYaml(readFileSync(path.join(dir, file), "utf8")) as { "test-case": { content: string | string[]; expectations: { "constraint-id": string; result: string }[] } })["test-case"];
      const [expectation] = testCase.expectations;
      const content = (Array.isArray(testCase.content) ? testCase.content : [testCase.content]).map(
        (href) => `content/${path.basename(href).replace(/\.oscal\.xml$|\.xml$/, ".json")}`,
      );
      return { file, content, constraintId: expectation!["constraint-id"], result: expectation!.result.trim() as "pass" | "fail" };
    });
}

const parsed = new Map<string, unknown>();
export function readJson(relative: string): unknown {
  let value = parsed.get(relative);
  if (value === undefined) parsed.set(relative, (value = JSON.parse(readFileSync(path.join(fedrampDir, relative), "utf8"))));
  return value;
}

/**
 * The documents a content file imports, by href as written: the profile's pre-resolved catalog where there is one (the
 * pack resolves no profile itself), else the resource. Hrefs without a local copy are left out: not available.
 */
export function documentsOf(content: string): Record<string, unknown> {
  const documents: Record<string, unknown> = {};
  for (const ref of expected[content]?.externalRefs ?? []) {
    const local = ref.resolvedCatalogJson ?? ref.resourceJson;
    if (local !== undefined) documents[ref.href] = readJson(local);
  }
  return documents;
}
