// A FedRAMP SSP of n components, made to exercise every pack rule that relates many nodes to many others: each
// component (an interconnection with a protocol) has a used-by link to the next one and a responsible role naming a
// user by privilege; each of the three kinds of diagram has n diagrams, each linked to its own back-matter resource;
// n set-parameters meet the n aggregate params of the imported profile's catalog (supplied as a document). It is
// schema-valid, as the service requires before it runs a pack.

const uuid = (kind: number, i: number) => `00000000-0000-4000-8000-${kind.toString(16).padStart(4, "0")}${i.toString(16).padStart(8, "0")}`;

/** The href of the imported profile, and the catalog supplied under it. */
export const PROFILE_HREF = "profile.json";

const DIAGRAMS = ["authorization-boundary", "network-architecture", "data-flow"] as const;

export function largeSsp(n: number): { document: unknown; documents: Record<string, unknown> } {
  const range = Array.from({ length: n }, (_, i) => i);
  const components = range.map((i) => ({
    uuid: uuid(1, i),
    type: "interconnection",
    title: `Component ${i}`,
    description: "An interconnection.",
    protocols: [{ name: "https", "port-ranges": [{ start: 443, end: 443, transport: "TCP" }] }],
    links: [{ href: `#${uuid(1, (i + 1) % n)}`, rel: "used-by" }],
    status: { state: "operational" },
    "responsible-roles": [{ "role-id": "admin", props: [{ name: "privilege-uuid", ns: "http://fedramp.gov/ns/oscal", value: uuid(2, i) }] }],
  }));
  const users = range.map((i) => ({ uuid: uuid(2, i), "role-ids": ["admin"], "authorized-privileges": [{ title: "Admin", "functions-performed": ["administration"] }] }));
  const diagramSections = Object.fromEntries(
    DIAGRAMS.map((kind, k) => [kind, { description: kind, diagrams: range.map((i) => ({ uuid: uuid(3 + k, i), caption: "Diagram", links: [{ href: `#${uuid(6 + k, i)}`, rel: "diagram" }] })) }]),
  );
  const resources = DIAGRAMS.flatMap((kind, k) => range.map((i) => ({ uuid: uuid(6 + k, i), title: "Diagram", props: [{ name: "type", value: "image", class: kind }] })));
  const document = {
    "system-security-plan": {
      uuid: uuid(0, 0),
      metadata: { title: "Large SSP", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" },
      "import-profile": { href: PROFILE_HREF },
      "system-characteristics": {
        "system-ids": [{ "identifier-type": "http://fedramp.gov/ns/oscal", id: "F00000000" }],
        "system-name": "Large",
        description: "A large system.",
        "security-sensitivity-level": "fips-199-moderate",
        "system-information": {
          "information-types": [
            {
              title: "Information",
              description: "Information.",
              "confidentiality-impact": { base: "fips-199-moderate" },
              "integrity-impact": { base: "fips-199-moderate" },
              "availability-impact": { base: "fips-199-moderate" },
            },
          ],
        },
        status: { state: "operational" },
        ...diagramSections,
      },
      "system-implementation": { users, components },
      "control-implementation": { description: "Controls.", "set-parameters": range.map((i) => ({ "param-id": `p-${i}`, values: ["value"] })), "implemented-requirements": [{ uuid: uuid(10, 0), "control-id": "ac-1" }] },
      "back-matter": { resources },
    },
  };
  const catalog = { catalog: { uuid: uuid(9, 0), metadata: { title: "Profile", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" }, params: range.map((i) => ({ id: `aggregate-${i}`, props: [{ name: "aggregates", value: `p-${i}` }] })) } };
  return { document, documents: { [PROFILE_HREF]: catalog } };
}
