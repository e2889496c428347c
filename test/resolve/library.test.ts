// The service's document library on its own: what its index may say, which hrefs name its documents, that nothing
// outside its directory is read, and that each document is parsed once.
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { checkLibrary, DocumentLibrary, type LibraryLimits } from "../../runtime/resolve/library.js";
import { resolveProfile, validate } from "../../runtime/index.js";
import { controlIds, EXAMPLES, readJson } from "./support.js";

const LIMITS: LibraryLimits = { maxFileBytes: 1024 * 1024, maxDocuments: 100 };
const CATALOG_URL = "https://example.test/catalogs/abc-simple.json";

/** A library holding NIST's example profiles and catalogs, with an index naming one catalog by a canonical URL. */
function exampleLibrary(index: unknown = { documents: { [CATALOG_URL]: "catalogs/abc-simple_catalog.json" } }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "oscal-library-"));
  cpSync(EXAMPLES, dir, { recursive: true, filter: (source) => !source.includes("output-expected") });
  writeFileSync(path.join(dir, "index.json"), JSON.stringify(index));
  return dir;
}

function open(dir: string): DocumentLibrary {
  const checked = checkLibrary(dir, LIMITS);
  if (!checked.ok) throw new Error(checked.problems.join("\n"));
  return new DocumentLibrary(checked.settings);
}

describe("document library", () => {
  it("names a document by its canonical URL or by its name in the directory, parsed once", () => {
    const dir = exampleLibrary();
    const library = open(dir);
    const byUrl = library.load(CATALOG_URL);
    const byName = library.load("catalogs/abc-simple_catalog.json");
    expect(byUrl).toEqual({ uri: pathToFileURL(path.join(dir, "catalogs/abc-simple_catalog.json")).href, document: readJson(path.join(EXAMPLES, "catalogs/abc-simple_catalog.json")) });
    expect(byName).toStrictEqual(byUrl);
    expect("document" in byName && "document" in byUrl && byName.document === byUrl.document).toBe(true);
  });

  it("resolves a profile whose imports it holds, into a valid catalog", () => {
    const library = open(exampleLibrary());
    const profile = { profile: { ...readJson(path.join(EXAMPLES, "base-test_profile.json")).profile, imports: [{ href: CATALOG_URL, "include-all": {} }] } };
    const result = resolveProfile(profile, { loader: library, uri: library.rootUri });
    expect(result.kind).toBe("catalog");
    const report = result.kind === "catalog" ? validate(result.document) : undefined;
    expect(report?.kind === "report" && report.report.valid).toBe(true);
    expect(controlIds(result.kind === "catalog" && result.document)).toContain("a1");
  });

  it("refuses every href that leaves its directory, and never names the directory", () => {
    const dir = exampleLibrary();
    const outside = mkdtempSync(path.join(tmpdir(), "oscal-outside-"));
    writeFileSync(path.join(outside, "catalog.json"), JSON.stringify(readJson(path.join(EXAMPLES, "catalogs/abc-simple_catalog.json"))));
    symlinkSync(path.join(outside, "catalog.json"), path.join(dir, "link.json"));
    mkdirSync(path.join(dir, "sub"));
    const library = open(dir);
    const refused = {
      "../outside.json": "it leaves the document library",
      [`../${path.basename(outside)}/catalog.json`]: "it leaves the document library",
      [path.join(outside, "catalog.json")]: "it leaves the document library",
      [pathToFileURL(path.join(outside, "catalog.json")).href]: "it leaves the document library",
      "link.json": "it leaves the document library",
      "%2e%2e/outside.json": "it leaves the document library",
      "..\\outside.json": "it leaves the document library",
      "..%2foutside.json": "it is not in the document library",
      "catalogs/%00.json": "it is not in the document library",
      "https://example.test/not-indexed.json": "it is not in the document library (the service fetches nothing from the network)",
      "missing.json": "it is not in the document library",
    };
    for (const [href, unavailable] of Object.entries(refused)) expect(library.load(href), href).toEqual({ unavailable });
    // Relative to a document inside it, `..` may stay inside.
    expect(library.load("../catalogs/abc-simple_catalog.json", pathToFileURL(path.join(dir, "sub/profile.json")).href)).toHaveProperty("document");
  });

  it("hands rule packs a library profile as the catalog it resolves to, and other documents as they are", () => {
    const library = open(exampleLibrary({ documents: { "https://example.test/base-test.json": "base-test_profile.json" } }));
    const resolved = library.documents("https://example.test/base-test.json") as { catalog: unknown };
    expect(controlIds(resolved)).toEqual(controlIds(readJson(path.join(EXAMPLES, "output-expected/base-test_profile_RESOLVED.json"))));
    expect(library.documents("https://example.test/base-test.json")).toBe(resolved);
    expect(library.documents("catalogs/abc-simple_catalog.json")).toEqual(readJson(path.join(EXAMPLES, "catalogs/abc-simple_catalog.json")));
    expect(library.documents("../anything.json")).toBeUndefined();
  });

  it("lists every problem of a bad index or directory at start-up", () => {
    const dir = exampleLibrary({
      documents: {
        "https://example.test/a.json": "nowhere.json",
        "https://example.test/b.json": "../outside.json",
        "https://example.test/c.json": "/etc/hostname",
        "https://example.test/d.json": 42,
      },
    });
    const checked = checkLibrary(dir, { ...LIMITS, maxDocuments: 3 });
    expect(checked.ok).toBe(false);
    const problems = checked.ok ? [] : checked.problems;
    expect(problems).toEqual([
      expect.stringMatching(/holds more than 3 files$/),
      expect.stringMatching(/: "https:\/\/example\.test\/a\.json": there is no file "nowhere\.json" in the library$/),
      expect.stringMatching(/: "https:\/\/example\.test\/b\.json": "\.\.\/outside\.json" leaves the library$/),
      expect.stringMatching(/: "https:\/\/example\.test\/c\.json": expected a file name relative to the library$/),
      expect.stringMatching(/: "https:\/\/example\.test\/d\.json": expected a file name relative to the library$/),
    ]);
    writeFileSync(path.join(dir, "index.json"), "{ not json");
    expect(checkLibrary(dir, LIMITS)).toMatchObject({ ok: false, problems: [expect.stringMatching(/^index\.json of the document library .*: not JSON/)] });
    writeFileSync(path.join(dir, "index.json"), JSON.stringify({ [CATALOG_URL]: "catalogs/abc-simple_catalog.json" }));
    expect(checkLibrary(dir, LIMITS)).toMatchObject({ ok: false, problems: [expect.stringContaining('expected an object with one member, "documents"')] });
    writeFileSync(path.join(dir, "index.json"), JSON.stringify({ documents: { [CATALOG_URL]: "catalogs/abc-full_catalog.json" } }));
    expect(checkLibrary(dir, { ...LIMITS, maxFileBytes: 2000 })).toMatchObject({ ok: false, problems: [expect.stringContaining('"catalogs/abc-full_catalog.json" is larger than 2000 bytes')] });
    expect(checkLibrary(path.join(dir, "missing"), LIMITS)).toMatchObject({ ok: false, problems: [expect.stringMatching(/is not a directory$/)] });
  });
});
