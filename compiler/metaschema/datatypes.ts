// Lexical checks for the Metaschema datatypes named by matches/@datatype, as full-match regular expressions.
// Date and date-time patterns are the ones the OSCAL 1.2.2 JSON schema uses; the others follow the
// Metaschema datatype definitions.

const DATE = String.raw`(((2000|2400|2800|(19|2[0-9](0[48]|[2468][048]|[13579][26])))-02-29)|(((19|2[0-9])[0-9]{2})-02-(0[1-9]|1[0-9]|2[0-8]))|(((19|2[0-9])[0-9]{2})-(0[13578]|10|12)-(0[1-9]|[12][0-9]|3[01]))|(((19|2[0-9])[0-9]{2})-(0[469]|11)-(0[1-9]|[12][0-9]|30)))`;
const TIMEZONE = String.raw`(Z|(-((0[0-9]|1[0-2]):00|0[39]:30)|\+((0[0-9]|1[0-4]):00|(0[34569]|10):30|(0[58]|12):45)))`;
const TIME = String.raw`T(2[0-3]|[01][0-9]):([0-5][0-9]):([0-5][0-9])(\.[0-9]+)?`;
const OCTET = String.raw`(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])`;
const H16 = "[0-9A-Fa-f]{1,4}";
const IPV4 = String.raw`${OCTET}(\.${OCTET}){3}`;
// RFC 4291 text forms, including "::" compression and an embedded IPv4 tail.
const IPV6 = [
  `(${H16}:){7}${H16}`,
  `(${H16}:){1,7}:`,
  `(${H16}:){1,6}:${H16}`,
  `(${H16}:){1,5}(:${H16}){1,2}`,
  `(${H16}:){1,4}(:${H16}){1,3}`,
  `(${H16}:){1,3}(:${H16}){1,4}`,
  `(${H16}:){1,2}(:${H16}){1,5}`,
  `${H16}:(:${H16}){1,6}`,
  `:((:${H16}){1,7}|:)`,
  `(${H16}:){6}${IPV4}`,
  `::(ffff(:0{1,4})?:)?${IPV4}`,
  `(${H16}:){1,4}:${IPV4}`,
].join("|");

const DATATYPE_PATTERNS: Record<string, string> = {
  date: `${DATE}${TIMEZONE}?`,
  "date-with-timezone": `${DATE}${TIMEZONE}`,
  "date-time": `${DATE}${TIME}${TIMEZONE}?`,
  "date-time-with-timezone": `${DATE}${TIME}${TIMEZONE}`,
  integer: "[-+]?[0-9]+",
  uuid: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[45][0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}",
  uri: String.raw`[a-zA-Z][a-zA-Z0-9+\-.]+:\S+`,
  // RFC 3986 URI-reference characters with well-formed percent escapes; no whitespace.
  "uri-reference": String.raw`([A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*`,
  "ip-v4-address": IPV4,
  "ip-v6-address": IPV6,
};

export function datatypePattern(datatype: string): string {
  const pattern = DATATYPE_PATTERNS[datatype];
  if (pattern === undefined) throw new Error(`unsupported matches datatype "${datatype}"`);
  return pattern;
}
