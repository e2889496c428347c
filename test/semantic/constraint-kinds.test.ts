// One violating and one satisfying document per constraint kind and per rule of ours.
import { describe, it, expect } from "vitest";
import { ALL_RULES, catalog, findingsOf, profile, ruleFor, run, statement, UUID } from "./helpers.js";

const only = (findings: ReturnType<typeof run>, ruleId: string) => findingsOf(findings, ruleId).map((f) => ({ path: f.path, severity: f.severity }));

/**
 * The message of a part name no constraint reaching it allows: the values listed are those of every constraint that
 * missed it, so the list tells which constraints took part.
 */
const partNameMessage = (value: string, ...allowed: string[]) =>
  `The part name "${value}" is not one of the values allowed for a part in the OSCAL namespace: ${allowed.map((v) => `"${v}"`).join(", ")}.`;
// oscal-control-statement-part-name with oscal-control-part-name, and with oscal-control-objective-part-subpart-name
const CONTROL_PARTS = ["assessment", "assessment-method", "assessment-objective", "example", "guidance", "objective", "overview", "statement"];
const OBJECTIVE_PARTS = ["assessment-objective", "assessment-objects", "objective", "objects"];

describe("allowed-values", () => {
  const rule = ruleFor("oscal-group-part-name");
  const doc = (name: string) => catalog({ groups: [{ id: "g", title: "G", parts: [{ id: "g_x", name }] }] });
  it("reports a value outside the enumeration", () => {
    const [finding] = findingsOf(run("catalog", doc("bogus")), rule);
    expect(finding).toMatchObject({ path: "/catalog/groups/0/parts/0/name", severity: "error", keyword: "allowed-values" });
    expect(finding!.message).toBe(partNameMessage("bogus", "instruction", "overview"));
  });
  it("accepts an enumerated value", () => expect(only(run("catalog", doc("overview")), rule)).toEqual([]));
  it("never reports allow-other=yes constraints", () => {
    const links = [{ href: "https://example.com", rel: "not-enumerated" }];
    expect(run("catalog", catalog({ controls: [{ id: "c1", title: "C", parts: [statement("c1")], links }] }))).toEqual([]);
  });
  it("combines constraints reaching the same value (union)", () => {
    // "item" is allowed for nested statement parts by one constraint and not by .//part's other one.
    const parts = [{ id: "c1_smt", name: "statement", parts: [{ id: "c1_smt.a", name: "item", prose: "x" }] }];
    expect(run("catalog", catalog({ controls: [{ id: "c1", title: "C", parts }] }))).toEqual([]);
  });
  it("names the context's constraint before the value's own definition's, in the order they run", () => {
    // A control's props constraint and every prop's own one both miss "bogus"; the control's runs first, whether as a
    // loop of its own or inside the walk's loop over the props, before the prop is visited.
    const props = [{ name: "label", value: "C-1" }, { name: "bogus", value: "x" }];
    const parts = [{ ...statement("c1"), props: [{ name: "bogus", value: "y" }] }];
    const findings = run("catalog", catalog({ controls: [{ id: "c1", title: "C", props, parts }] }));
    const everyProperty = ruleFor("oscal-metadata-prop-name-values");
    expect(findings.map((f) => [f.ruleId, f.path])).toEqual([
      [ruleFor("oscal-control-prop-name"), "/catalog/controls/0/props/1/name"],
      [everyProperty, "/catalog/controls/0/props/1/name"],
      [ruleFor("oscal-part-prop-name"), "/catalog/controls/0/parts/0/props/0/name"],
      [everyProperty, "/catalog/controls/0/parts/0/props/0/name"],
    ]);
    // The values of the control's (or the part's) constraint and of every prop's own ("marking"), together.
    const propNameMessage = (...allowed: string[]) => `The property name "bogus" is not one of the values allowed for a property in the OSCAL namespace: ${allowed.map((v) => `"${v}"`).join(", ")}.`;
    const ofControl = propNameMessage("alt-identifier", "label", "marking", "sort-id", "status");
    const ofPart = propNameMessage("alt-identifier", "label", "marking", "sort-id");
    expect(findings.map((f) => f.message)).toEqual([ofControl, ofControl, ofPart, ofPart]);
  });
  it("reports a value two strict constraints miss under each of them, at its path, and none another one lists", () => {
    // A control's prop in the OSCAL namespace: the control's constraint lists "label", every prop's own only "marking".
    const controlWith = (...names: string[]) => catalog({ controls: [{ id: "c1", title: "C", props: names.map((name) => ({ name, value: "v" })), parts: [statement("c1")] }] });
    const ofControl = ruleFor("oscal-control-prop-name");
    const everyProperty = ruleFor("oscal-metadata-prop-name-values");
    const findings = run("catalog", controlWith("label", "bogus"));
    for (const rule of [ofControl, everyProperty]) expect(only(findings, rule)).toEqual([{ path: "/catalog/controls/0/props/1/name", severity: "error" }]);
    expect(findings.map((f) => f.ruleId)).toEqual([ofControl, everyProperty]);
    expect(run("catalog", controlWith("label", "marking"))).toEqual([]);
  });
  it("reports a value strict and allow-other constraints miss under the strict one alone, and none only allow-other ones miss", () => {
    // A terms-and-conditions part: its context lists 7 names, strictly; every assessment part's own constraint lists
    // "asset", "method" and "objective", and allows other names.
    const metadata = { title: "T", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" };
    const plan = (...names: string[]) => ({
      "assessment-plan": { uuid: UUID(1), metadata, "import-ssp": { href: "ssp.json" }, "terms-and-conditions": { parts: names.map((name) => ({ name, prose: "x" })) } },
    });
    const findings = run("assessment-plan", plan("methodology", "asset", "bogus")).filter((f) => f.keyword === "allowed-values");
    expect(findings.map((f) => [f.ruleId, f.path])).toEqual([[ruleFor("oscal-terms-and-conditions-part-name"), "/assessment-plan/terms-and-conditions/parts/2/name"]]);
    expect(findings[0]!.message).toContain('"asset", "assumptions"');
  });
  it("passes a control's part that one constraint of the site enumerates, and reports a deeper part only the other reaches", () => {
    // "overview" is allowed for a control's own parts, not for every part below it: a part of a part is reported.
    const overview = (id: string, parts: unknown[] = []) => ({ id, name: "overview", prose: "x", parts });
    const enhancement = { id: "c1.1", title: "E", parts: [statement("c1.1"), overview("c1.1_ovw")] };
    const control = { id: "c1", title: "C", parts: [statement("c1"), { id: "c1_gdn", name: "guidance", prose: "x", parts: [overview("c1_gdn.1")] }], controls: [enhancement] };
    const findings = run("catalog", catalog({ controls: [control] }));
    expect(findings.map((f) => [f.ruleId, f.path])).toEqual([[ruleFor("oscal-control-statement-part-name"), "/catalog/controls/0/parts/1/parts/0/name"]]);
  });
  it("reports a part of a nested control under each constraint missing it, first the one that reached it first", () => {
    // The enclosing control's .//part search reaches the enhancement's part before the enhancement's own constraints:
    // the enhancement's own .//part search (skipped as a repeat) must neither report it again nor change the order.
    const enhancement = { id: "c1.1", title: "E", parts: [statement("c1.1"), { id: "c1.1_x", name: "bogus", prose: "z" }] };
    const findings = run("catalog", catalog({ controls: [{ id: "c1", title: "C", parts: [statement("c1")], controls: [enhancement] }] }));
    const path = "/catalog/controls/0/controls/0/parts/1/name";
    expect(findings.map((f) => [f.ruleId, f.path, f.message])).toEqual(
      [ruleFor("oscal-control-statement-part-name"), ruleFor("oscal-control-part-name")].map((rule) => [rule, path, partNameMessage("bogus", ...CONTROL_PARTS)]),
    );
  });
  it("passes an assessment's part the control's search missed before its own constraint allowed it, and reports one none allows", () => {
    // The control's .//part search runs before the walk reaches its assessment part, whose constraint allows "objects".
    const assessment = (id: string) => ({ id: `${id}_asm`, name: "assessment", parts: [{ id: `${id}_asm.a`, name: "objects", prose: "x" }, { id: `${id}_asm.b`, name: "bogus", prose: "x" }] });
    const control = (id: string, more: object = {}) => ({ id, title: id, parts: [statement(id), assessment(id)], ...more });
    const findings = run("catalog", catalog({ controls: [control("c1", { controls: [control("c1.1")] })] })).filter((f) => f.keyword === "allowed-values");
    expect(findings.map((f) => [f.ruleId, f.path, f.message])).toEqual(
      ["/catalog/controls/0", "/catalog/controls/0/controls/0"].flatMap((control) =>
        [ruleFor("oscal-control-statement-part-name"), ruleFor("oscal-control-objective-part-subpart-name")].map((rule) => [rule, `${control}/parts/1/parts/1/name`, partNameMessage("bogus", ...OBJECTIVE_PARTS)]),
      ),
    );
  });
  it("names the enclosing control's constraint first at every level of nesting, and passes what any constraint allows there", () => {
    // Each control searches its own parts; an enhancement's search stands for the enclosing one's, as of its start.
    const statementWith = (id: string, name: string) => ({ ...statement(id), parts: [{ id: `${id}_smt.a`, name, prose: "x" }] });
    const inner = { id: "c1.1.1", title: "E2", parts: [statementWith("c1.1.1", "item"), { id: "c1.1.1_x", name: "bogus", prose: "z" }] };
    const enhancement = { id: "c1.1", title: "E", parts: [statementWith("c1.1", "guidance")], controls: [inner] };
    const findings = run("catalog", catalog({ controls: [{ id: "c1", title: "C", parts: [statementWith("c1", "item")], controls: [enhancement] }] }));
    expect(findings.map((f) => [f.ruleId, f.path, f.message])).toEqual([
      [ruleFor("oscal-control-statement-part-name"), "/catalog/controls/0/controls/0/parts/0/parts/0/name", partNameMessage("guidance", "assessment-objective", "item", "objective")],
      [ruleFor("oscal-control-statement-part-subpart-name"), "/catalog/controls/0/controls/0/parts/0/parts/0/name", partNameMessage("guidance", "assessment-objective", "item", "objective")],
      [ruleFor("oscal-control-statement-part-name"), "/catalog/controls/0/controls/0/controls/0/parts/1/name", partNameMessage("bogus", ...CONTROL_PARTS)],
      [ruleFor("oscal-control-part-name"), "/catalog/controls/0/controls/0/controls/0/parts/1/name", partNameMessage("bogus", ...CONTROL_PARTS)],
    ]);
  });
});

describe("matches", () => {
  const rule = ruleFor("oscal-metadata-telephone-number-regex");
  const doc = (number: string) => catalog({}, { parties: [{ uuid: UUID(2), type: "person", "telephone-numbers": [{ number }] }] });
  it("reports a non-matching value", () =>
    expect(only(run("catalog", doc("202-000")), rule)).toEqual([{ path: "/catalog/metadata/parties/0/telephone-numbers/0", severity: "warning" }]));
  it("accepts a matching value", () => expect(only(run("catalog", doc("2025550100")), rule)).toEqual([]));
});

const parties = (...roleIds: string[]) => ({
  roles: [{ id: "r", title: "R" }],
  parties: [{ uuid: UUID(2), type: "person" }],
  "responsible-parties": roleIds.map((roleId) => ({ "role-id": roleId, "party-uuids": [UUID(2)] })),
});

describe("is-unique", () => {
  const rule = ruleFor("oscal-unique-metadata-responsible-party");
  it("reports the second occurrence of a key", () =>
    expect(only(run("catalog", catalog({}, parties("r", "r"))), rule)).toEqual([{ path: "/catalog/metadata/responsible-parties/1", severity: "error" }]));
  it("accepts distinct keys", () => expect(only(run("catalog", catalog({}, parties("r"))), rule)).toEqual([]));
  it("reports every later occurrence of a key, past the first two", () => {
    const roles = { roles: [{ id: "r", title: "R" }, { id: "s", title: "S" }] };
    const doc = (...roleIds: string[]) => catalog({}, { ...parties(...roleIds), ...roles });
    expect(only(run("catalog", doc("r", "s", "r", "s", "r")), rule).map((f) => f.path)).toEqual([2, 3, 4].map((i) => `/catalog/metadata/responsible-parties/${i}`));
    expect(only(run("catalog", doc("r", "r", "r")), rule).map((f) => f.path)).toEqual([1, 2].map((i) => `/catalog/metadata/responsible-parties/${i}`));
  });
});

describe("index", () => {
  const rule = ruleFor("oscal-catalog-controls");
  const doc = (second: string) => catalog({ controls: [{ id: "c1", title: "C", parts: [statement("c1")] }, { id: second, title: "C", parts: [statement(`${second}x`)] }] });
  it("reports a duplicate key", () => expect(only(run("catalog", doc("c1")), rule)).toEqual([{ path: "/catalog/controls/1", severity: "error" }]));
  it("accepts unique keys", () => expect(only(run("catalog", doc("c2")), rule)).toEqual([]));
});

describe("index-has-key", () => {
  const rule = ruleFor("oscal-metadata-responsible-party-index-metadata-role-id");
  it("reports a key missing from the index", () => {
    const [finding] = findingsOf(run("catalog", catalog({}, parties("nope"))), rule);
    expect(finding).toMatchObject({ path: "/catalog/metadata/responsible-parties/0", severity: "error" });
    expect(finding!.message).toContain('"nope"');
  });
  it("accepts a key present in the index", () => expect(only(run("catalog", catalog({}, parties("r"))), rule)).toEqual([]));
  it("findings of several constraints at one node keep the order the constraints run, where their loops share a pass", () => {
    // An implemented requirement's responsible roles are checked by a role-id and a party-uuid reference (which also
    // search statements and by-components, between them) and a uniqueness check: one pass over the roles runs them all.
    const role = { "role-id": "nope", "party-uuids": [UUID(9)] };
    const requirement = { uuid: UUID(1), "control-id": "ac-1", "responsible-roles": [role, { "role-id": "nope" }], statements: [{ "statement-id": "ac-1_smt", uuid: UUID(2), "responsible-roles": [role] }] };
    const ssp = { "system-security-plan": { uuid: UUID(3), "control-implementation": { description: "D", "implemented-requirements": [requirement] } } };
    const roleId = ruleFor("oscal-implemented-requirement-index-metadata-role-id");
    const partyUuid = ruleFor("oscal-implemented-requirement-index-metadata-party-uuid");
    const unique = ruleFor("oscal-unique-ssp-implemented-requirement-responsible-role");
    const findings = run("system-security-plan", ssp).filter((f) => [roleId, partyUuid, unique].includes(f.ruleId));
    const base = "/system-security-plan/control-implementation/implemented-requirements/0";
    // References are decided after the walk, so at one node they follow what the walk reported there.
    expect(findings.map((f) => [f.ruleId, f.path])).toEqual([
      [roleId, `${base}/responsible-roles/0`],
      [partyUuid, `${base}/responsible-roles/0`],
      [unique, `${base}/responsible-roles/1`],
      [roleId, `${base}/responsible-roles/1`],
      [roleId, `${base}/statements/0/responsible-roles/0`],
      [partyUuid, `${base}/statements/0/responsible-roles/0`],
    ]);
  });
  it("checks every value of a repeated key field", () => {
    const doc = catalog({}, { ...parties("r"), "responsible-parties": [{ "role-id": "r", "party-uuids": [UUID(2), UUID(3)] }] });
    expect(only(run("catalog", doc), ruleFor("oscal-index-metadata-party-uuid"))).toEqual([{ path: "/catalog/metadata/responsible-parties/0/party-uuids/1", severity: "error" }]);
  });
});

describe("has-cardinality", () => {
  const rule = ruleFor("oscal-back-matter-resource-base64-rlink-cardinality");
  const doc = (resource: Record<string, unknown>) => catalog({ "back-matter": { resources: [{ uuid: UUID(5), ...resource }] } });
  it("reports too few targets at the context", () => expect(only(run("catalog", doc({})), rule)).toEqual([{ path: "/catalog/back-matter/resources/0", severity: "warning" }]));
  it("accepts enough targets", () => expect(only(run("catalog", doc({ rlinks: [{ href: "https://example.com" }] })), rule)).toEqual([]));
});

describe("expect", () => {
  const rule = ruleFor("oscal-catalog-control-require-statement-when-not-withdrawn");
  const doc = (control: Record<string, unknown>) => catalog({ controls: [{ id: "c1", title: "C", ...control }] });
  it("reports a failed test", () => expect(only(run("catalog", doc({})), rule)).toEqual([{ path: "/catalog/controls/0", severity: "error" }]));
  it("accepts a passing test", () => {
    expect(only(run("catalog", doc({ parts: [statement("c1")] })), rule)).toEqual([]);
    expect(only(run("catalog", doc({ props: [{ name: "status", value: "withdrawn" }] })), rule)).toEqual([]);
  });
  it("compares each value the path selects with each listed value", () => {
    const statuses = (...values: string[]) => doc({ props: values.map((value) => ({ name: "status", value })) });
    expect(only(run("catalog", statuses("active", "Withdrawn")), rule)).toEqual([]);
    expect(only(run("catalog", statuses("active", "WITHDRAWN")), rule)).toEqual([{ path: "/catalog/controls/0", severity: "error" }]);
  });
});

describe("rules of ours", () => {
  it("uuid-unique: a uuid declared twice", () => {
    const rule = ruleFor("ours:uuid-unique");
    const resources = (second: string) => catalog({ "back-matter": { resources: [{ uuid: UUID(5), title: "A" }, { uuid: second, title: "B" }] } });
    expect(only(run("catalog", resources(UUID(5))), rule)).toEqual([{ path: "/catalog/back-matter/resources/1/uuid", severity: "warning" }]);
    expect(only(run("catalog", resources(UUID(6))), rule)).toEqual([]);
  });
  it("fragment-href: #fragment must name an id or uuid", () => {
    const rule = ruleFor("ours:fragment-href");
    const doc = (href: string) => catalog({ controls: [{ id: "c1", title: "C", parts: [statement("c1")] }] }, { links: [{ href, rel: "related" }] });
    expect(only(run("catalog", doc("#nowhere")), rule)).toEqual([{ path: "/catalog/metadata/links/0/href", severity: "warning" }]);
    expect(only(run("catalog", doc("#c1")), rule)).toEqual([]);
  });
  it("fragment-href: a link to a uuid resolves however many links there are, whether or not uuids are checked for uniqueness", () => {
    const rule = ruleFor("ours:fragment-href");
    // Past four links the identifiers are looked up in sets, links to earlier ones as they come.
    const links = [...Array.from({ length: 6 }, () => ({ href: `#${UUID(5)}`, rel: "related" })), { href: "#nowhere", rel: "related" }];
    const resource = { uuid: UUID(5), title: "R", links: [{ href: `#${UUID(5)}`, rel: "related" }] };
    const doc = catalog({ "back-matter": { resources: [resource] } }, { links });
    const withoutUuidRule = new Set([...ALL_RULES].filter((id) => id !== ruleFor("ours:uuid-unique")));
    for (const active of [ALL_RULES, withoutUuidRule]) {
      expect(only(run("catalog", doc, active), rule)).toEqual([{ path: "/catalog/metadata/links/6/href", severity: "warning" }]);
    }
  });
  it("fragment-href: a link an index-has-key constraint looks up among identifiers is reported once, by that constraint", () => {
    const fragmentRule = ruleFor("ours:fragment-href");
    const indexRule = ruleFor("oscal-catalog-groups-controls-parts");
    const referenceRule = ruleFor("oscal-metadata-link-reference-index-back-matter-resource");
    const links = (href: string) => [{ href, rel: "related" }];
    const doc = (href: string, metadataLinks: unknown[] = []) =>
      catalog(
        { controls: [{ id: "c1", title: "C", parts: [statement("c1")], links: links(href) }, { id: "c2", title: "C", parts: [statement("c2")] }], "back-matter": { resources: [{ uuid: UUID(5), title: "R" }] } },
        { links: metadataLinks },
      );
    const linkFindings = (findings: ReturnType<typeof run>) => findings.filter((f) => [fragmentRule, indexRule, referenceRule].includes(f.ruleId)).map((f) => [f.ruleId, f.path]);
    expect(linkFindings(run("catalog", doc("#c2")))).toEqual([]);
    expect(linkFindings(run("catalog", doc("#nowhere")))).toEqual([[indexRule, "/catalog/controls/0/links/0"]]);
    // Declared, but not a control, group or part.
    expect(linkFindings(run("catalog", doc(`#${UUID(5)}`)))).toEqual([[indexRule, "/catalog/controls/0/links/0"]]);
    expect(linkFindings(run("catalog", doc("#c2", [{ href: "#nowhere", rel: "reference" }])))).toEqual([[referenceRule, "/catalog/metadata/links/0"]]);
    // Where the constraint is off, the link is checked as every other fragment is.
    const withoutIndexRule = new Set([...ALL_RULES].filter((id) => id !== indexRule));
    expect(linkFindings(run("catalog", doc("#nowhere"), withoutIndexRule))).toEqual([[fragmentRule, "/catalog/controls/0/links/0/href"]]);
    expect(linkFindings(run("catalog", doc(`#${UUID(5)}`), withoutIndexRule))).toEqual([]);
    // A parsed value may hold one link object at two places, one the constraint does not reach: it is checked there.
    const shared = { href: "#nowhere", rel: "related" };
    const sharing = catalog({ controls: [{ id: "c1", title: "C", parts: [statement("c1")], links: [shared] }], groups: [{ id: "g1", title: "G", links: [shared] }] });
    expect(linkFindings(run("catalog", sharing))).toEqual([
      [indexRule, "/catalog/controls/0/links/0"],
      [fragmentRule, "/catalog/groups/0/links/0/href"],
    ]);
  });
  it("profile-import-href: #uuid must name a back-matter resource", () => {
    const rule = ruleFor("ours:profile-import-href");
    const doc = (uuid: string) => profile({ imports: [{ href: `#${UUID(9)}`, "include-all": {} }], "back-matter": { resources: [{ uuid, rlinks: [{ href: "c.json" }] }] } });
    expect(only(run("profile", doc(UUID(8))), rule)).toEqual([{ path: "/profile/imports/0", severity: "warning" }]);
    expect(only(run("profile", doc(UUID(9))), rule)).toEqual([]);
  });
  it("insert-param: inserted parameter ids exist in the catalog", () => {
    const rule = ruleFor("ours:insert-param");
    const doc = (params: unknown[]) => catalog({ controls: [{ id: "c1", title: "C", params, parts: [statement("c1", "Use {{ insert: param, c1_prm_1 }}.")] }] });
    expect(only(run("catalog", doc([])), rule)).toEqual([{ path: "/catalog/controls/0/parts/0/prose", severity: "warning" }]);
    expect(only(run("catalog", doc([{ id: "c1_prm_1", label: "L" }])), rule)).toEqual([]);
  });
});

describe("messages in OSCAL's words", () => {
  // What a finding of each kind says on a real document: the node by its formal name, the offending value quoted, what
  // was expected in OSCAL's terms; never the constraint's Metapath or id.
  const messageOf = (model: string, doc: unknown, source: string) => {
    const messages = findingsOf(run(model, doc), ruleFor(source)).map((f) => f.message);
    expect(messages, source).toHaveLength(1);
    expect(messages[0]!.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/pattern \S+/g, "pattern"), source).not.toMatch(/[[\]@]|::|\bR\.|oscal-/);
    return messages[0]!;
  };
  it("allowed-values names the value by its formal name and says which nodes the values apply to", () => {
    const props = [{ name: "sort-order", value: "1" }];
    expect(messageOf("catalog", catalog({ controls: [{ id: "c1", title: "C", props, parts: [statement("c1")] }] }), "oscal-control-prop-name")).toBe(
      'The property name "sort-order" is not one of the values allowed for a property in the OSCAL namespace: "alt-identifier", "label", "marking", "sort-id", "status".',
    );
  });
  it("matches names the pattern or the datatype and how to write it", () => {
    const party = (number: string) => catalog({}, { parties: [{ uuid: UUID(2), type: "person", "telephone-numbers": [{ number }] }] });
    expect(messageOf("catalog", party("202-000"), "oscal-metadata-telephone-number-regex")).toBe('The telephone number "202-000" does not match the required pattern ^[0-9]{3}[0-9]{1,12}$.');
    const resource = { uuid: UUID(5), title: "R", rlinks: [{ href: "r.pdf" }], props: [{ name: "published", value: "2024-01-01" }] };
    expect(messageOf("catalog", catalog({ "back-matter": { resources: [resource] } }), "oscal-back-matter-resource-prop-published-datatype")).toBe(
      'The property value "2024-01-01" is not a valid date and time with a time zone for a property with name "published" in the OSCAL namespace: write it as YYYY-MM-DDThh:mm:ss followed by Z or +hh:mm.',
    );
  });
  it("is-unique and index name the repeated key and what it identifies", () => {
    expect(messageOf("catalog", catalog({}, parties("r", "r")), "oscal-unique-metadata-responsible-party")).toBe(
      'This responsible party repeats the responsible role "r" of an earlier one in the same document metadata; each must be unique there.',
    );
    const controls = [{ id: "c1", title: "C", parts: [statement("c1")] }, { id: "c1", title: "C", parts: [statement("c1x")] }];
    expect(messageOf("catalog", catalog({ controls }), "oscal-catalog-controls")).toBe('This control repeats the control identifier "c1" of an earlier one; references could not tell them apart.');
  });
  it("index-has-key names the reference as the document has it and what it should name", () => {
    expect(messageOf("catalog", catalog({}, parties("nope")), "oscal-metadata-responsible-party-index-metadata-role-id")).toBe('The responsible role "nope" names no role in this document.');
    const links = [{ href: "#nowhere", rel: "related" }];
    expect(messageOf("catalog", catalog({ controls: [{ id: "c1", title: "C", parts: [statement("c1")], links }] }), "oscal-catalog-groups-controls-parts")).toBe(
      'The link\'s hypertext reference "#nowhere" names no control, control group or part in this document.',
    );
  });
  it("has-cardinality says what the node needs and how many it has", () => {
    expect(messageOf("catalog", catalog({ "back-matter": { resources: [{ uuid: UUID(5), title: "R" }] } }), "oscal-back-matter-resource-base64-rlink-cardinality")).toBe(
      "A resource needs at least one resource link or Base64 (found 0).",
    );
  });
  it("expect says the test in words, or NIST's own message naming the node", () => {
    expect(messageOf("catalog", catalog({ controls: [{ id: "c1", title: "C" }] }), "oscal-catalog-control-require-statement-when-not-withdrawn")).toBe(
      'A control must either have a property with name "status" whose value is "withdrawn" or "Withdrawn" or have a part with name "statement". This one does not.',
    );
    const params = [{ id: "p1", label: "L", "depends-on": "p0" }];
    expect(messageOf("catalog", catalog({ controls: [{ id: "c1", title: "C", params, parts: [statement("c1")] }] }), "oscal-parameter-depends-on-deprecated")).toBe("depends-on is deprecated (parameter).");
  });
});

describe("check()", () => {
  it("honours the active rule set", () => {
    const doc = catalog({ controls: [{ id: "c1", title: "C" }] });
    expect(run("catalog", doc, new Set())).toEqual([]);
  });
  it("never throws, whatever the input", () => {
    const junk: unknown[] = [null, 1, "x", [], { catalog: null }, { catalog: [] }, { catalog: { metadata: 5, controls: { a: 1 }, groups: [null, 3, { parts: "x" }] } },
      { profile: { imports: [null, { href: 7 }], "back-matter": { resources: "x" } } }, { "system-security-plan": { "control-implementation": { "implemented-requirements": [{ statements: [1] }] } } }];
    for (const model of ["catalog", "profile", "system-security-plan", "nope"]) for (const doc of junk) expect(() => run(model, doc)).not.toThrow();
  });
  it("returns findings in document order", () => {
    const doc = catalog({ controls: [{ id: "c1", title: "C" }, { id: "c2", title: "C" }] }, { links: [{ href: "#nowhere", rel: "related" }] });
    expect(run("catalog", doc).map((f) => f.path)).toEqual(["/catalog/metadata/links/0/href", "/catalog/controls/0", "/catalog/controls/1"]);
  });
});
