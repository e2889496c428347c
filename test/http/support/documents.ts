// Documents and request helpers shared by the HTTP tests.
export const VALIDATE = "/api/oscal/v1/validate";

export function catalog(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    catalog: {
      uuid: "74c8ba1e-5cd4-4ad1-bbfd-d888e2f6c724",
      metadata: { title: "Test catalog", "last-modified": "2024-01-01T00:00:00Z", version: "1.0", "oscal-version": "1.2.2" },
      ...extra,
    },
  };
}

export const VALID_CATALOG = JSON.stringify(catalog());
/** A schema-valid catalog whose groups nest `depth` levels deep: deeper than the validators' recursion can follow. */
export function deeplyNestedCatalog(depth: number): string {
  const groups = `${'{"id":"g","title":"t","groups":['.repeat(depth)}{"id":"g","title":"t"}${"]}".repeat(depth)}`;
  return VALID_CATALOG.replace(/}}$/, `,"groups":[${groups}]}}`);
}
/** 250 controls missing their required fields: more than 200 findings. */
export const MANY_ISSUES_CATALOG = JSON.stringify(catalog({ controls: Array.from({ length: 250 }, () => ({})) }));
export const SCHEMA_INVALID_CATALOG = JSON.stringify({ catalog: { uuid: "74c8ba1e-5cd4-4ad1-bbfd-d888e2f6c724" } });

const uuid = (n: number) => `74c8ba1e-5cd4-4ad1-bbfd-d888e2f6c7${String(n).padStart(2, "0")}`;

/**
 * A schema-valid SSP whose one party has a home address: FedRAMP's address-type constraint (FRR-001.a) allows only
 * work addresses. It imports "profile.json", which a constraint would have to read.
 */
export const FEDRAMP_FLAGGED_SSP = JSON.stringify({
  "system-security-plan": {
    uuid: uuid(1),
    metadata: {
      title: "Test SSP",
      "last-modified": "2024-01-01T00:00:00Z",
      version: "1.0",
      "oscal-version": "1.2.2",
      parties: [{ uuid: uuid(2), type: "organization", name: "Example", addresses: [{ type: "home", "addr-lines": ["1 Main St"] }] }],
    },
    "import-profile": { href: "profile.json" },
    "system-characteristics": {
      "system-ids": [{ id: "example" }],
      "system-name": "Example",
      description: "An example.",
      "system-information": {
        "information-types": [
          { title: "Info", description: "Info.", "confidentiality-impact": { base: "fips-199-low" }, "integrity-impact": { base: "fips-199-low" }, "availability-impact": { base: "fips-199-low" } },
        ],
      },
      status: { state: "operational" },
      "authorization-boundary": { description: "The boundary." },
    },
    "system-implementation": { users: [{ uuid: uuid(3) }], components: [{ uuid: uuid(4), type: "this-system", title: "This system", description: "It.", status: { state: "operational" } }] },
    "control-implementation": { description: "Controls.", "implemented-requirements": [{ uuid: uuid(5), "control-id": "ac-1" }] },
  },
});

export const JSON_HEADERS = { "Content-Type": "application/json" };

export function post(url: string, body: BodyInit | undefined, headers: Record<string, string> = JSON_HEADERS): Promise<Response> {
  return fetch(url, { method: "POST", headers, body });
}
