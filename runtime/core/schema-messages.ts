// Plain-language messages for schema errors. They name what is wrong (the property, the allowed values, the expected
// type or datatype) and quote at most a short excerpt of the offending value.

import type { SchemaError } from "#generated/models.js";
import { excerpt } from "./issue-bounds.js";
import { escapeToken } from "./json-pointer.js";

const DATATYPE_DESCRIPTIONS: Record<string, string> = {
  Base64Datatype: "base64-encoded binary data",
  DateDatatype: "a date (YYYY-MM-DD, optionally with a time zone)",
  DateTimeWithTimezoneDatatype: "a date and time with a time zone (for example 2024-01-31T12:00:00Z)",
  EmailAddressDatatype: "an email address",
  MarkupLineDatatype: "a single line of Markdown (no line breaks)",
  StringDatatype: "a non-empty string without leading or trailing whitespace",
  TokenDatatype: "a token (a letter or underscore followed by letters, digits, '.', '-' or '_')",
  URIDatatype: "an absolute URI (scheme:...)",
  URIReferenceDatatype: "a URI reference",
  UUIDDatatype: "a version 4 or 5 UUID",
};

const MAX_LISTED_VALUES = 12;

function datatypeOf(schemaPath: string): string | undefined {
  const match = /^#\/definitions\/([A-Za-z]+Datatype)\//.exec(schemaPath);
  return match ? DATATYPE_DESCRIPTIONS[match[1]!] : undefined;
}

function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED_VALUES).map(quote).join(", ");
  return values.length > MAX_LISTED_VALUES ? `${shown}, … (${values.length} in all)` : shown;
}

/** A name or value as JSON, cut to a short excerpt. */
function quote(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(excerpt(value)) : excerpt(String(JSON.stringify(value)));
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The pointer a finding is reported at and its message; `value` is the value at the error's instance path (read for pattern and format errors only). */
export function describeSchemaError(error: SchemaError, value: unknown): { path: string; message: string } {
  const { params, instancePath: path } = error;
  const datatype = datatypeOf(error.schemaPath);
  if (value === "" && (error.keyword === "pattern" || error.keyword === "format")) {
    return { path, message: datatype ? `Must not be empty: expected ${datatype}.` : "Must not be empty." };
  }
  switch (error.keyword) {
    case "required":
      return { path, message: `Missing required property ${quote(String(params.missingProperty))}.` };
    case "additionalProperties":
      return {
        path: `${path}/${escapeToken(String(params.additionalProperty))}`,
        message: `Property ${quote(String(params.additionalProperty))} is not allowed here.`,
      };
    case "type": {
      const types = String(params.type).split(",").map(article).join(" or ");
      return { path, message: datatype ? `Must be ${datatype}: expected ${types}.` : `Must be ${types}.` };
    }
    case "enum":
      return { path, message: `Value is not one of the allowed values: ${listValues(params.allowedValues as unknown[])}.` };
    case "const":
      return { path, message: `Value must be ${quote(params.allowedValue)}.` };
    case "pattern":
      return { path, message: datatype ? `Must be ${datatype}.` : `Does not match the required pattern ${String(params.pattern)}.` };
    case "format":
      return { path, message: datatype ? `Must be ${datatype}.` : `Must be a valid ${String(params.format)}.` };
    case "minItems":
      return {
        path,
        message: params.limit === 1 ? "Must not be an empty array: omit the property instead." : `Must have at least ${String(params.limit)} items.`,
      };
    case "maxItems":
      return { path, message: `Must have at most ${String(params.limit)} items.` };
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return { path, message: `Must be ${String(params.comparison)} ${String(params.limit)}.` };
    case "minLength":
      return { path, message: `Must be at least ${String(params.limit)} characters long.` };
    case "maxLength":
      return { path, message: `Must be at most ${String(params.limit)} characters long.` };
    case "uniqueItems":
      return { path, message: `Items ${String(params.j)} and ${String(params.i)} are identical; items must be unique.` };
    case "oneOf":
      return {
        path,
        message: Array.isArray(params.passingSchemas)
          ? "Matches more than one of the mutually exclusive alternatives; it must match exactly one."
          : "Does not match any of the allowed alternatives.",
      };
    case "anyOf":
      return { path, message: "Does not match any of the allowed alternatives." };
    case "not":
      return { path, message: "Matches a form that is not allowed here." };
    default:
      return { path, message: `Fails the schema's "${error.keyword}" rule.` };
  }
}
