// OSCAL's YAML form: a YAML text becomes exactly the value its JSON form parses to, then is validated like it, with
// findings placed in the YAML source. What YAML can say and JSON cannot (anchors and aliases, tags, NaN and infinity,
// keys that are not strings, a second document) is a typed error with a line and column rather than a silent
// conversion. The YAML 1.2 core schema is used, so `yes`, `no`, `on` and dates stay strings as in JSON.
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node, type Pair, type YAMLError } from "yaml";
import { checkParsedDocument, NESTING_TOO_DEEP } from "./json-structure.js";
import { pointerTokens } from "./json-pointer.js";
import { firstInvalidUtf8Offset, startsLikeXml, XML_NOT_SUPPORTED, type BodyError } from "./body.js";
import { lineStartsOf, textPosition, type Locator, type SourcePosition } from "./locate.js";
import { locateFindings, resolveOptions, validateParsed, type ResolvedOptions, type ValidateOptions, type ValidationOutcome } from "./validate.js";
import { now } from "./clock.js";

export interface YamlError {
  code: "ERR_INVALID_YAML";
  /** Safe to show: never quotes the document. */
  detail: string;
  /** A next step specific to this cause. */
  resolution: string;
  line: number;
  column: number;
}

/** ValidationOutcome, whose body errors may also be YAML errors. */
export type YamlValidationOutcome = Exclude<ValidationOutcome, { kind: "body-error" }> | { kind: "body-error"; error: BodyError | YamlError };

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Validates a YAML file's bytes (UTF-8, with or without a byte-order mark) like the same document in JSON. */
export function validateYamlBytes(bytes: Uint8Array, options: ValidateOptions = {}): YamlValidationOutcome {
  const started = now();
  const resolved = resolveOptions(options);
  if (!resolved.ok) return { kind: "option-error", error: resolved.error };
  const decoded = decodeYaml(bytes);
  if (!decoded.ok) return { kind: "body-error", error: decoded.error };
  return validateYaml(decoded.text, resolved.options, started);
}

/** A YAML file's bytes as the JSON value they stand for, for documents that are read rather than validated. */
export function parseYamlBytes(bytes: Uint8Array): { ok: true; document: unknown } | { ok: false; error: YamlError | BodyError } {
  const decoded = decodeYaml(bytes);
  if (!decoded.ok) return decoded;
  const parsed = parseYaml(decoded.text);
  return parsed.ok ? { ok: true, document: parsed.document } : parsed;
}

function decodeYaml(bytes: Uint8Array): { ok: true; text: string } | { ok: false; error: BodyError } {
  if (startsLikeXml(bytes)) return { ok: false, error: XML_NOT_SUPPORTED };
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    return { ok: false, error: { code: "ERR_INVALID_UTF8", detail: `The text is not valid UTF-8: invalid byte sequence at byte offset ${offset}.` } };
  }
}

/** Validates a YAML text (already decoded) like the same document in JSON. */
export function validateYamlText(text: string, options: ValidateOptions = {}): YamlValidationOutcome {
  const started = now();
  const resolved = resolveOptions(options);
  if (!resolved.ok) return { kind: "option-error", error: resolved.error };
  return validateYaml(text, resolved.options, started);
}

function validateYaml(text: string, options: ResolvedOptions, started: number): YamlValidationOutcome {
  const parsed = parseYaml(text);
  if (!parsed.ok) return { kind: "body-error", error: parsed.error };
  const checked = checkParsedDocument(parsed.document);
  if (checked.tooDeep) return { kind: "body-error", error: NESTING_TOO_DEEP };
  return locateFindings(validateParsed(parsed.document, options, started, checked.findings), yamlLocator(parsed.source, text), started);
}

type ParsedYaml = { ok: true; document: unknown; source: Document.Parsed } | { ok: false; error: YamlError | BodyError };

/**
 * Flow collections ([ and { nested in one another) tens of thousands deep make the parser run out of memory rather
 * than report an error, so a text nesting them past this depth is refused before parsing (about 1,000 deep it already
 * reports that it cannot follow). Counted without regard to quoting: no OSCAL document comes near it either way.
 */
const MAX_FLOW_DEPTH = 5_000;

function parseYaml(text: string): ParsedYaml {
  if (flowDepthExceeds(text, MAX_FLOW_DEPTH)) return { ok: false, error: NESTING_TOO_DEEP };
  const source = parseDocument(text, { schema: "core", version: "1.2", uniqueKeys: true, merge: false, prettyErrors: false });
  const problem: YAMLError | undefined = source.errors[0] ?? source.warnings[0];
  if (problem !== undefined) {
    if (problem.code === "RESOURCE_EXHAUSTION") return { ok: false, error: NESTING_TOO_DEEP };
    return { ok: false, error: yamlError(text, problem.pos[0], PARSER_PROBLEMS[problem.code] ?? { problem: `a YAML syntax error (${problem.code})`, resolution: FIX_SYNTAX }) };
  }
  try {
    return { ok: true, document: jsonValue(source.contents), source };
  } catch (error) {
    if (error instanceof NotJson) return { ok: false, error: yamlError(text, error.at(text), error.reason) };
    if (error instanceof RangeError) return { ok: false, error: NESTING_TOO_DEEP };
    throw error;
  }
}

function flowDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return false;
}

interface Reason {
  problem: string;
  resolution: string;
}

const FIX_SYNTAX = "Fix the YAML at the reported line and column, then validate the document again.";

/** The parser's error codes, in words of our own: its messages quote the document. */
const PARSER_PROBLEMS: Partial<Record<YAMLError["code"], Reason>> = {
  DUPLICATE_KEY: { problem: "a mapping has the same key twice", resolution: "Keep one of the two entries: JSON readers would silently drop the other." },
  MULTIPLE_DOCS: { problem: "the text holds more than one YAML document", resolution: "Put one OSCAL document in each file." },
  TAG_RESOLVE_FAILED: { problem: "a tag that is not part of the YAML core schema", resolution: "Remove the tag: OSCAL YAML uses plain strings, numbers, booleans, mappings and sequences." },
  BAD_ALIAS: { problem: "an alias", resolution: "Write the content out where the alias is used: OSCAL's JSON form has no aliases." },
  ALIAS_PROPS: { problem: "an alias with an anchor or a tag", resolution: "Write the content out where the alias is used: OSCAL's JSON form has no aliases." },
  MULTIPLE_ANCHORS: { problem: "a node with more than one anchor", resolution: "Remove the anchors: OSCAL's JSON form has no anchors or aliases." },
  MULTIPLE_TAGS: { problem: "a node with more than one tag", resolution: FIX_SYNTAX },
  TAB_AS_INDENT: { problem: "a tab used as indentation", resolution: "Indent with spaces: YAML does not allow tabs there." },
  BAD_INDENT: { problem: "bad indentation (or an unclosed [ or {)", resolution: FIX_SYNTAX },
  KEY_OVER_1024_CHARS: { problem: "an implicit key longer than 1024 characters", resolution: "Shorten the key or write it as a quoted scalar." },
};

const ANCHOR: Reason = { problem: "an anchor (&name)", resolution: "Remove the anchor and write any aliased content out: OSCAL's JSON form has no anchors or aliases." };
const ALIAS: Reason = { problem: "an alias (*name)", resolution: "Write the content out where the alias is used: OSCAL's JSON form has no aliases." };
const NON_STRING_KEY: Reason = {
  problem: "a mapping key that is not a string (a number, boolean, null or collection)",
  resolution: "Quote the key: JSON object member names are strings.",
};
const NOT_FINITE: Reason = { problem: "a number JSON cannot represent (.nan or .inf)", resolution: "Write a finite number, or quote the value to make it a string." };
const BINARY: Reason = { problem: "a binary (!!binary) value", resolution: "Use a base64 string without the tag, as OSCAL's JSON form does (for example a back-matter resource's base64 object)." };
const TIMESTAMP: Reason = { problem: "a timestamp (!!timestamp) value", resolution: "Remove the tag: dates and times are strings in OSCAL, as in JSON." };
const OTHER_TAG: Reason = { problem: "a tag outside the YAML core schema (for example !!set or !!omap)", resolution: "Remove the tag and write plain mappings, sequences and scalars." };

const CORE = "tag:yaml.org,2002:";
/** Explicit tags that name what the untagged value would be anyway in JSON terms. */
const JSON_TAGS: ReadonlySet<string> = new Set(["str", "int", "float", "bool", "null", "map", "seq"].map((name) => CORE + name));

class NotJson extends Error {
  /** `property`: the anchor (as `&name`) or the tag at fault, which precedes the node's content, where its range starts. */
  constructor(readonly offset: number, readonly reason: Reason, readonly property?: string) {
    super(reason.problem);
  }

  /** Where the fault starts in the text. */
  at(text: string): number {
    if (this.property === undefined) return this.offset;
    if (this.property.startsWith("&")) {
      const anchor = text.lastIndexOf(this.property, this.offset);
      return anchor === -1 ? this.offset : anchor;
    }
    // A tag is the last token before the content (an anchor would have been reported first).
    let start = this.offset;
    while (start > 0 && /\s/.test(text[start - 1]!)) start--;
    while (start > 0 && !/[\s[\]{},]/.test(text[start - 1]!)) start--;
    return start;
  }
}

/** The JSON value of a YAML node; throws NotJson at the first node that has none. */
function jsonValue(node: unknown): unknown {
  if (node === null || node === undefined) return null; // an empty document or an entry without a value
  if (isAlias(node)) throw new NotJson(node.range![0], ALIAS);
  const yamlNode = node as Node;
  const offset = yamlNode.range?.[0] ?? 0;
  if (yamlNode.anchor) throw new NotJson(offset, ANCHOR, `&${yamlNode.anchor}`);
  if (yamlNode.tag !== undefined && !JSON_TAGS.has(yamlNode.tag)) {
    throw new NotJson(offset, yamlNode.tag === `${CORE}binary` ? BINARY : yamlNode.tag === `${CORE}timestamp` ? TIMESTAMP : OTHER_TAG, yamlNode.tag);
  }
  if (isScalar(node)) {
    const value = node.value;
    if (typeof value === "number" && !Number.isFinite(value)) throw new NotJson(offset, NOT_FINITE);
    if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
    throw new NotJson(offset, OTHER_TAG);
  }
  if (isSeq(node)) return node.items.map(jsonValue);
  if (isMap(node)) {
    const object: Record<string, unknown> = {};
    for (const pair of node.items as Pair<unknown, unknown>[]) {
      const key = pair.key;
      if (!isScalar(key) || typeof key.value !== "string") throw new NotJson(keyOffset(pair, offset), NON_STRING_KEY);
      if (key.anchor || key.tag !== undefined) jsonValue(key); // reports the anchor or tag on the key
      // Defined rather than assigned, so that a "__proto__" key is a member as JSON.parse makes it.
      Object.defineProperty(object, key.value, { value: jsonValue(pair.value), enumerable: true, writable: true, configurable: true });
    }
    return object;
  }
  throw new NotJson(offset, OTHER_TAG);
}

function keyOffset(pair: Pair<unknown, unknown>, fallback: number): number {
  const key = pair.key as Node | null;
  return key?.range?.[0] ?? (pair.value as Node | null)?.range?.[0] ?? fallback;
}

function yamlError(text: string, offset: number, reason: Reason): YamlError {
  const { line, column } = textPosition(text, offset, lineStartsOf(text));
  return { code: "ERR_INVALID_YAML", detail: `The YAML text cannot be read as OSCAL JSON: ${reason.problem} at line ${line}, column ${column}.`, resolution: reason.resolution, line, column };
}

/**
 * Places findings in the YAML source: a value at its first character (a block mapping or sequence at its first
 * entry, a flow one at its bracket), a member name at the key.
 */
function yamlLocator(source: Document.Parsed, text: string): Locator {
  return (requests) => {
    const lineStarts = lineStartsOf(text);
    return requests.map((request): SourcePosition | undefined => {
      const tokens = pointerTokens(request.pointer);
      if (tokens === undefined) return undefined;
      let node: unknown = source.contents;
      let keyNode: Node | undefined;
      for (const token of tokens) {
        keyNode = undefined;
        if (isMap(node)) {
          const pair = (node.items as Pair<unknown, unknown>[]).find((item) => isScalar(item.key) && item.key.value === token);
          if (pair === undefined) return undefined;
          keyNode = pair.key as Node;
          // An entry without a value (`key:`) is placed at its key.
          node = pair.value ?? keyNode;
        } else if (isSeq(node) && /^(0|[1-9][0-9]*)$/.test(token)) {
          node = node.items[Number(token)];
        } else return undefined;
        if (node === undefined) return undefined;
      }
      const at = request.target === "name" ? keyNode : (node as Node | null);
      const offset = at?.range?.[0];
      return offset === undefined ? undefined : textPosition(text, offset, lineStarts);
    });
  };
}
