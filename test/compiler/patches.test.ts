// Each documented patch fixes a real value that the raw NIST schema gets wrong; a patch that no longer applies fails.
import { describe, expect, it } from "vitest";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { buildPaths } from "../../compiler/paths.js";
import { readVerifiedSchemas, type JsonSchema } from "../../compiler/schema-source.js";
import { applyPatches, loadPatches } from "../../compiler/patches.js";
import { MODEL_SCHEMA_FILES } from "../../compiler/models.js";

const paths = buildPaths();
const { schemas } = readVerifiedSchemas(paths.schemaDir, paths.schemaSumsFile);
const patches = loadPatches(paths.patchesDir);
const patched = applyPatches(schemas, patches);

function validatorOf(schema: JsonSchema) {
  const ajv = new Ajv.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

function verdicts(file: string, document: unknown): { raw: boolean; patched: boolean } {
  return { raw: validatorOf(schemas.get(file)!)(document), patched: validatorOf(patched.get(file)!)(document) };
}

const metadata = { title: "Patch test", "last-modified": "2024-05-01T12:00:00Z", version: "1.0", "oscal-version": "1.2.2" };
const uuid = "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b";

function profileWithCombine(combine: object) {
  return { profile: { uuid, metadata, imports: [{ href: "#catalog", "include-all": {} }], merge: { combine, "as-is": true } } };
}

function catalogWithVersion(version: string) {
  return { catalog: { uuid, metadata: { ...metadata, version } } };
}

function catalogWithPartyEmail(email: string) {
  return { catalog: { uuid, metadata: { ...metadata, parties: [{ uuid, type: "person", name: "A. Person", "email-addresses": [email] }] } } };
}

describe("schema patches", () => {
  it("every patch has an id, a reason and an upstream link, and touches only input schemas", () => {
    expect(patches.map((patch) => patch.id).sort()).toEqual(["combine-method-2259", "email-rfc6531", "xsd-regex-semantics"]);
    for (const patch of patches) {
      expect(patch.reason.length).toBeGreaterThan(80);
      expect(patch.upstream).toMatch(/^https:\/\/github\.com\//);
      for (const file of Object.keys(patch.operations)) expect(schemas.has(file)).toBe(true);
    }
  });

  it("combine-method-2259: a profile stating its combine method is valid, an unknown method is not", () => {
    const file = MODEL_SCHEMA_FILES.profile;
    expect(verdicts(file, profileWithCombine({ method: "use-first" }))).toEqual({ raw: false, patched: true });
    expect(verdicts(file, profileWithCombine({ method: "keep" }))).toEqual({ raw: false, patched: true });
    expect(verdicts(file, profileWithCombine({ method: "newest" }))).toEqual({ raw: false, patched: false });
    expect(verdicts(file, profileWithCombine({}))).toEqual({ raw: true, patched: true });
  });

  it("combine-method-2259 reaches every combine of the complete schema too", () => {
    const text = JSON.stringify(patched.get("oscal_complete_schema.json"));
    expect(text.match(/"title":"Combination Method"/g)).toHaveLength(3);
  });

  it("xsd-regex-semantics: a string that starts with a no-break space is a valid string datatype value", () => {
    const file = MODEL_SCHEMA_FILES.catalog;
    expect(verdicts(file, catalogWithVersion("\u00a0draft 2"))).toEqual({ raw: false, patched: true });
    expect(verdicts(file, catalogWithVersion("line\u2028separator"))).toEqual({ raw: false, patched: true });
    // What the datatype forbids stays forbidden: XSD whitespace at either end.
    expect(verdicts(file, catalogWithVersion(" draft"))).toEqual({ raw: false, patched: false });
    expect(verdicts(file, catalogWithVersion("draft\t"))).toEqual({ raw: false, patched: false });
  });

  it("email-rfc6531: an internationalized address is valid, a string without @ is not", () => {
    const file = MODEL_SCHEMA_FILES.catalog;
    expect(verdicts(file, catalogWithPartyEmail("josé.garcía@correo.example"))).toEqual({ raw: false, patched: true });
    expect(verdicts(file, catalogWithPartyEmail("用户@例子.广告"))).toEqual({ raw: false, patched: true });
    expect(verdicts(file, catalogWithPartyEmail("nobody.example.com"))).toEqual({ raw: false, patched: false });
  });

  it("email-rfc6531: the linear email pattern accepts exactly what `.+@.+` (with XSD's `.`) accepts", () => {
    const definitions = patched.get(MODEL_SCHEMA_FILES.catalog)!.definitions as Record<string, { allOf: { pattern?: string }[] }>;
    const linear = new RegExp(definitions.EmailAddressDatatype!.allOf[1]!.pattern!, "u");
    const backtracking = /^[^\n\r]+@[^\n\r]+$/u;
    // Every string of up to 6 characters over an alphabet that exercises both patterns' decisions.
    let strings = [""];
    let compared = 0;
    for (let length = 1; length <= 6; length++) {
      strings = strings.flatMap((prefix) => ["a", "@", "\n", "\u2028"].map((c) => prefix + c));
      for (const value of strings) {
        expect(linear.test(value), JSON.stringify(value)).toBe(backtracking.test(value));
        compared++;
      }
    }
    expect(compared).toBe(5460);
  });

  it("a patch that no longer applies fails loudly, naming the patch and the schema", () => {
    const drifted = new Map(schemas);
    const profile = structuredClone(schemas.get(MODEL_SCHEMA_FILES.profile)!) as { definitions: Record<string, unknown> };
    delete profile.definitions["oscal-profile-oscal-profile:merge"];
    drifted.set(MODEL_SCHEMA_FILES.profile, profile);
    expect(() => applyPatches(drifted, patches)).toThrow(/patch combine-method-2259 no longer applies to oscal_profile_schema\.json/);
  });
});
