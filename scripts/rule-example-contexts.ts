// Contexts the corpus documents lack, built into small valid documents of the corpus: each adds what one rule needs to
// report (two responsible roles with the same role id in a statement, a hash too short for its algorithm, ...), for the
// rules that no single change of a real document reaches. scripts/rule-examples.ts validates each and keeps those that
// make a rule without an example report.
import type { PatchOperation } from "../compiler/json-patch.js";

export interface BuiltContext {
  /** The rule the context is built for (the script keeps whichever rules it makes report). */
  rule: string;
  base: string;
  patch: PatchOperation[];
  /** The other documents a pack rule reads, by href as the document writes it → base. */
  documents?: Record<string, string>;
}

const SSP = "corpus:system-security-plan/oscal-cli-example-ssp-valid.json";
const AP = "corpus:assessment-plan/oscal-cli-example-ap-valid.json";
const AR = "corpus:assessment-results/oscal-cli-example-ar-valid.json";
const COMPONENT_DEFINITION = "corpus:component-definition/oscal-cli-example-component-definition-valid.json";
const CATALOG = "corpus:catalog/oscal-content-basic-catalog.json";

const FEDRAMP_SSP = "fedramp:content/fedramp-ssp-example.json";
const POAM = "corpus:plan-of-action-and-milestones/oscal-content-ifa-poam.json";
const PROFILE = "corpus:profile/nist-sp800-53-rev5-privacy-baseline-profile-min.json";

/** FedRAMP's example SSP has one empty title, which stops the schema layer and so every rule but the packs'. */
const FEDRAMP_SSP_REPAIR: PatchOperation = { op: "replace", path: "/system-security-plan/system-implementation/components/7/protocols/0/title", value: "HTTPS" };
const FEDRAMP_BASELINE_HREF = "../../../baselines/xml/FedRAMP_rev5_MODERATE-baseline_profile.xml";
const FEDRAMP_BASELINE = { [FEDRAMP_BASELINE_HREF]: "fedramp:resources/FedRAMP_rev5_MODERATE-baseline-resolved-profile_catalog.json" };

/** The same document under each of the rlink hrefs a back-matter resource gives for it (XML, JSON and YAML). */
const underEach = (hrefs: readonly string[], base: string) => Object.fromEntries(hrefs.map((href) => [href, base]));
const formats = (stem: string) => ["xml", "json", "yaml"].map((extension) => `${stem}.${extension}`);

/** UUIDs the built contexts give their new objects, distinct from every base document's. */
const uuid = (n: number) => `11111111-2222-4333-8444-${String(n).padStart(12, "0")}`;
const add = (path: string, value: unknown): PatchOperation => ({ op: "add", path, value });

// What the base documents hold: a role "maintainer", a party, a component and an implemented requirement (SSP), a back-matter resource.
const ROLE = "maintainer";
const PARTY = "4ba3f2b7-e894-48d7-b940-91c68661df55";
const SSP_COMPONENT = "551b9706-d6a4-4d25-8207-f2ccec548b89";
const SSP_RESOURCE = "2891ef24-9089-4be5-b848-8293f6fa269b";
const twice = <T>(value: T): T[] => [value, structuredClone(value)];
const role = { "role-id": ROLE };
const party = { "role-id": ROLE, "party-uuids": [PARTY] };

const ssp = "/system-security-plan";
const requirement = `${ssp}/control-implementation/implemented-requirements/0`;
const component = (n: number, type: string) => ({ uuid: uuid(n), type, title: "Built component", description: "A component built for the example.", status: { state: "operational" } });
/** A fragment the JSON schema's uri-reference format lets through and the datatype uri-reference does not: a quote. */
const QUOTED_FRAGMENT = '#a"b';
const control = "/catalog/groups/0/groups/0/controls/0";
const assessment = (props: object[]) => ({ name: "assessment", ...(props.length === 0 ? {} : { props }), prose: "Assess the control." });
const hash = (algorithm: string) => add(`${ssp}/back-matter/resources/0/rlinks/0/hashes`, [{ algorithm, value: "0123456789abcdef" }]);

export const BUILT_CONTEXTS: readonly BuiltContext[] = [
  { rule: "SSP-016.a", base: SSP, patch: [add(`${requirement}/statements`, [{ "statement-id": "control-1_smt", uuid: uuid(1), "responsible-roles": twice(role) }])] },
  { rule: "SSP-010.a", base: SSP, patch: [add(`${requirement}/by-components/0/inherited`, [{ uuid: uuid(1), description: "Inherited from the provider.", "responsible-roles": twice(role) }])] },
  { rule: "SSP-028.a", base: SSP, patch: [add(`${ssp}/control-implementation/set-parameters`, [{ "param-id": "control-1_prm_1", values: ["a"] }, { "param-id": "control-1_prm_1", values: ["b"] }])] },
  { rule: "SSP-045.a", base: SSP, patch: [add(`${ssp}/system-characteristics/responsible-parties`, twice(party))] },
  { rule: "IMP-037.a", base: SSP, patch: [add(`${ssp}/system-implementation/inventory-items/0/implemented-components/0/responsible-parties`, twice(party))] },
  { rule: "SSP-034.a", base: SSP, patch: [add(`${ssp}/system-characteristics/system-information/props`, [{ name: "zz-unlisted", value: "yes" }])] },
  { rule: "SSP-035.a", base: SSP, patch: [add(`${ssp}/system-characteristics/system-information/props`, [{ name: "privacy-designation", value: "zz-unlisted" }])] },
  { rule: "SSP-038.a", base: SSP, patch: [add(`${ssp}/system-characteristics/system-information/links`, [{ href: `#${uuid(9)}`, rel: "privacy-impact-assessment" }])] },
  { rule: "SSP-037.a", base: SSP, patch: [add(`${ssp}/system-characteristics/system-information/links`, [{ href: QUOTED_FRAGMENT, rel: "privacy-impact-assessment" }])] },
  { rule: "SSP-039.a", base: SSP, patch: [add(`${ssp}/system-characteristics/system-information/links`, [{ href: "pia.pdf", rel: "privacy-impact-assessment" }])] },
  ...["#" + uuid(9), "ssp.json", QUOTED_FRAGMENT].map((href, index): BuiltContext => ({
    rule: ["SSP-049.a", "SSP-050.a", "SSP-048.a"][index]!,
    base: SSP,
    patch: [add(`${ssp}/system-implementation/leveraged-authorizations`, [{ uuid: uuid(1), title: "Leveraged system", links: [{ href, rel: "system-security-plan" }], "party-uuid": PARTY, "date-authorized": "2024-01-01" }])],
  })),
  { rule: "SSP-002.a", base: SSP, patch: [add(`${ssp}/system-characteristics/authorization-boundary/diagrams`, [{ uuid: uuid(1), links: [{ href: QUOTED_FRAGMENT, rel: "diagram" }] }])] },
  { rule: "SSP-054.a", base: SSP, patch: [add(`${ssp}/system-implementation/components/0/links`, [{ href: `#${uuid(9)}`, rel: "depends-on" }])] },
  { rule: "SSP-054.a", base: SSP, patch: [add(`${ssp}/system-implementation/components/0/links`, [{ href: uuid(9), rel: "depends-on" }])] },
  { rule: "SSP-057.b", base: SSP, patch: [add(`${ssp}/system-implementation/components/0/links`, [{ href: `#${SSP_COMPONENT}`, rel: "uses-service" }])] },
  { rule: "SSP-057.b", base: SSP, patch: [add(`${ssp}/system-implementation/components/0/links`, [{ href: SSP_COMPONENT, rel: "uses-service" }])] },
  { rule: "SSP-055.a", base: SSP, patch: [add(`${ssp}/system-implementation/components/1`, component(1, "validation")), add(`${ssp}/system-implementation/components/2`, { ...component(1, "validation"), title: "Another" })] },
  { rule: "IMP-006.a", base: SSP, patch: [add(`${ssp}/system-implementation/components/0/protocols`, [{ name: "https", "port-ranges": [{ start: 443, end: 80, transport: "TCP" }] }])] },
  { rule: "IMP-023.a", base: SSP, patch: [add(`${ssp}/system-implementation/components/1`, { ...component(1, "interconnection"), props: [{ name: "zz-unlisted", value: "x" }] })] },
  { rule: "IMP-025.a", base: SSP, patch: [add(`${ssp}/system-implementation/components/0/props`, [{ name: "ipv4-address", value: "172.1.2.3", class: "zz-unlisted" }])] },
  { rule: "MET-003.a", base: SSP, patch: [add(`${ssp}/metadata/links`, [{ href: `#${SSP_RESOURCE}`, "media-type": "text/plain" }])] },
  { rule: "MET-004.a", base: SSP, patch: [add(`${ssp}/metadata/links`, [{ href: QUOTED_FRAGMENT, rel: "reference" }])] },
  { rule: "MET-007.a", base: SSP, patch: [add(`${ssp}/metadata/links`, [{ href: "https://example.com/a", "resource-fragment": "a b" }])] },
  { rule: "MET-026.a", base: SSP, patch: [add(`${ssp}/metadata/actions`, [{ uuid: uuid(1), type: "approval", system: "http://csrc.nist.gov/ns/oscal", "responsible-parties": [{ "role-id": "zz-unlisted", "party-uuids": [PARTY] }] }])] },
  { rule: "MET-027.a", base: SSP, patch: [add(`${ssp}/metadata/actions`, [{ uuid: uuid(1), type: "approval", system: "http://csrc.nist.gov/ns/oscal", "responsible-parties": [{ "role-id": ROLE, "party-uuids": [uuid(9)] }] }])] },
  { rule: "MET-031.a", base: SSP, patch: [add(`${ssp}/metadata/props`, twice({ name: "label", ns: "https://example.com/ns", uuid: uuid(1), value: "a" }))] },
  ...["SHA-224", "SHA-256", "SHA-384", "SHA-512"].map((algorithm, index): BuiltContext => ({ rule: `MET-0${38 + index}.a`, base: SSP, patch: [hash(algorithm)] })),
  { rule: "AP-002.a", base: AP, patch: [add("/assessment-plan/local-definitions", { users: twice({ uuid: uuid(1), title: "Assessor", "role-ids": [ROLE] }) })] },
  { rule: "AP-003.a", base: AP, patch: [add("/assessment-plan/terms-and-conditions", { parts: [{ name: "zz-unlisted", prose: "Terms." }] })] },
  { rule: "ASC-001.a", base: AP, patch: [add("/assessment-plan/local-definitions", { activities: [{ uuid: uuid(1), description: "An activity.", steps: [{ uuid: uuid(2), description: "A step.", "responsible-roles": twice(role) }] }] })] },
  {
    rule: "ASC-081.a",
    base: AP,
    patch: [
      add("/assessment-plan/local-definitions", { activities: [{ uuid: uuid(1), description: "An activity." }] }),
      add("/assessment-plan/tasks", [{ uuid: uuid(2), type: "action", title: "A task", "associated-activities": [{ "activity-uuid": uuid(1), subjects: [{ type: "component", "include-all": {} }], "responsible-roles": twice(role) }] }]),
    ],
  },
  { rule: "ASC-006.a", base: AP, patch: [add("/assessment-plan/assessment-assets", { "assessment-platforms": [{ uuid: uuid(1), title: "Platform", "uses-components": [{ "component-uuid": uuid(9), "responsible-parties": twice(party) }] }] })] },
  { rule: "ASC-071.a", base: AP, patch: [add("/assessment-plan/local-definitions", { "objectives-and-methods": [{ "control-id": "control-1", parts: [{ name: "zz-unlisted", prose: "An objective." }] }] })] },
  { rule: "ASC-072.a", base: AP, patch: [add("/assessment-plan/local-definitions", { "objectives-and-methods": [{ "control-id": "control-1", parts: twice({ name: "objective", prose: "An objective." }) }] })] },
  { rule: "AR-001.a", base: AR, patch: [add("/assessment-results/results/0/local-definitions", { components: twice(component(1, "software")) })] },
  { rule: "AR-002.a", base: AR, patch: [add("/assessment-results/results/0/local-definitions", { users: twice({ uuid: uuid(1), title: "Assessor", "role-ids": [ROLE] }) })] },
  { rule: "AR-003.a", base: AR, patch: [add("/assessment-results/results/0/attestations", [{ "responsible-parties": twice(party), parts: [{ name: "assertion", prose: "Attested." }] }])] },
  { rule: "ASC-086.a", base: AR, patch: [add("/assessment-results/results/0/risks", [{ uuid: uuid(1), title: "A risk", description: "A risk.", statement: "A risk.", status: "open", "risk-log": { entries: [{ uuid: uuid(2), start: "2024-01-01T00:00:00Z", props: [{ name: "zz-unlisted", value: "x" }] }] } }])] },
  { rule: "ASC-009.a", base: AR, patch: [add("/assessment-results/results/0/attestations", [{ parts: [{ name: "objective", props: [{ name: "zz-unlisted", value: "x" }], prose: "An objective." }] }])] },
  { rule: "ASC-011.a", base: AR, patch: [add("/assessment-results/results/0/attestations", [{ parts: [{ name: "objective", props: [{ name: "method", value: "zz-unlisted" }], prose: "An objective." }] }])] },
  {
    rule: "ASC-015.a",
    base: AR,
    patch: [add("/assessment-results/results/0/observations", [{ uuid: uuid(1), description: "An observation.", methods: ["TEST"], collected: "2024-01-01T00:00:00Z", origins: [{ actors: [{ type: "party", "actor-uuid": PARTY }], "related-tasks": [{ "task-uuid": uuid(9), "responsible-parties": twice(party) }] }] }])],
  },
  { rule: "PRF-006.a", base: PROFILE, patch: [add("/profile/modify", { alters: [{ "control-id": "ac-1", adds: [{ props: [{ name: "zz-unlisted", value: "x" }] }] }] })] },
  { rule: "CMP-023.a", base: COMPONENT_DEFINITION, patch: [add("/component-definition/capabilities", twice({ uuid: uuid(1), name: "Capability", description: "A capability." }))] },
  { rule: "CMP-006.a", base: COMPONENT_DEFINITION, patch: [add("/component-definition/capabilities", [{ uuid: uuid(1), name: "Capability", description: "A capability.", "incorporates-components": twice({ "component-uuid": "cc215481-bfb2-4537-b5b0-f46914656975", description: "Incorporated." }) }])] },
  { rule: "CTL-003.a", base: CATALOG, patch: [add("/catalog/params", [{ id: "built-1", props: [{ name: "zz-unlisted", value: "x" }] }])] },
  { rule: "CTL-004.a", base: CATALOG, patch: [add("/catalog/params", [{ id: "built-1", props: [{ name: "zz-unlisted", ns: "http://csrc.nist.gov/ns/rmf", value: "x" }] }])] },
  { rule: "CTL-005.a", base: CATALOG, patch: [add("/catalog/params", [{ id: "built-0" }, { id: "built-1", "depends-on": "built-0" }])] },
  { rule: "CAT-007.a", base: CATALOG, patch: [add(`${control}/parts/4`, { name: "statement", parts: [{ name: "zz-unlisted", prose: "An item." }] })] },
  { rule: "CAT-009.a", base: CATALOG, patch: [add(`${control}/parts/4`, { ...assessment([{ name: "method", value: "TEST" }]), parts: [{ name: "zz-unlisted", prose: "Objects." }] })] },
  { rule: "CAT-010.a", base: CATALOG, patch: [add(`${control}/parts/4`, assessment([{ name: "method", value: "TEST" }, { name: "zz-unlisted", value: "x" }]))] },
  { rule: "CAT-011.a", base: CATALOG, patch: [add(`${control}/parts/4`, assessment([{ name: "method", value: "TEST" }, { name: "zz-unlisted", ns: "http://csrc.nist.gov/ns/rmf", value: "x" }]))] },
  { rule: "CAT-012.a", base: CATALOG, patch: [add(`${control}/parts/4`, assessment([]))] },
  { rule: "CAT-013.a", base: CATALOG, patch: [add(`${control}/parts/4`, assessment([{ name: "method", value: "zz-unlisted" }]))] },
  { rule: "CAT-019.a", base: CATALOG, patch: [add("/catalog/groups/0/props/0", { name: "label", ns: "https://example.com/ns", uuid: uuid(1), value: "a" }), add("/catalog/groups/0/props/0", { name: "label", ns: "https://example.com/ns", uuid: uuid(1), value: "b" })] },
  // Pack rules that read the document another imports: FedRAMP's example SSP (its one schema error repaired) with its
  // MODERATE baseline, resolved; the small plan, results and POA&M with the SSP or plan they import.
  { rule: "PKG-004.a", base: FEDRAMP_SSP, patch: [FEDRAMP_SSP_REPAIR], documents: FEDRAMP_BASELINE },
  { rule: "PKG-002.a", base: FEDRAMP_SSP, patch: [FEDRAMP_SSP_REPAIR, { op: "remove", path: "/system-security-plan/control-implementation/implemented-requirements/0" }], documents: FEDRAMP_BASELINE },
  { rule: "FRR-043.a", base: FEDRAMP_SSP, patch: [FEDRAMP_SSP_REPAIR, { op: "replace", path: "/system-security-plan/back-matter/resources/1/rlinks/0/href", value: "https://example.com/laws.xlsx" }], documents: FEDRAMP_BASELINE },
  // FedRAMP's resolved baselines drop the parameters that aggregate others; NIST's resolved MODERATE baseline keeps them.
  {
    rule: "FRR-033.a",
    base: FEDRAMP_SSP,
    patch: [FEDRAMP_SSP_REPAIR, add("/system-security-plan/control-implementation/implemented-requirements/0/set-parameters/0", { "param-id": "ac-1_prm_1", values: ["a"] })],
    documents: { [FEDRAMP_BASELINE_HREF]: "corpus:catalog/nist-sp800-53-rev5.1.1-moderate-baseline-resolved-catalog.json" },
  },
  {
    rule: "FRR-030.a",
    base: AR,
    patch: [add("/assessment-results/local-definitions", { "objectives-and-methods": [{ "control-id": "control-1", parts: [{ name: "objective", props: twice({ name: "response-point", ns: "http://fedramp.gov/ns/oscal", value: "a" }) }] }] })],
  },
  {
    rule: "PKG-006.a",
    base: PROFILE,
    patch: [add("/profile/modify", { alters: [{ "control-id": "zz-unlisted", adds: [{ props: [{ name: "label", ns: "https://example.com/ns", value: "a" }] }] }] })],
    documents: underEach(formats("../../../../nist.gov/SP800-53/rev5/xml/NIST_SP-800-53_rev5_catalog").map((href, index) => href.replace("/xml/", `/${["xml", "json", "yaml"][index]}/`)), "corpus:catalog/nist-sp800-53-rev5.0.1-catalog-2021.json"),
  },
  { rule: "PKG-009.a", base: AP, patch: [add("/assessment-plan/assessment-subjects", [{ type: "component", "include-subjects": [{ "subject-uuid": uuid(9), type: "component" }] }])], documents: underEach(formats("example_ssp_valid"), SSP) },
  { rule: "PKG-011.a", base: AP, patch: [add("/assessment-plan/local-definitions", { "inventory-items": [{ uuid: uuid(1), description: "An inventory item.", "implemented-components": [{ "component-uuid": uuid(9) }] }] })], documents: underEach(formats("example_ssp_valid"), SSP) },
  { rule: "PKG-012.a", base: POAM, patch: [add("/plan-of-action-and-milestones/observations/0", { uuid: uuid(1), description: "An observation.", methods: ["EXAMINE"], collected: "2024-01-01T00:00:00Z", subjects: [{ "subject-uuid": uuid(9), type: "component" }] })], documents: { "../5-authorize/ssp.oscal.xml": SSP } },
  { rule: "PKG-013.a", base: AR, patch: [add("/assessment-results/results/0/observations", [{ uuid: uuid(1), description: "An observation.", methods: ["TEST"], collected: "2024-01-01T00:00:00Z", origins: [{ actors: [{ type: "party", "actor-uuid": PARTY }], "related-tasks": [{ "task-uuid": uuid(9) }] }] }])], documents: underEach(formats("example_ap_valid"), AP) },
  { rule: "PKG-014.a", base: AR, patch: [add("/assessment-results/results/0/local-definitions", { tasks: [{ uuid: uuid(1), type: "action", title: "A task", "associated-activities": [{ "activity-uuid": uuid(9), subjects: [{ type: "component", "include-all": {} }] }] }] })], documents: underEach(formats("example_ap_valid"), AP) },
  { rule: "PKG-010.a", base: SSP, patch: [add(`${requirement}/by-components/0/links`, [{ href: `#${uuid(9)}`, rel: "provided-by" }])] },
];
