// Resolution errors a user meets: each fails with an error that names the chain of hrefs that led to it, never with
// a catalog or an exception. Documents are real files in a temporary directory.
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fileLoader, resolveProfile, type ResolveResult } from "../../runtime/index.js";
import { put } from "../cli/support.js";
import { errorOf, readJson } from "./support.js";

const metadata = { title: "Resolution error test", "last-modified": "2024-05-01T12:00:00Z", version: "1", "oscal-version": "1.2.2" };
const catalog = {
  catalog: { uuid: "9c1e5b6a-2f0d-4c3e-8a7b-1d2e3f4a5b6c", metadata, controls: [{ id: "x-1", title: "X 1" }] },
};
const profileImporting = (href: string, withIds = ["x-1"]) => ({
  profile: { uuid: "3b1f5c2a-6d4e-4f8a-9b0c-1d2e3f4a5b6c", metadata, imports: [{ href, "include-controls": [{ "with-ids": withIds }] }] },
});

const root = mkdtempSync(path.join(tmpdir(), "oscal-resolve-errors-"));
const allowed = path.join(root, "allowed");
put(allowed, "catalog.json", catalog);
put(root, "outside-catalog.json", catalog);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function resolveFile(file: string, files?: Record<string, string>): ResolveResult {
  return resolveProfile(readJson(file), { loader: fileLoader({ allowedDir: allowed, files }), uri: pathToFileURL(file).href, sourceProfile: path.basename(file) });
}

describe("documents from files", () => {
  it("a YAML document is read by its extension, a relative href against the importing document's own directory", () => {
    put(allowed, "yaml/catalog.yaml", `catalog:\n  uuid: ${catalog.catalog.uuid}\n  metadata:\n    title: YAML catalog\n    last-modified: 2024-05-01T12:00:00Z\n    version: "1"\n    oscal-version: 1.2.2\n  controls:\n    - id: y-1\n      title: Y 1\n`);
    put(allowed, "yaml/inner.json", profileImporting("catalog.yaml", ["y-1"]));
    const outer = put(allowed, "outer-of-yaml.json", profileImporting("yaml/inner.json", ["y-1"]));
    const result = resolveFile(outer);
    expect(result.kind === "catalog" && result.document.catalog.controls?.map((control) => control.id)).toEqual(["y-1"]);
  });
});

describe("resolution errors", () => {
  it("a circular import through two profiles names the cycle", () => {
    const a = put(allowed, "cycle/a.json", profileImporting("b.json"));
    put(allowed, "cycle/b.json", profileImporting("./a.json"));
    const error = errorOf(resolveFile(a));
    expect(error.code).toBe("ERR_RESOLUTION");
    expect(error.fault).toBe("circular-import");
    expect(error.chain).toEqual(["a.json", "b.json", "./a.json"]);
    expect(error.detail).toBe("a.json -> b.json -> ./a.json: circular import: the profile imports itself through this chain");
  });

  it("a profile importing itself is circular", () => {
    const self = put(allowed, "self.json", profileImporting("self.json"));
    expect(errorOf(resolveFile(self)).detail).toMatch(/^self\.json -> self\.json: circular import/);
  });

  it("the same profile imported twice side by side is not circular", () => {
    put(allowed, "twice/inner.json", profileImporting("../catalog.json"));
    const twice = put(allowed, "twice/outer.json", {
      profile: { ...profileImporting("inner.json").profile, imports: [{ href: "inner.json", "include-all": {} }, { href: "inner.json", "include-all": {} }] },
    });
    expect(resolveFile(twice).kind).toBe("catalog");
  });

  it("a missing document names the href and the profile that imports it", () => {
    put(allowed, "nested/missing-inner.json", profileImporting("nowhere.json"));
    const outer = put(allowed, "nested/outer.json", profileImporting("missing-inner.json"));
    const error = errorOf(resolveFile(outer));
    expect(error.chain).toEqual(["outer.json", "missing-inner.json", "nowhere.json"]);
    expect(error.fault).toBe("document-unavailable");
    expect(error.detail).toMatch(/^outer\.json -> missing-inner\.json -> nowhere\.json: the document is not available: there is no file /);
  });

  it("a back-matter import whose resource is missing names its uuid", () => {
    const profile = put(allowed, "no-resource.json", profileImporting("#0f0e0d0c-0b0a-4998-8776-655443322110"));
    expect(errorOf(resolveFile(profile)).detail).toBe("no-resource.json -> #0f0e0d0c-0b0a-4998-8776-655443322110: no back-matter resource of the profile has the uuid 0f0e0d0c-0b0a-4998-8776-655443322110");
  });

  it("an href that leaves the allowed directory is refused, by .. and through a symbolic link", () => {
    const dotDot = put(allowed, "leaves.json", profileImporting("../outside-catalog.json"));
    expect(errorOf(resolveFile(dotDot)).detail).toBe(`leaves.json -> ../outside-catalog.json: the document is not available: it leaves the allowed directory ${allowed}`);
    symlinkSync(path.join(root, "outside-catalog.json"), path.join(allowed, "link.json"));
    const linked = put(allowed, "linked.json", profileImporting("link.json"));
    expect(errorOf(resolveFile(linked)).detail).toMatch(/^linked\.json -> link\.json: the document is not available: it leaves the allowed directory .* through a symbolic link$/);
  });

  it("a remote href is never fetched: it resolves only when mapped to a file", () => {
    const href = "https://example.org/catalog.json";
    const remote = put(allowed, "remote.json", profileImporting(href));
    expect(errorOf(resolveFile(remote)).detail).toBe(`remote.json -> ${href}: the document is not available: it is not a local file and is not mapped to one (the network is never used)`);
    expect(resolveFile(remote, { [href]: path.join(root, "outside-catalog.json") }).kind).toBe("catalog");
  });

  it("an import of a document that is neither profile nor catalog is refused", () => {
    put(allowed, "ssp.json", { "system-security-plan": { uuid: "1b1f5c2a-6d4e-4f8a-9b0c-1d2e3f4a5b6c", metadata } });
    const profile = put(allowed, "imports-ssp.json", profileImporting("ssp.json"));
    expect(errorOf(resolveFile(profile))).toMatchObject({ detail: "imports-ssp.json -> ssp.json: the document is neither an OSCAL profile nor an OSCAL catalog", fault: "not-profile-or-catalog" });
    put(allowed, "not-json.json", "this is not JSON");
    const broken = put(allowed, "imports-text.json", profileImporting("not-json.json"));
    expect(errorOf(resolveFile(broken)).detail).toMatch(/^imports-text\.json -> not-json\.json: the document is not available: the file .*not-json\.json is not a JSON or YAML document \(ERR_INVALID_JSON\)$/);
  });

  it("selecting controls the catalog does not have names them", () => {
    const profile = put(allowed, "unknown-ids.json", profileImporting("catalog.json", ["x-1", "zz-9", "zz-10"]));
    expect(errorOf(resolveFile(profile))).toMatchObject({ detail: "unknown-ids.json -> catalog.json: the import selects controls the imported catalog does not have: zz-9, zz-10", fault: "unknown-controls" });
  });

  it("a document that is not a profile is not resolved", () => {
    expect(errorOf(resolveFile(path.join(allowed, "catalog.json"))).detail).toBe("catalog.json: the document is not an OSCAL profile");
  });

  it("the deprecated combine method merge and two structuring directives are refused", () => {
    const merge = put(allowed, "merge.json", { profile: { ...profileImporting("catalog.json").profile, merge: { combine: { method: "merge" }, flat: {} } } });
    expect(errorOf(resolveFile(merge)).detail).toMatch(/^merge\.json: combine method "merge" is deprecated/);
    const twoStructures = put(allowed, "two.json", { profile: { ...profileImporting("catalog.json").profile, merge: { flat: {}, "as-is": true } } });
    expect(errorOf(resolveFile(twoStructures)).detail).toBe("two.json: merge gives more than one structuring directive (flat, as-is) (req-stucture)");
  });
});
