// The independent implementation: @cfworker/json-schema (no code shared with Ajv) on the same patched schemas. It
// asserts `format` for the formats it knows, which include date-time, uri and uri-reference, the ones the schemas use.
import { Validator, type Schema } from "@cfworker/json-schema";
import { MODELS, type Model } from "../../runtime/core/report.js";
import { patchedModelSchemas } from "../helpers/patched-schemas.js";

export type ReferenceValidators = Record<Model, (document: unknown) => boolean>;

export function referenceValidators(): ReferenceValidators {
  const schemas = patchedModelSchemas();
  const entries = MODELS.map((model) => {
    // Draft 7 as the schemas declare; short-circuit, since only the verdict is compared.
    const validator = new Validator(schemas[model] as Schema, "7", true);
    return [model, (document: unknown) => validator.validate(document).valid] as const;
  });
  return Object.fromEntries(entries) as ReferenceValidators;
}
