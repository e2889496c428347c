// Plain-language messages for schema errors. They name what is wrong (the property, the allowed values, the expected
// type or datatype) and quote at most a short excerpt of the offending value.

import type { SchemaError } from "#generated/models.js";
import { excerpt } from "./issue-bounds.js";
import { escapeToken } from "./json-pointer.js";
import { datatypeFault } from "./datatype-faults.js";

interface Datatype {
  /** What a value must be, as the general message says it. */
  description: string;
  /** What a value is called when one part of it is at fault ("Not a valid date and time: the year ..."). */
  noun: string;
}

const DATATYPES: Record<string, Datatype> = {
  Base64Datatype: { description: "base64-encoded binary data", noun: "base64 value" },
  DateDatatype: { description: "a date (YYYY-MM-DD, optionally with a time zone)", noun: "date" },
  DateTimeWithTimezoneDatatype: { description: "a date and time with a time zone (for example 2024-01-31T12:00:00Z)", noun: "date and time" },
  EmailAddressDatatype: { description: "an email address", noun: "email address" },
  MarkupLineDatatype: { description: "a single line of Markdown (no line breaks)", noun: "single line of Markdown" },
  StringDatatype: { description: "a non-empty string without leading or trailing whitespace", noun: "string" },
  TokenDatatype: { description: "a token (a letter or underscore followed by letters, digits, '.', '-' or '_')", noun: "token" },
  URIDatatype: { description: "an absolute URI (scheme:...)", noun: "absolute URI" },
  URIReferenceDatatype: { description: "a URI reference", noun: "URI reference" },
  UUIDDatatype: { description: "a version 4 or 5 UUID", noun: "UUID" },
};

const MAX_LISTED_VALUES = 12;

/** The datatype definition a schema path lies in, by name, when it is one of those described here. */
function datatypeOf(schemaPath: string): string | undefined {
  const match = /^#\/definitions\/([A-Za-z]+Datatype)\//.exec(schemaPath);
  return match && match[1]! in DATATYPES ? match[1] : undefined;
}

/** The message of a string that fails its datatype's pattern or format: the part at fault when one is. */
function datatypeMessage(name: string, value: unknown): string {
  const { description, noun } = DATATYPES[name]!;
  const fault = typeof value === "string" ? datatypeFault(name, value) : undefined;
  return fault === undefined ? `Must be ${description}.` : `Not a valid ${noun}: ${fault}.`;
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

/**
 * A member the schema does not allow. When another form of the same object allows it (schema-findings marks the clash
 * with the members of the form the object meant), the message says the forms cannot be mixed, and what to do.
 */
function notAllowedMessage(params: Record<string, unknown>): string {
  const member = quote(String(params.additionalProperty));
  const clashesWith = params.clashesWith as string[] | undefined;
  if (clashesWith === undefined) return `Property ${member} is not allowed here.`;
  const others = clashesWith.length === 0 ? "the members used here" : clashesWith.map((name) => quote(name)).join(" and ");
  const advice = params.memberIsEmpty === true ? "it is empty: omit it" : "keep one form or the other";
  return `Property ${member} cannot be used together with ${others} (the schema allows one or the other); ${advice}.`;
}

/** The pointer a finding is reported at and its message; `value` is the value at the error's instance path (read for pattern and format errors only). */
export function describeSchemaError(error: SchemaError, value: unknown): { path: string; message: string } {
  const { params, instancePath: path } = error;
  const datatypeName = datatypeOf(error.schemaPath);
  const datatype = datatypeName === undefined ? undefined : DATATYPES[datatypeName]!.description;
  if (value === "" && (error.keyword === "pattern" || error.keyword === "format")) {
    return { path, message: datatype ? `Must not be empty: expected ${datatype}.` : "Must not be empty." };
  }
  switch (error.keyword) {
    case "required":
      return { path, message: `Missing required property ${quote(String(params.missingProperty))}.` };
    case "additionalProperties":
      return { path: `${path}/${escapeToken(String(params.additionalProperty))}`, message: notAllowedMessage(params) };
    case "type": {
      const types = String(params.type).split(",").map(article).join(" or ");
      return { path, message: datatype ? `Must be ${datatype}: expected ${types}.` : `Must be ${types}.` };
    }
    case "enum":
      return { path, message: `Value is not one of the allowed values: ${listValues(params.allowedValues as unknown[])}.` };
    case "const":
      return { path, message: `Value must be ${quote(params.allowedValue)}.` };
    case "pattern":
      return { path, message: datatypeName ? datatypeMessage(datatypeName, value) : `Does not match the required pattern ${String(params.pattern)}.` };
    case "format":
      return { path, message: datatypeName ? datatypeMessage(datatypeName, value) : `Must be a valid ${String(params.format)}.` };
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
