// Every regular expression the generated validators and semantic layer run, read back from generated/ and proved
// linear-time again. The build has made this proof already (it writes no manifest otherwise), so this run, about half a
// minute of one core, adds nothing to `make test` and is part of `make test-long`: it guards against a generated/ not
// written by the build.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildPaths } from "../../compiler/paths.js";
import { formatFunctionPatterns, patternsInCode, superLinearPatterns } from "../../compiler/regex-safety.js";

const { outDir } = buildPaths();

describe("generated regular expressions", () => {
  it("passes every pattern the generated validators and semantic layer run", async () => {
    const files = [
      ...readdirSync(path.join(outDir, "validators")).map((name) => path.join("validators", name)),
      "semantic.cjs",
    ];
    const patterns = files.flatMap((file) => {
      const code = readFileSync(path.join(outDir, file), "utf8");
      return [...patternsInCode(code, file), ...formatFunctionPatterns(code, file)];
    });
    expect(patterns.length).toBeGreaterThan(30);
    expect(await superLinearPatterns(patterns)).toEqual([]);
  });
});
