// The service's own OpenAPI document, and a check that a value conforms to one of its component schemas.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import type { TestService } from "./service.js";

export interface ServedOpenApi {
  document: Record<string, any>;
  /** Fails the test, with ajv's errors, unless `value` conforms to `#/components/schemas/<schema>`. */
  conforms(schema: string, value: unknown): void;
}

export async function servedOpenApi(service: TestService): Promise<ServedOpenApi> {
  const document = (await (await fetch(service.url("/openapi.json"))).json()) as Record<string, any>;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: "openapi" });
  return {
    document,
    conforms(schema, value) {
      const validate = ajv.getSchema(`openapi#/components/schemas/${schema}`)!;
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    },
  };
}
