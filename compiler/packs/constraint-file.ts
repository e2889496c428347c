// Reads Metaschema external constraint files (`metaschema-meta-constraints`): each <context> with its <metapath
// target>s, <let> variables and constraints, in file order.
import { isConstraintKind, readConstraint, spaced, type Constraint } from "../metaschema/constraint.js";
import { childElements, firstChild, readXmlFile, type XmlElement } from "../metaschema/xml.js";

/** A pack's constraint: the common representation (every kind NIST's modules declare) and where it is declared. */
export interface FileConstraint extends Constraint {
  /** Where it is declared, for error messages: file and context number. */
  where: string;
}

export interface FileContext {
  targets: string[];
  lets: { name: string; expression: string }[];
  constraints: FileConstraint[];
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
      if (!isConstraintKind(element.name)) throw new Error(`${where}: unsupported constraint element <${element.name}>`);
      constraints.push({ ...readConstraint(element, where), where });
    }
    if (childElements(context, "context").length > 0) throw new Error(`${where}: nested contexts are not supported`);
    contexts.push({ targets, lets, constraints });
  };
  for (const context of childElements(root, "context")) visit(context);
  return contexts;
}
