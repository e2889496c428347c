// Reads Metaschema external constraint files (`metaschema-meta-constraints`): each <context> with its <metapath
// target>s, <let> variables and constraints, in file order.
import { childElements, firstChild, readXmlFile, textContent, type XmlElement } from "../semantic/xml.js";

export type PackConstraintKind = "expect" | "allowed-values" | "matches" | "index" | "index-has-key" | "is-unique";
const KINDS: readonly string[] = ["expect", "allowed-values", "matches", "index", "index-has-key", "is-unique"];

export interface FileConstraint {
  kind: PackConstraintKind;
  id: string | undefined;
  level: string;
  target: string;
  test: string | undefined;
  values: string[];
  allowOther: boolean;
  regex: string | undefined;
  datatype: string | undefined;
  indexName: string | undefined;
  keyFields: { target: string; pattern: string | undefined }[];
  message: string | undefined;
  formalName: string | undefined;
  /** Where it is declared, for error messages: file and context number. */
  where: string;
}

export interface FileContext {
  targets: string[];
  lets: { name: string; expression: string }[];
  constraints: FileConstraint[];
}

function spaced(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

export function readConstraintFile(file: string, label: string): FileContext[] {
  const root = readXmlFile(file);
  if (root.name !== "metaschema-meta-constraints") throw new Error(`${label}: root element is not metaschema-meta-constraints`);
  const contexts: FileContext[] = [];
  const visit = (context: XmlElement) => {
    const where = `${label} context ${contexts.length + 1}`;
    const targets = childElements(context, "metapath").map((m) => spaced(m.attrs.target ?? ""));
    if (targets.length === 0 || targets.includes("")) throw new Error(`${where}: a context needs <metapath target="...">`);
    const block = firstChild(context, "constraints");
    const lets: FileContext["lets"] = [];
    const constraints: FileConstraint[] = [];
    for (const element of block ? childElements(block) : []) {
      if (element.name === "remarks") continue;
      if (element.name === "let") {
        lets.push({ name: element.attrs.var!, expression: spaced(element.attrs.expression!) });
        continue;
      }
      if (!KINDS.includes(element.name)) throw new Error(`${where}: unsupported constraint element <${element.name}>`);
      const message = firstChild(element, "message");
      const formalName = firstChild(element, "formal-name");
      constraints.push({
        kind: element.name as PackConstraintKind,
        id: element.attrs.id,
        level: element.attrs.level ?? "ERROR",
        target: spaced(element.attrs.target ?? "."),
        test: element.attrs.test === undefined ? undefined : spaced(element.attrs.test),
        values: childElements(element, "enum").map((e) => e.attrs.value!),
        allowOther: element.attrs["allow-other"] === "yes",
        regex: element.attrs.regex,
        datatype: element.attrs.datatype,
        indexName: element.attrs.name,
        keyFields: childElements(element, "key-field").map((k) => ({ target: spaced(k.attrs.target!), pattern: k.attrs.pattern })),
        message: message ? spaced(textContent(message)) : undefined,
        formalName: formalName ? spaced(textContent(formalName)) : undefined,
        where,
      });
    }
    if (childElements(context, "context").length > 0) throw new Error(`${where}: nested contexts are not supported`);
    contexts.push({ targets, lets, constraints });
  };
  for (const context of childElements(root, "context")) visit(context);
  return contexts;
}
