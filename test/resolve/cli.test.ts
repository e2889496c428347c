// oscal-validate resolve, end to end through the built CLI (make build first): NIST's scored cases as cases.json runs
// them (`resolve <profile> -o <out>`), the exit status and message of the error cases, YAML output, and where
// documents may come from (--documents, --document).
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { validate } from "../../runtime/index.js";
import { put, run, tempDir } from "../cli/support.js";
import { CASES, comparable, controlIds, CORPUS, EXAMPLES, readJson, SP800_53_REV5 } from "./support.js";

const out = tempDir("resolve");
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("oscal-validate resolve", () => {
  CASES.forEach((resolutionCase, index) => {
    it(`${resolutionCase.name}: ${resolutionCase.expectError ? "exit 2 naming the import" : "exit 0 with NIST's expected catalog"}`, () => {
      const output = path.join(out, `case-${index}.json`);
      const mapped = Object.entries(resolutionCase.map ?? {}).flatMap(([href, file]) => ["--document", `${href}=${path.join(EXAMPLES, file)}`]);
      const documents = resolutionCase.documents === undefined ? [] : ["--documents", path.join(EXAMPLES, resolutionCase.documents)];
      const result = run(["resolve", resolutionCase.profile, "-o", output, ...documents, ...mapped], { cwd: EXAMPLES });
      if (resolutionCase.expectError) {
        expect(result.status).toBe(2);
        expect(result.stderr).toMatch(new RegExp(`^oscal-validate: cannot resolve the profile: ${resolutionCase.profile.replace(".", "\\.")}(?: -> \\S+)+: `));
        expect(existsSync(output)).toBe(false);
      } else {
        // Warnings only (combine keep warns of duplicate controls, as the specification asks).
        expect(result.stderr).toMatch(/^(?:oscal-validate: warning: .*\n)*$/);
        expect(result.status).toBe(0);
        expect(comparable(readJson(output))).toEqual(comparable(readJson(path.join(EXAMPLES, resolutionCase.expected!))));
      }
    });
  });

  it("writes to standard output without -o, and YAML when the output file ends in .yaml", () => {
    const toStdout = run(["resolve", "full-test_profile.json"], { cwd: EXAMPLES });
    expect(toStdout.status).toBe(0);
    const expected = comparable(readJson(path.join(EXAMPLES, "output-expected/full-test_profile_RESOLVED.json")));
    expect(comparable(JSON.parse(toStdout.stdout))).toEqual(expected);
    const yamlFile = path.join(out, "full-test.yaml");
    expect(run(["resolve", "full-test_profile.json", "-o", yamlFile], { cwd: EXAMPLES }).status).toBe(0);
    expect(comparable(parse(readFileSync(yamlFile, "utf8")))).toEqual(expected);
  });

  it("resolves FedRAMP's LOW baseline with its catalog mapped by --document, warning about what the catalog lacks", () => {
    const output = path.join(out, "low.json");
    const profile = path.join(CORPUS, "profile/fedramp-rev5-low-baseline-profile.json");
    const result = run(["resolve", profile, "--document", `NIST_SP-800-53_rev5_catalog.json=${SP800_53_REV5}`, "-o", output]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/^oscal-validate: warning: set-parameter "ac-01_odp\.05": no such parameter in the resolved catalog\n/);
    // The rest counted by kind, most frequent first, each count with what it quotes left out.
    const [, more, kinds] = /\noscal-validate: (\d+) more warnings:\n((?:  \d+ × .*\n)+)$/.exec(result.stderr)!;
    const counted = kinds!.trimEnd().split("\n").map((line) => /^  (\d+) × (.*)$/.exec(line)!);
    expect(counted.map((line) => line[2])).toContain('set-parameter "…": no such parameter in the resolved catalog');
    expect(counted.reduce((sum, line) => sum + Number(line[1]), 0)).toBe(Number(more));
    expect(counted.map((line) => Number(line[1]))).toEqual(counted.map((line) => Number(line[1])).sort((a, b) => b - a));
    const document = readJson(output);
    const report = validate(document);
    expect(report.kind === "report" && report.report.valid).toBe(true);
    expect(controlIds(document)).toHaveLength(156);
  });

  it("without the mapping the baseline's catalog is not available: it is never fetched", () => {
    const result = run(["resolve", path.join(CORPUS, "profile/fedramp-rev5-low-baseline-profile.json")]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('#051a77c1-b61d-4995-8275-dacfe688d510: the resource 051a77c1-b61d-4995-8275-dacfe688d510 is not available: rlink "NIST_SP-800-53_rev5_catalog.json": there is no file');
    expect(result.stdout).toBe("");
  });

  it("reads relative hrefs only inside --documents DIR (default: the profile's directory)", () => {
    const dir = tempDir("resolve-docs");
    put(dir, "catalogs/abc.json", readFileSync(path.join(EXAMPLES, "catalogs/abc-simple_catalog.json"), "utf8"));
    const profile = put(dir, "profiles/p.json", { profile: { ...readJson(path.join(EXAMPLES, "include-all-test_profile.json")).profile, imports: [{ href: "../catalogs/abc.json", "include-all": {} }] } });
    const confined = run(["resolve", profile]);
    expect(confined.status).toBe(2);
    expect(confined.stderr).toContain(`-> ../catalogs/abc.json: the document is not available: it leaves the allowed directory ${path.join(dir, "profiles")}`);
    expect(run(["resolve", profile, "--documents", dir]).status).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a profile that cannot be read and a missing profile argument exit 2", () => {
    const missing = run(["resolve", "no-such-profile.json"], { cwd: out });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe("oscal-validate: cannot resolve the profile: no-such-profile.json: the file cannot be read (ENOENT)\n");
    const usage = run(["resolve"]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('"resolve" takes one profile file');
  });
});
