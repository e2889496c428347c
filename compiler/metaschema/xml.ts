// A small, strict XML reader for the NIST metaschema files: elements, attributes, text, CDATA, comments,
// processing instructions, a DOCTYPE internal subset with ENTITY declarations (internal and SYSTEM), entity
// and character references. Namespaces are not resolved: the metaschema uses one default namespace.
import { readFileSync } from "node:fs";
import path from "node:path";

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

const PREDEFINED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

interface EntityTable {
  internal: Map<string, string>;
  external: Map<string, string>; // name → absolute file path
}

class XmlSyntaxError extends Error {}

class Reader {
  private pos = 0;
  constructor(
    private readonly text: string,
    private readonly source: string,
    private readonly entities: EntityTable,
    private readonly expanding: ReadonlySet<string>,
  ) {}

  fail(message: string): never {
    const line = this.text.slice(0, this.pos).split("\n").length;
    throw new XmlSyntaxError(`${this.source}:${line}: ${message}`);
  }

  private startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  private expect(s: string): void {
    if (!this.startsWith(s)) this.fail(`expected "${s}"`);
    this.pos += s.length;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  private readName(): string {
    const m = /^[A-Za-z_:][\w.:-]*/.exec(this.text.slice(this.pos, this.pos + 200));
    if (!m) this.fail("expected a name");
    this.pos += m[0].length;
    return m[0];
  }

  private skipUntil(end: string): string {
    const at = this.text.indexOf(end, this.pos);
    if (at < 0) this.fail(`unterminated construct, expected "${end}"`);
    const body = this.text.slice(this.pos, at);
    this.pos = at + end.length;
    return body;
  }

  private readQuoted(): string {
    const quote = this.text[this.pos];
    if (quote !== '"' && quote !== "'") this.fail("expected a quoted value");
    this.pos++;
    return this.skipUntil(quote);
  }

  /** Prolog: XML declaration, comments, PIs, DOCTYPE; then the single root element. */
  readDocument(): XmlElement {
    let root: XmlElement | undefined;
    while (true) {
      this.skipSpace();
      if (this.pos >= this.text.length) break;
      if (this.startsWith("<?")) this.skipUntil("?>");
      else if (this.startsWith("<!--")) this.skipUntil("-->");
      else if (this.startsWith("<!DOCTYPE")) this.readDoctype();
      else if (this.startsWith("<")) {
        if (root) this.fail("more than one root element");
        root = this.readElement();
      } else this.fail("text outside the root element");
    }
    if (!root) this.fail("no root element");
    return root;
  }

  private readDoctype(): void {
    this.expect("<!DOCTYPE");
    this.skipSpace();
    this.readName();
    this.skipSpace();
    if (this.startsWith("[")) {
      this.pos++;
      while (true) {
        this.skipSpace();
        if (this.startsWith("]")) break;
        if (this.startsWith("<!--")) this.skipUntil("-->");
        else if (this.startsWith("<!ENTITY")) this.readEntityDeclaration();
        else this.fail("unsupported declaration in DOCTYPE internal subset");
      }
      this.pos++;
      this.skipSpace();
    }
    this.expect(">");
  }

  private readEntityDeclaration(): void {
    this.expect("<!ENTITY");
    this.skipSpace();
    if (this.startsWith("%")) this.fail("parameter entities are not supported");
    const name = this.readName();
    this.skipSpace();
    if (this.startsWith("SYSTEM")) {
      this.pos += "SYSTEM".length;
      this.skipSpace();
      const systemId = this.readQuoted();
      this.entities.external.set(name, path.resolve(path.dirname(this.source), systemId));
    } else {
      this.entities.internal.set(name, this.readQuoted());
    }
    this.skipSpace();
    this.expect(">");
  }

  readElement(): XmlElement {
    this.expect("<");
    const name = this.readName();
    const attrs: Record<string, string> = {};
    while (true) {
      const before = this.pos;
      this.skipSpace();
      if (this.startsWith("/>")) {
        this.pos += 2;
        return { name, attrs, children: [] };
      }
      if (this.startsWith(">")) {
        this.pos++;
        break;
      }
      if (this.pos === before) this.fail("expected whitespace before an attribute");
      const attrName = this.readName();
      this.skipSpace();
      this.expect("=");
      this.skipSpace();
      if (attrName in attrs) this.fail(`duplicate attribute ${attrName}`);
      const raw = this.readQuoted();
      if (raw.includes("<")) this.fail("'<' in attribute value");
      attrs[attrName] = this.decodeText(raw).replace(/[\t\n\r]/g, " ");
    }
    const children = this.readContent();
    this.expect("</");
    const closing = this.readName();
    if (closing !== name) this.fail(`closing tag </${closing}> does not match <${name}>`);
    this.skipSpace();
    this.expect(">");
    return { name, attrs, children };
  }

  /** Content up to (not including) a closing tag or the end of input. */
  readContent(): XmlNode[] {
    const children: XmlNode[] = [];
    const pushText = (s: string) => {
      if (s === "") return;
      const last = children[children.length - 1];
      if (typeof last === "string") children[children.length - 1] = last + s;
      else children.push(s);
    };
    while (this.pos < this.text.length) {
      if (this.startsWith("</")) break;
      if (this.startsWith("<!--")) this.skipUntil("-->");
      else if (this.startsWith("<![CDATA[")) {
        this.pos += "<![CDATA[".length;
        pushText(this.skipUntil("]]>"));
      } else if (this.startsWith("<?")) this.skipUntil("?>");
      else if (this.startsWith("<")) children.push(this.readElement());
      else if (this.startsWith("&")) {
        const end = this.text.indexOf(";", this.pos);
        if (end < 0) this.fail("unterminated reference");
        const ref = this.text.slice(this.pos + 1, end);
        this.pos = end + 1;
        if (ref.startsWith("#") || ref in PREDEFINED_ENTITIES) pushText(this.decodeReference(ref));
        else for (const node of this.expandEntity(ref)) typeof node === "string" ? pushText(node) : children.push(node);
      } else {
        const next = this.text.slice(this.pos).search(/[<&]/);
        const end = next < 0 ? this.text.length : this.pos + next;
        pushText(this.text.slice(this.pos, end));
        this.pos = end;
      }
    }
    return children;
  }

  private expandEntity(name: string): XmlNode[] {
    if (this.expanding.has(name)) this.fail(`recursive entity &${name};`);
    const nested = new Set(this.expanding).add(name);
    const internal = this.entities.internal.get(name);
    if (internal !== undefined) return parseFragment(internal, this.source, this.entities, nested);
    const file = this.entities.external.get(name);
    if (file === undefined) this.fail(`undeclared entity &${name};`);
    const text = readFileSync(file, "utf8").replace(/^<\?xml[^>]*\?>/, "");
    return parseFragment(text, file, this.entities, nested);
  }

  private decodeReference(ref: string): string {
    if (ref.startsWith("#x")) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const value = PREDEFINED_ENTITIES[ref] ?? this.entities.internal.get(ref);
    if (value === undefined) this.fail(`undeclared entity &${ref}; in attribute value`);
    return value;
  }

  private decodeText(raw: string): string {
    return raw.replace(/&([^;&\s]+);/g, (_, ref: string) => this.decodeReference(ref));
  }

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }
}

function parseFragment(text: string, source: string, entities: EntityTable, expanding: ReadonlySet<string>): XmlNode[] {
  const reader = new Reader(text, source, entities, expanding);
  const nodes = reader.readContent();
  if (!reader.atEnd()) reader.fail("unexpected closing tag in entity content");
  return nodes;
}

export function readXmlFile(file: string): XmlElement {
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  const entities: EntityTable = { internal: new Map(), external: new Map() };
  return new Reader(text, file, entities, new Set()).readDocument();
}

export function childElements(element: XmlElement, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of element.children) if (typeof child !== "string" && (name === undefined || child.name === name)) out.push(child);
  return out;
}

export function firstChild(element: XmlElement, name: string): XmlElement | undefined {
  return childElements(element, name)[0];
}

export function textContent(node: XmlNode): string {
  return typeof node === "string" ? node : node.children.map(textContent).join("");
}
