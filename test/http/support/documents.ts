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

export const JSON_HEADERS = { "Content-Type": "application/json" };

export function post(url: string, body: BodyInit | undefined, headers: Record<string, string> = JSON_HEADERS): Promise<Response> {
  return fetch(url, { method: "POST", headers, body });
}
