// The rule catalog's descriptions read as sentences about OSCAL documents: one example per constraint kind, the
// patterns that read stiffly kept out of every description, and NIST's remarks given as each rule's "why".
import { describe, expect, it } from "vitest";
import { RULE_CATALOG } from "../../runtime/core/rule-catalog.js";

const rule = (id: string) => {
  const found = RULE_CATALOG.find((r) => r.id === id);
  if (found === undefined) throw new Error(`no rule ${id}`);
  return found;
};

describe("rule catalog descriptions", () => {
  it("says each kind of constraint in plain words", () => {
    // allowed-values, pooled with other constraints reaching the same property name: their values are accepted too.
    expect(rule("MET-001.a").description).toBe('The name of a property in the OSCAL namespace is "marking" (or a value another rule for the same property allows).');
    // allowed-values with allow-other: what it is for.
    expect(rule("MET-037.a").description).toBe(
      'The hash algorithm has 8 known values: "SHA-224", "SHA-256", "SHA-384", "SHA-512", "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512". The rule documents them and never fails alone: other values are accepted too.',
    );
    expect(rule("ASC-008.a").description).toBe(
      'The part name has 3 known values: "asset", "method", "objective". The rule documents them and never fails alone: a stricter rule for the same assessment part accepts them as well as its own values.',
    );
    // A plural formal name takes no article, and a flag's noun does not repeat its owner's.
    expect(rule("AP-003.a").description).toMatch(/^In assessment plan terms and conditions, the name of an assessment part in the OSCAL namespace is one of 7 values: "rules-of-engagement", /);
    expect(rule("PRF-001.a").description).toBe('The order of insert controls is one of 3 values: "keep", "ascending", "descending".');
    expect(rule("SSP-010.a").description).toBe("No two responsible roles in the same inherited control implementation have the same responsible role ID.");
    expect(rule("MET-047.a").description).toBe("No two Base64 entries in the same resource have the same file name.");
    expect(rule("MET-024.b").description).toBe('No two parties with type "organization" in the document have the same party UUID: references name them by it.');
    expect(rule("MET-005.a").description).toBe('The hypertext reference of a link with rel "reference" whose href starts with "#" names a resource in the document.');
    expect(rule("ASC-023.a").description).toMatch(/^The value of a facet with system "http:\/\/www\.first\.org\/cvss\/v2\.0" and name "access-vector" is one of 3 values: /);
    expect(rule("MET-043.a").description).toBe('The value of a property with name "published" in the OSCAL namespace is a date and time with a time zone.');
    expect(rule("MET-045.a").description).toBe("A resource has at least one resource link or Base64.");
    expect(rule("MET-003.a").description).toBe('A link whose href starts with "#" must have no media type.');
    expect(rule("IMP-007.a").description).toBe("Service protocol information should have a service protocol information UUID.");
    expect(rule("CTL-005.a").description).toBe("A parameter must have no depends on.");
  });

  it("keeps stiff patterns out of every description", () => {
    for (const { id, description, set } of RULE_CATALOG) {
      // Templating residue of a pack's message ({ expression }) or Metapath, outside quoted values, regular
      // expressions and OSCAL's own insertion syntax.
      const words = description.replace(/"[^"]*"/g, '""').replace(/\{\{ insert: [^}]*\}\}/g, "").replace(/pattern \S+/g, "pattern");
      expect(words, id).not.toMatch(/[{}]|\[@|@[a-z]|\/\/|\(\.\)/);
      // A pack's descriptions are its own words ("Has Inventory Items").
      if (set !== "nist" && set !== "ours") continue;
      // "In a property, the property name of a property ...": the context said twice.
      const context = /^In (?:an? )?([a-z][\w -]*?), .* of (?:an? )?\1\b/.exec(description);
      expect(context, `${id}: ${description}`).toBeNull();
      // "the part name of a part": a flag's noun repeating its owner's.
      expect(description, id).not.toMatch(/\bthe (\w+) \w+ of (?:an? )?(?:[\w-]+ )*\1\b/);
      expect(description, id).not.toMatch(/\bitems\b/);
      // "a document metadata", "a local definitions": a mass or plural noun with "a".
      expect(description, id).not.toMatch(/\b(?:a|an) (?:[\w-]+ )*(?:metadata|information|definitions|characteristics|conditions|statements)(?=[,.]| (?:is|has|must|should)\b)/);
      expect(description, id).not.toMatch(/ and with | and whose /);
      expect(description, id).toMatch(/^[A-Z"].*\.$/);
    }
  });

  it("gives NIST's remarks, as plain text, as a rule's why", () => {
    expect(rule("SSP-010.a").remarks).toBe("Since responsible-role associates multiple party-uuid entries with a single role-id, each role-id must be referenced only once.");
    expect(rule("MET-007.a").remarks).toContain("provided in RFC3986 section 3.5 (https://www.rfc-editor.org/rfc/rfc3986#section-3.5).");
    // A message that says more than the description is the why; one that is the description is not repeated.
    expect(rule("IMP-007.a").remarks).toBe("It is a best practice to provide a UUID.");
    expect(rule("CTL-005.a").remarks).toBe("depends-on is deprecated.");
    expect(rule("IMP-006.a").remarks).toBeUndefined();
    expect(rule("FRR-001.a").remarks).toBe("FedRAMP requires work addresses.");
    for (const { id, remarks } of RULE_CATALOG) if (remarks !== undefined) expect(remarks, id).not.toMatch(/<|\s{2}|^\s|\s$/);
  });
});

describe("rule catalog fixes", () => {
  it("tells how to fix a finding of every rule", () => {
    expect(RULE_CATALOG.filter((r) => r.fix === undefined || r.fix.trim() === "").map((r) => r.id)).toEqual([]);
  });

  it("says an expect rule's fix from its test, or from its own message", () => {
    expect(rule("IMP-004.a").fix).toBe("Make the port range have a start.");
    expect(rule("MET-003.a").fix).toBe('Make the link whose href starts with "#" have no media type.');
    expect(rule("IMP-006.a").fix).toBe("Meet the requirement: The port range start should not be after its end.");
  });

  it("gives a pack rule a fix by its kind, with the guidance its authors link", () => {
    const withGuidance = RULE_CATALOG.filter((r) => r.set === "fedramp" && r.fix!.includes("Guidance: https://automate.fedramp.gov/"));
    expect(withGuidance.length).toBeGreaterThan(50);
    const leveraged = RULE_CATALOG.find((r) => r.set === "fedramp" && r.fix!.startsWith("Meet the requirement: A FedRAMP SSP MUST define the appropriate FIPS-199 impact level"));
    expect(leveraged?.fix).toMatch(/ Guidance: https:\/\/automate\.fedramp\.gov\/documentation\/ssp\/[^ ]+$/);
    expect(rule("JSON-001.a").fix).toBe("Keep one member of that name in the object, with the value you mean.");
  });
});
