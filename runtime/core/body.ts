// Turns request bytes into a parsed document, or into a typed body error that says where the problem is.
import { Buffer } from "node:buffer";
import { oneByteJson, type OneByteJson } from "./json-text.js";
import { byteOrderMarkLength } from "./json-bytes.js";
import { locateSyntaxError } from "./json-syntax.js";
import { hasLoneSurrogate, NESTING_TOO_DEEP, scanJsonBytes, textFindings, type ByteScan } from "./json-structure.js";
import type { ValidationIssue } from "./report.js";

export type BodyErrorCode = "ERR_INVALID_UTF8" | "ERR_INVALID_JSON" | "ERR_UNKNOWN_MODEL" | "ERR_PAYLOAD_TOO_LARGE";

export interface BodyError {
  code: BodyErrorCode;
  /** Safe to show: never quotes the document. */
  detail: string;
  /** A next step specific to this cause, where the code's general one would not help. */
  resolution?: string;
  line?: number;
  column?: number;
}

/** `findings`: what the text itself breaks (duplicate member names, excluded characters), reported with the document's. */
export type ParsedBody = { ok: true; document: unknown; findings: ValidationIssue[] } | { ok: false; error: BodyError };

// A leading byte-order mark is accepted and dropped, as RFC 8259 allows parsers to do.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export function parseBody(bytes: Uint8Array): ParsedBody {
  if (startsLikeXml(bytes)) return { ok: false, error: XML_NOT_SUPPORTED };
  let oneByte: OneByteJson | undefined;
  let document: unknown;
  try {
    oneByte = oneByteJson(bytes);
    if (oneByte !== undefined) document = "value" in oneByte ? oneByte.value : JSON.parse(oneByte.text);
  } catch {
    // Not JSON, or a text too long for one string: the decoder path below settles it, and counts line and column in
    // the document's own characters.
    oneByte = undefined;
  }
  // A value parsed in pieces comes without its text, which only the exact pass reads: then the document's own.
  if (oneByte !== undefined) return checkStructure(document, "text" in oneByte ? oneByte.text : () => utf8.decode(bytes), scanJsonBytes(bytes));
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    return { ok: false, error: { code: "ERR_INVALID_UTF8", detail: `The body is not valid UTF-8: invalid byte sequence at byte offset ${offset}.` } };
  }
  const parsed = parseJson(text);
  return parsed.ok ? checkStructure(parsed.document, text, scanJsonBytes(bytes)) : parsed;
}

/** For text that did not come as bytes. A JavaScript string may hold lone surrogates that its UTF-8 form would hide. */
export function parseText(text: string): ParsedBody {
  if (/^[ \t\r\n]*</.test(text)) return { ok: false, error: XML_NOT_SUPPORTED };
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const scan = scanJsonBytes(Buffer.from(text, "utf8"));
  return checkStructure(parsed.document, text, { ...scan, needsTextPass: scan.needsTextPass || hasLoneSurrogate(text) });
}

function parseJson(text: string): { ok: true; document: unknown } | { ok: false; error: BodyError } {
  try {
    return { ok: true, document: JSON.parse(text) };
  } catch {
    const { line, column, problem } = locateSyntaxError(text);
    return { ok: false, error: { code: "ERR_INVALID_JSON", detail: `The body is not well-formed JSON: ${problem} at line ${line}, column ${column}.`, line, column } };
  }
}

/**
 * OSCAL is also published as XML. Such a body is not JSON either, but a syntax error at line 1, column 1 would not
 * tell its sender what to do; the JSON error code is kept, as the contract knows no other for an unreadable body.
 */
export const XML_NOT_SUPPORTED: BodyError = {
  code: "ERR_INVALID_JSON",
  detail: "The document is XML, not JSON: OSCAL XML is not supported yet, only OSCAL JSON.",
  resolution:
    "Convert the document to OSCAL JSON with NIST's XSLT converter for its model, shipped in the OSCAL release archive " +
    "oscal-1.2.2.zip as xml/convert/<model>_xml-to-json-converter.xsl (for example `java -jar saxon-he.jar " +
    "-xsl:<model>_xml-to-json-converter.xsl -s:document.xml -o:document.json`), then validate the JSON.",
};

/** True when the first character after a byte-order mark and whitespace is `<`: an XML declaration or element. */
export function startsLikeXml(bytes: Uint8Array): boolean {
  let i = byteOrderMarkLength(bytes);
  while (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09) i++;
  return bytes[i] === 0x3c;
}

/** Well-formed JSON is checked for depth first (a syntax error is reported before it), then for its own findings. */
function checkStructure(document: unknown, text: string | (() => string), scan: ByteScan): ParsedBody {
  if (scan.tooDeep) return { ok: false, error: NESTING_TOO_DEEP };
  return { ok: true, document, findings: scan.needsTextPass ? textFindings(typeof text === "string" ? text : text()) : [] };
}

/** Byte offset of the first byte that does not start or continue a well-formed UTF-8 sequence (RFC 3629). */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let length: number;
    let min = 0x80;
    let max = 0xbf;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) min = 0xa0;
      if (b === 0xed) max = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) min = 0x90;
      if (b === 0xf4) max = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      const low = k === 1 ? min : 0x80;
      const high = k === 1 ? max : 0xbf;
      if (c === undefined || c < low || c > high) return i;
    }
    i += length;
  }
  return bytes.length;
}
