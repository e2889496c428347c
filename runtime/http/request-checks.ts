// The header and query checks of the validate endpoint. Each returns a detail for the Problem, or the parsed value.
// Details may name a parameter or header value (truncated) but never anything of the document.
import { resolveOptions, type ValidateOptions } from "../core/validate.js";
import { ruleIdList, type Level } from "../core/report.js";
import { VALIDATE_PARAMETERS } from "../api/definition.js";

type Check<T> = { ok: true; value: T } | { ok: false; detail: string };

const quote = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

export function parseValidateQuery(query: string): Check<ValidateOptions> {
  // The contract (section 2.4, behaviour rule 4): a full run the schema layer rejects never reaches the semantic
  // layer, pack rules included.
  const options: ValidateOptions = { packsOnSchemaErrors: false };
  if (query === "") return { ok: true, value: options };
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(query)) {
    if (!Object.hasOwn(VALIDATE_PARAMETERS, name)) {
      return { ok: false, detail: `Unknown query parameter ${quote(name)}: the accepted parameters are ${Object.keys(VALIDATE_PARAMETERS).join(", ")}.` };
    }
    if (seen.has(name)) return { ok: false, detail: `The query parameter "${name}" is given more than once.` };
    seen.add(name);
    if (name === "level") options.level = value as Level;
    else if (name === "oscal-version") options.oscalVersion = value;
    else options.rules = ruleIdList(value);
  }
  const resolved = resolveOptions(options);
  return resolved.ok ? { ok: true, value: options } : { ok: false, detail: resolved.error.detail };
}

/** The resolve endpoint takes no query parameter: any is refused, as an unknown one is on validate. */
export function parseResolveQuery(query: string): Check<ValidateOptions> {
  const [name] = new URLSearchParams(query).keys();
  return name === undefined ? { ok: true, value: {} } : { ok: false, detail: `Unknown query parameter ${quote(name)}: this path accepts none.` };
}

export function checkContentType(value: string): string | undefined {
  if (value === "") return "The Content-Type header is missing: send Content-Type: application/json.";
  const [type, ...parameters] = value.split(";");
  if (type!.trim().toLowerCase() !== "application/json") return `Content-Type ${quote(type!.trim())} is not supported: send application/json.`;
  for (const parameter of parameters) {
    const separator = parameter.indexOf("=");
    if (separator < 0 || parameter.slice(0, separator).trim().toLowerCase() !== "charset") continue;
    const charset = parameter.slice(separator + 1).trim().replace(/^"(.*)"$/, "$1").toLowerCase();
    if (charset !== "utf-8") return `Charset ${quote(charset)} is not supported: documents must be UTF-8.`;
  }
  return undefined;
}

export function parseContentEncoding(value: string): Check<"identity" | "gzip"> {
  const coding = value.trim().toLowerCase();
  if (coding === "" || coding === "identity") return { ok: true, value: "identity" };
  if (coding === "gzip") return { ok: true, value: "gzip" };
  return { ok: false, detail: `Content-Encoding ${quote(value)} is not supported: send gzip or no Content-Encoding.` };
}

/** The client a request is counted against: the peer, or the X-Forwarded-For entry added by the outermost trusted proxy. */
export function clientAddress(peer: () => string, forwardedFor: string, trustedProxyHops: number): string {
  // The peer is asked for only when it is the answer: reading it costs microseconds on uWebSockets.js.
  if (trustedProxyHops === 0 || forwardedFor === "") return peer();
  const hops = forwardedFor.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  if (hops.length === 0) return peer();
  return hops[Math.max(0, hops.length - trustedProxyHops)]!;
}

/**
 * uWebSockets.js closes, unanswered, a connection whose request head has more header fields than this; node:http is held
 * to the same (it would otherwise drop fields silently past its count, an Authorization header among them).
 */
export const MAX_HEADER_FIELDS = 48;

/**
 * Why the body of a request cannot be delimited unambiguously, or undefined. Both transports would otherwise differ (one
 * frames by the first of two Content-Length headers) or ignore a coding they do not apply (Transfer-Encoding: gzip).
 */
export function framingProblem(contentLengths: readonly string[], transferEncodings: readonly string[]): string | undefined {
  if (contentLengths.length > 1) return "The request has more than one Content-Length header.";
  if (transferEncodings.length === 0) return undefined;
  if (transferEncodings.length > 1 || transferEncodings[0]!.trim().toLowerCase() !== "chunked") {
    return `Transfer-Encoding ${quote(transferEncodings.join(", "))} is not supported: send chunked or a Content-Length.`;
  }
  if (contentLengths.length > 0) return "The request has both Content-Length and Transfer-Encoding.";
  return undefined;
}
