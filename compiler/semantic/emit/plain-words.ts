// NIST's constraints in a compliance engineer's words, for findings and the rule catalog: each node named by the formal
// name the metaschema gives its definition ("the back matter resource", "the property name"), the predicates that
// selected it said in words where that is simple ("with name "method" in the OSCAL namespace"), datatypes named as
// people name them. Never Metapath: a message that cannot be said in words says less, not Metapath.
import type { AssemblyDef, Definition, FieldDef, FlagDef } from "../../metaschema/metaschema.js";
import type { Expr, Step } from "../../metaschema/metapath-ast.js";
import type { NodeType } from "./context.js";

/**
 * A definition's formal name as a common noun: capitalised words lower-cased, acronyms kept ("diagram ID"), "Universally
 * Unique Identifier" as "UUID". The definition's name, hyphens as spaces, where it has no formal name.
 */
export function definitionNoun(def: Definition): string {
  const formal = def.formalName ?? def.name.replace(/-/g, " ");
  return formal
    .replace(/Universally Unique Identifier/g, "UUID")
    .split(" ")
    .map((word) => (/^[A-Z]?[a-z]*(?:-[A-Z]?[a-z]*)*$/.test(word) ? word.toLowerCase() : word))
    .join(" ");
}

/** A noun without its parenthesised abbreviation: "system security plan (SSP)" → "system security plan". */
export function bare(noun: string): string {
  return noun.replace(/ \([^)]*\)$/, "");
}

/**
 * A flag of an owner: its own noun where that names the owner already, or a word of it ("property name", "resource
 * UUID", a control group's "group identifier"), else with the owner's ("link's hypertext reference", "order of insert
 * controls": a plural formal name takes no "'s").
 */
export function flagNoun(flag: FlagDef, owner: AssemblyDef | FieldDef): string {
  const own = definitionNoun(flag);
  const ownerNoun = bare(definitionNoun(owner));
  const ownerWords = ownerNoun.toLowerCase().split(/[ -]/);
  if (ownerWords.includes(own.split(" ")[0]!.toLowerCase())) return own;
  return takesNoArticle(ownerNoun) ? `${own} of ${ownerNoun}` : `${ownerNoun}'s ${own}`;
}

/** The noun of a node of the document. */
export function nodeNoun(type: NodeType): string {
  return type.kind === "flag" ? flagNoun(type.def, type.owner) : definitionNoun(type.def);
}

/** Nouns of a mass, not of one thing: "document metadata", "system information", "back matter". */
const MASS_NOUNS = new Set(["metadata", "information", "matter"]);

/**
 * Whether a noun takes no "a": it names several things ("local definitions", "system characteristics", a plural
 * formal name of one assembly) or a mass ("document metadata"). "status", "address" and "class" name one.
 */
function takesNoArticle(noun: string): boolean {
  const last = bare(noun).split(" ").pop()!.toLowerCase();
  return MASS_NOUNS.has(last) || (/[^su]s$/.test(last) && !last.endsWith("is"));
}

/** "a" or "an", by how the noun is most likely spoken; none for a plural or mass noun ("local definitions"). */
export function indefinite(noun: string): string {
  if (takesNoArticle(noun)) return noun;
  // Acronyms are spelled out: "a UUID", "a URI", but "an IPv4 address".
  return /^(?:[aeioAEIO]|u(?!s|ni))/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/**
 * The plural of a noun, made on its last word ("responsible roles", "parties", "addresses", "UUIDs"); a last word
 * English gives no plural ("Base64") takes "entries".
 */
export function plural(noun: string): string {
  const words = noun.split(" ");
  const last = words.pop()!;
  const made = /^[a-z]+$/.test(last)
    ? last.replace(/([^aeiou])y$/, "$1ie").replace(/(?:s|x|ch|sh)$/, "$&e") + "s"
    : /^[A-Z]+$/.test(last)
      ? `${last}s`
      : `${last} entries`;
  return [...words, made].join(" ");
}

export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a", "a or b", "a, b or c". */
export function joinedWithOr(items: readonly string[]): string {
  const distinct = [...new Set(items)];
  return distinct.length <= 1 ? (distinct[0] ?? "") : `${distinct.slice(0, -1).join(", ")} or ${distinct[distinct.length - 1]}`;
}

const NAMESPACES: Record<string, string> = { "http://csrc.nist.gov/ns/oscal": "OSCAL", "http://csrc.nist.gov/ns/rmf": "RMF" };

/** The literals of a literal or of a sequence of literals; undefined for anything else. */
function literals(expr: Expr): string[] | undefined {
  if (expr.type === "literal") return [String(expr.value)];
  if (expr.type !== "sequence") return undefined;
  const values = expr.items.map(literals);
  return values.every((v) => v !== undefined) ? values.flat() : undefined;
}

/** The JSON name of the flag a one-step path `@name` reads, or of `subject` itself for `.`; undefined for others. */
function flagRead(expr: Expr, subject: string | undefined): string | undefined {
  if (expr.type !== "path" || expr.rootDescendant || expr.steps.length !== 1) return undefined;
  const step = expr.steps[0]!;
  if (step.predicates.length > 0) return undefined;
  if (step.axis === "flag") return step.name.replace(/-/g, " ");
  return step.axis === "self" ? subject : undefined;
}

const quoted = (values: readonly string[]) => joinedWithOr(values.map((v) => JSON.stringify(v)));

/**
 * A condition a predicate sets, in words (`with name "method"`, `whose href starts with "#"`, `in the OSCAL
 * namespace`); undefined when it is not simply said. `subject` names a flag the predicate's `.` reads.
 */
function conditionInWords(expr: Expr, subject: string | undefined): string[] | undefined {
  switch (expr.type) {
    case "and": {
      const parts = expr.items.map((item) => conditionInWords(item, subject));
      return parts.every((p) => p !== undefined) ? parts.flat() : undefined;
    }
    case "cmp": {
      const flag = flagRead(expr.left, subject);
      const values = literals(expr.right);
      if (flag === undefined || values === undefined) return undefined;
      if (expr.op === "=") return [`with ${flag} ${quoted(values)}`];
      if (expr.op === "!=") return [`with ${flag} other than ${quoted(values)}`];
      return undefined;
    }
    case "call": {
      if (expr.name === "has-oscal-namespace" && expr.args.length === 1) {
        const uris = literals(expr.args[0]!);
        return uris && [`in the ${joinedWithOr(uris.map((uri) => NAMESPACES[uri] ?? JSON.stringify(uri)))} namespace`];
      }
      if (expr.name === "starts-with" && expr.args.length === 2) {
        const flag = flagRead(expr.args[0]!, subject);
        const prefix = literals(expr.args[1]!);
        return flag !== undefined && prefix?.length === 1 ? [`whose ${flag} starts with ${quoted(prefix)}`] : undefined;
      }
      if (expr.name === "not" && expr.args.length === 1) {
        const inner = conditionInWords(expr.args[0]!, subject);
        if (inner?.length === 1 && inner[0]!.includes(" starts with ")) return [inner[0]!.replace(" starts with ", " does not start with ")];
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The conditions a step's predicates set on the node it selects, in words, namespaces last; null when one of them is
 * not simply said (a description leaving it out would claim too much).
 */
export function conditionsInWords(predicates: readonly Expr[], subject?: string): string[] | null {
  const parts: string[] = [];
  for (const predicate of predicates) {
    const words = conditionInWords(predicate, subject);
    if (words === undefined) return null;
    parts.push(...words);
  }
  const namespaces = parts.filter((p) => p.startsWith("in the "));
  const others = parts.filter((p) => !p.startsWith("in the "));
  return [...(others.length > 0 ? [joinedConditions(others)] : []), ...namespaces];
}

/**
 * Conditions said as one phrase: "with" said once ("with system "x" and name "y""), a "whose" following a "with"
 * without "and" ("with rel "diagram" whose href starts with "#"").
 */
function joinedConditions(conditions: readonly string[]): string {
  return conditions.reduce((said, next, i) => {
    if (i === 0) return next;
    const previous = conditions[i - 1]!;
    if (previous.startsWith("with ") && next.startsWith("with ")) return `${said} and ${next.slice("with ".length)}`;
    if (previous.startsWith("with ") && next.startsWith("whose ")) return `${said} ${next}`;
    return `${said} and ${next}`;
  });
}

/** The predicates of a flag step in words, the flag itself (`.`) named by its JSON name. */
export function flagStepConditions(step: Step & { axis: "flag" }): string[] | null {
  return conditionsInWords(step.predicates, step.name.replace(/-/g, " "));
}

/** Each Metaschema datatype a matches constraint names: what people call it, and how a value of it is written. */
const DATATYPES: Record<string, { name: string; form: string }> = {
  date: { name: "date", form: "YYYY-MM-DD, optionally with a time zone" },
  "date-with-timezone": { name: "date with a time zone", form: "YYYY-MM-DD followed by Z or +hh:mm" },
  "date-time": { name: "date and time", form: "YYYY-MM-DDThh:mm:ss, optionally with a time zone" },
  "date-time-with-timezone": { name: "date and time with a time zone", form: "YYYY-MM-DDThh:mm:ss followed by Z or +hh:mm" },
  integer: { name: "integer", form: "digits, optionally after + or -" },
  uuid: { name: "UUID", form: "a version 4 or 5 UUID, 8-4-4-4-12 hexadecimal digits" },
  uri: { name: "absolute URI", form: "a scheme such as https: followed by the rest of the address" },
  "uri-reference": { name: "URI reference", form: "a URI or a relative reference, without spaces and with % followed by two hexadecimal digits only" },
  "ip-v4-address": { name: "IPv4 address", form: "four numbers from 0 to 255 separated by dots" },
  "ip-v6-address": { name: "IPv6 address", form: "groups of hexadecimal digits separated by colons" },
};

/** A Metaschema datatype as people name it, and how its values are written. */
export function datatypeInWords(datatype: string): { name: string; form: string | undefined } {
  return DATATYPES[datatype] ?? { name: datatype.replace(/-/g, " "), form: undefined };
}

/** The noun of what a node's conditions are about: a flag's owner, else the node itself. */
function selectedNoun(type: NodeType): string {
  return bare(definitionNoun(type.kind === "flag" ? type.owner : type.def));
}

/**
 * What selected the node, as a noun phrase ("a property with name "method" in the OSCAL namespace"); undefined when no
 * condition selected it, or one is not simply said.
 */
export function selectionInWords(node: { type: NodeType; conditions?: readonly string[] | null }): string | undefined {
  const { conditions } = node;
  return conditions ? (conditions.length === 0 ? undefined : `${indefinite(selectedNoun(node.type))} ${conditions.join(" ")}`) : undefined;
}

/**
 * The noun of a node with what selected it: "property with name "method" in the OSCAL namespace", or in the plural
 * ("properties with name ...").
 */
export function nodeNounWithConditions(node: { type: NodeType; conditions?: readonly string[] | null }, inPlural = false): string {
  const noun = inPlural ? plural(nodeNoun(node.type)) : nodeNoun(node.type);
  return node.conditions && node.conditions.length > 0 && node.type.kind !== "flag" ? `${noun} ${node.conditions.join(" ")}` : noun;
}

/**
 * The node with what selected it, with the definite article: "the hypertext reference of a link with rel "diagram"",
 * "the name of a part in the OSCAL namespace" (not "the part name of a part"), "the hash with algorithm "SHA-256"",
 * "the property name".
 */
export function theNode(node: { type: NodeType; conditions?: readonly string[] | null }): string {
  const selection = selectionInWords(node);
  if (selection === undefined) return `the ${nodeNoun(node.type)}`;
  return node.type.kind === "flag" ? `the ${withoutOwnerWord(definitionNoun(node.type.def), node.type.owner)} of ${selection}` : `the ${nodeNounWithConditions(node)}`;
}

/** A flag's noun without the word of it that names its owner, which the phrase names next: "part name" → "name". */
function withoutOwnerWord(noun: string, owner: AssemblyDef | FieldDef): string {
  const ownerWord = bare(definitionNoun(owner)).split(" ").pop()!;
  return noun.startsWith(`${ownerWord} `) ? noun.slice(ownerWord.length + 1) : noun;
}

/**
 * What a key of key fields is, as a noun: one field by its formal name ("resource UUID", "link's hypertext reference"),
 * several by their JSON names ("name, ns, class, group and value"). `ownerNamed`: the phrase names the node already, so
 * a flag needs not ("hypertext reference" of a link).
 */
export function keyNoun(fields: readonly { target: string }[], node: NodeType, ownerNamed = false): string {
  if (fields.length > 1) {
    const names = fields.map((f) => (f.target === "." ? "value" : f.target.replace(/^@/, "")));
    return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  }
  const target = fields[0]?.target ?? ".";
  if (target === "." || node.kind === "flag") return nodeNoun(node);
  const def = node.def;
  if (target.startsWith("@")) {
    const flag = def.flags.find((f) => f.name === target.slice(1));
    if (flag) return ownerNamed ? definitionNoun(flag.def) : flagNoun(flag.def, def);
  } else if (def.kind === "assembly") {
    const child = def.children.find((c) => c.name === target);
    if (child) return definitionNoun(child.def);
  }
  return `${bare(nodeNoun(node))}'s reference`;
}

/** What a one-step path names on nodes of `type`, with an article ("a title", "a property with name "method""). */
function pathInWords(expr: Expr, type: NodeType): string | undefined {
  if (expr.type !== "path" || expr.rootDescendant || expr.steps.length !== 1 || type.kind === "flag") return undefined;
  const step = expr.steps[0]!;
  const def = type.def;
  if (step.axis === "flag" && step.predicates.length === 0) {
    const flag = def.flags.find((f) => f.name === step.name);
    return flag && indefinite(definitionNoun(flag.def));
  }
  if (step.axis !== "child" || step.names.length !== 1 || def.kind !== "assembly") return undefined;
  const child = def.children.find((c) => c.name === step.names[0]);
  const conditions = conditionsInWords(step.predicates);
  if (!child || conditions === null) return undefined;
  return indefinite([definitionNoun(child.def), ...conditions].join(" "));
}

/**
 * What an expect constraint's test requires of nodes of `type`, after "must" ("have a title", "have no media type",
 * "not have method "merge""); undefined when it is not simply said.
 */
export function requirementInWords(test: Expr, type: NodeType): string | undefined {
  const path = pathInWords(test, type);
  if (path !== undefined) return `have ${path}`;
  switch (test.type) {
    case "and":
    case "or": {
      const parts = test.items.map((item) => requirementInWords(item, type));
      if (parts.some((p) => p === undefined)) return undefined;
      return test.type === "and" ? parts.join(" and ") : `either ${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]}`;
    }
    case "cmp": {
      const values = literals(test.right);
      if (values === undefined || test.op !== "=") return undefined;
      const flag = flagRead(test.left, undefined);
      if (flag !== undefined) return `have ${flag} ${quoted(values)}`;
      // child[...]/@flag = values: "have a property with name "status" whose value is "withdrawn""
      if (test.left.type !== "path" || test.left.steps.length !== 2) return undefined;
      const [child, last] = test.left.steps as [Step, Step];
      const owner = pathInWords({ type: "path", rootDescendant: false, steps: [child] }, type);
      const flagName = flagRead({ type: "path", rootDescendant: false, steps: [last] }, undefined);
      return owner === undefined || flagName === undefined ? undefined : `have ${owner} whose ${flagName} is ${quoted(values)}`;
    }
    case "call": {
      if (test.name === "exists" && test.args.length === 1) return requirementInWords(test.args[0]!, type);
      if (test.name !== "not" || test.args.length !== 1) return undefined;
      const inner = requirementInWords(test.args[0]!, type);
      if (inner === undefined || /^either | and /.test(inner)) return undefined;
      return /^have an? /.test(inner) ? inner.replace(/^have an? /, "have no ") : `not ${inner}`;
    }
    default:
      return undefined;
  }
}
