// One representation of a constraint, whichever source declares it: a definition's <constraint> block in a NIST
// metaschema module or a <context> of an external constraint file (a rule pack). Both compilers start from it: NIST's
// adds the definition it sits on, a pack's the context's Metapath targets and lets.
import { childElements, firstChild, textContent, type XmlElement, type XmlNode } from "./xml.js";

export const CONSTRAINT_KINDS = ["allowed-values", "matches", "index", "is-unique", "index-has-key", "has-cardinality", "expect"] as const;
export type ConstraintKind = (typeof CONSTRAINT_KINDS)[number];

export function isConstraintKind(name: string): name is ConstraintKind {
  return (CONSTRAINT_KINDS as readonly string[]).includes(name);
}

export interface KeyField {
  target: string;
  pattern: string | undefined;
}

/** A constraint as declared, its Metapath as text (whitespace runs made one space). */
export interface Constraint {
  kind: ConstraintKind;
  /** Its id in its source, where it has one. */
  id: string | undefined;
  formalName: string | undefined;
  level: string; // ERROR (when absent), CRITICAL, WARNING, INFORMATIONAL, DEBUG
  target: string;
  allowOther: boolean;
  enums: { value: string }[];
  regex: string | undefined;
  datatype: string | undefined;
  indexName: string | undefined;
  keyFields: KeyField[];
  minOccurs: number | undefined;
  maxOccurs: number | undefined;
  test: string | undefined;
  message: string | undefined;
  /** Why the constraint exists, as its <remarks> say it, in plain text (markup stripped, a link's address kept). */
  remarks: string | undefined;
  /** Where its authors explain it: a SARIF `help-url` property (FedRAMP gives one to most of its constraints). */
  helpUrl: string | undefined;
}

/** Whitespace runs as one space, trimmed: how Metapath expressions and messages are compared and shown. */
export function spaced(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/**
 * Markup-multiline prose as plain text: elements' text only, a link written "text (address)" (HTML or Markdown) unless
 * its text is the address, paragraphs one space apart.
 */
function plainText(node: XmlNode): string {
  if (typeof node === "string") return node.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, text: string, href: string) => withAddress(text, href));
  const text = node.children.map(plainText).join("");
  if (node.name === "a" && node.attrs.href !== undefined) return withAddress(text, node.attrs.href);
  return node.name === "p" ? ` ${text} ` : text;
}

function withAddress(text: string, href: string): string {
  return text.trim() === href ? href : `${text} (${href})`;
}

/** The constraint a constraint element declares; `where` names its place for the error when it is none. */
export function readConstraint(c: XmlElement, where: string): Constraint {
  if (!isConstraintKind(c.name)) throw new Error(`${where}: unsupported constraint element <${c.name}>`);
  const message = firstChild(c, "message");
  const formalName = firstChild(c, "formal-name");
  const remarks = firstChild(c, "remarks");
  return {
    kind: c.name,
    id: c.attrs.id,
    formalName: formalName ? spaced(textContent(formalName)) : undefined,
    level: c.attrs.level ?? "ERROR",
    target: spaced(c.attrs.target ?? "."),
    allowOther: c.attrs["allow-other"] === "yes",
    enums: childElements(c, "enum").map((e) => ({ value: e.attrs.value! })),
    regex: c.attrs.regex,
    datatype: c.attrs.datatype,
    indexName: c.attrs.name,
    keyFields: childElements(c, "key-field").map((k) => ({ target: spaced(k.attrs.target!), pattern: k.attrs.pattern })),
    minOccurs: c.attrs["min-occurs"] === undefined ? undefined : Number(c.attrs["min-occurs"]),
    maxOccurs: c.attrs["max-occurs"] === undefined || c.attrs["max-occurs"] === "unbounded" ? undefined : Number(c.attrs["max-occurs"]),
    test: c.attrs.test === undefined ? undefined : spaced(c.attrs.test),
    message: message ? spaced(textContent(message)) : undefined,
    remarks: remarks ? spaced(plainText(remarks)) : undefined,
    helpUrl: childElements(c, "prop").find((prop) => prop.attrs.name === "help-url")?.attrs.value,
  };
}
