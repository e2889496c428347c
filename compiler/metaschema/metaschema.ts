// Loads the NIST metaschema modules and maps their definitions to the JSON shape of OSCAL documents
// (Metaschema JSON binding: group-as names arrays, flags become properties, flagged fields become objects
// keyed by json-value-key, use-name renames). Also collects every <constraint> with its context definition.
import { readdirSync } from "node:fs";
import path from "node:path";
import { readConstraint, spaced, type Constraint } from "./constraint.js";
import { childElements, firstChild, readXmlFile, textContent, type XmlElement } from "./xml.js";

export type { ConstraintKind, KeyField } from "./constraint.js";

/** What the metaschema says a definition is, in words: its formal name and description (as plain text), where given. */
export interface Documented {
  formalName: string | undefined;
  description: string | undefined;
}

export interface FlagDef extends Documented {
  kind: "flag";
  name: string;
  contextPath: string; // module:definition path, used in constraint keys
  asType: string;
}

export interface FlagInstance {
  name: string; // the Metapath name (without "@")
  jsonName: string;
  def: FlagDef;
}

export interface ModelInstance {
  name: string; // the element name Metapath child steps match (use-name, else the definition name)
  jsonName: string; // the JSON property (group-as name when grouped)
  /** "single": one value; "array": always a JSON array; "singleton-or-array": one value or an array. */
  multiplicity: "single" | "array" | "singleton-or-array";
  def: AssemblyDef | FieldDef;
}

export interface AssemblyDef extends Documented {
  kind: "assembly";
  name: string;
  useName: string; // the element name of its instances unless an instance renames it
  contextPath: string;
  rootName: string | undefined;
  flags: FlagInstance[];
  children: ModelInstance[];
}

export interface FieldDef extends Documented {
  kind: "field";
  name: string;
  useName: string;
  contextPath: string;
  asType: string;
  flags: FlagInstance[];
  /** JSON property holding the field value when the field has flags; null when the field is a plain JSON scalar. */
  valueKey: string | null;
}

export type Definition = AssemblyDef | FieldDef | FlagDef;

/** A NIST constraint: the common representation, with the definition it sits on and a stable key for its rule id. */
export interface RawConstraint extends Constraint {
  key: string; // stable identity used by the rule-id table
  module: string; // metaschema file base name, e.g. oscal_catalog
  context: Definition;
}

interface Module {
  base: string;
  root: XmlElement;
  imports: Module[];
  definitions: Map<string, XmlElement>; // "assembly:name" etc., all top-level definitions of this module
  globals: Map<string, XmlElement>; // the ones visible to importing modules
}

export interface LoadedMetaschema {
  roots: Map<string, AssemblyDef>; // root-name → root assembly
  constraints: RawConstraint[];
}

/** The formal name and description of a definition element, whitespace runs made one space. */
function documentation(element: XmlElement): Documented {
  const text = (child: string) => {
    const found = firstChild(element, child);
    return found ? spaced(textContent(found)) : undefined;
  };
  return { formalName: text("formal-name"), description: text("description") };
}

const DEFINE_KINDS = { "define-assembly": "assembly", "define-field": "field", "define-flag": "flag" } as const;

export function loadMetaschema(metaschemaDir: string): LoadedMetaschema {
  const modules = new Map<string, Module>();
  const files = readdirSync(metaschemaDir).filter((f) => f.endsWith("_metaschema.xml")).sort();
  if (files.length === 0) throw new Error(`no *_metaschema.xml files in ${metaschemaDir}`);

  const loadModule = (file: string): Module => {
    const existing = modules.get(file);
    if (existing) return existing;
    const root = readXmlFile(path.join(metaschemaDir, file));
    if (root.name !== "METASCHEMA") throw new Error(`${file}: root element is not METASCHEMA`);
    const module: Module = { base: file.replace(/_metaschema\.xml$/, ""), root, imports: [], definitions: new Map(), globals: new Map() };
    modules.set(file, module);
    for (const element of childElements(root)) {
      const kind = DEFINE_KINDS[element.name as keyof typeof DEFINE_KINDS];
      if (!kind) continue;
      const key = `${kind}:${element.attrs.name}`;
      module.definitions.set(key, element);
      if (element.attrs.scope !== "local") module.globals.set(key, element);
    }
    for (const imp of childElements(root, "import")) module.imports.push(loadModule(imp.attrs.href!));
    return module;
  };
  for (const file of files) loadModule(file);

  const built = new Map<XmlElement, Definition>();
  const constraints: RawConstraint[] = [];
  const keyCounts = new Map<string, number>();

  // A module sees its own definitions, then the global ones of its imports (depth first, in import order).
  const resolve = (module: Module, kind: string, name: string): { element: XmlElement; module: Module } => {
    const seen = new Set<Module>();
    const search = (m: Module, own: boolean): { element: XmlElement; module: Module } | undefined => {
      if (seen.has(m)) return undefined;
      seen.add(m);
      const element = (own ? m.definitions : m.globals).get(`${kind}:${name}`);
      if (element) return { element, module: m };
      for (const imported of m.imports) {
        const found = search(imported, false);
        if (found) return found;
      }
      return undefined;
    };
    const found = search(module, true);
    if (!found) throw new Error(`${module.base}: unresolved ${kind} reference "${name}"`);
    return found;
  };

  const collectConstraints = (element: XmlElement, module: Module, def: Definition): void => {
    const block = firstChild(element, "constraint");
    if (!block) return;
    for (const c of childElements(block)) {
      if (c.name === "remarks") continue;
      const constraint = readConstraint(c, def.contextPath);
      const baseKey = `${def.contextPath} ${constraint.kind} ${constraint.id ?? `target=${constraint.target}`}`;
      const count = (keyCounts.get(baseKey) ?? 0) + 1;
      keyCounts.set(baseKey, count);
      constraints.push({ ...constraint, key: count === 1 ? baseKey : `${baseKey} #${count}`, module: module.base, context: def });
    }
  };

  const buildFlag = (element: XmlElement, module: Module, contextPath: string): FlagDef => {
    const existing = built.get(element);
    if (existing) return existing as FlagDef;
    const def: FlagDef = { kind: "flag", name: element.attrs.name!, contextPath, asType: element.attrs["as-type"] ?? "string", ...documentation(element) };
    built.set(element, def);
    collectConstraints(element, module, def);
    return def;
  };

  const buildFlags = (element: XmlElement, module: Module, contextPath: string): FlagInstance[] => {
    const flags: FlagInstance[] = [];
    for (const child of childElements(element)) {
      if (child.name === "define-flag") {
        const def = buildFlag(child, module, `${contextPath}/@${child.attrs.name}`);
        flags.push({ name: def.name, jsonName: def.name, def });
      } else if (child.name === "flag") {
        const found = resolve(module, "flag", child.attrs.ref!);
        const def = buildFlag(found.element, found.module, `${found.module.base}:@${child.attrs.ref}`);
        const useName = firstChild(child, "use-name");
        const name = useName ? textContent(useName).trim() : def.name;
        flags.push({ name, jsonName: name, def });
      }
    }
    return flags;
  };

  const buildInstance = (child: XmlElement, module: Module, parentPath: string): ModelInstance => {
    const kind = child.name.replace(/^define-/, "") as "assembly" | "field";
    let def: AssemblyDef | FieldDef;
    if (child.name.startsWith("define-")) def = buildDefinition(child, module, `${parentPath}/${child.attrs.name}`) as AssemblyDef | FieldDef;
    else {
      const found = resolve(module, kind, child.attrs.ref!);
      def = buildDefinition(found.element, found.module, `${found.module.base}:${child.attrs.ref}`) as AssemblyDef | FieldDef;
    }
    const useName = firstChild(child, "use-name");
    const name = useName ? textContent(useName).trim() : def.useName;
    const groupAs = firstChild(child, "group-as");
    const maxOccurs = child.attrs["max-occurs"] ?? "1";
    let multiplicity: ModelInstance["multiplicity"] = "single";
    if (groupAs || maxOccurs !== "1") {
      const inJson = groupAs?.attrs["in-json"] ?? "SINGLETON_OR_ARRAY";
      if (inJson === "BY_KEY") throw new Error(`${parentPath}/${name}: in-json="BY_KEY" is not supported by the semantic compiler`);
      multiplicity = inJson === "ARRAY" ? "array" : "singleton-or-array";
    }
    return { name, jsonName: groupAs ? groupAs.attrs.name! : name, multiplicity, def };
  };

  const buildModel = (model: XmlElement, module: Module, parentPath: string, into: ModelInstance[]): void => {
    for (const child of childElements(model)) {
      if (child.name === "choice") buildModel(child, module, parentPath, into);
      else if (child.name === "choice-group") throw new Error(`${parentPath}: <choice-group> is not supported by the semantic compiler`);
      else if (["assembly", "field", "define-assembly", "define-field"].includes(child.name)) into.push(buildInstance(child, module, parentPath));
    }
  };

  function buildDefinition(element: XmlElement, module: Module, contextPath: string): Definition {
    const existing = built.get(element);
    if (existing) return existing;
    const name = element.attrs.name!;
    const useNameElement = firstChild(element, "use-name");
    const useName = useNameElement ? textContent(useNameElement).trim() : name;
    if (element.name === "define-assembly") {
      const rootName = firstChild(element, "root-name");
      const def: AssemblyDef = {
        kind: "assembly", name, useName, contextPath, rootName: rootName ? textContent(rootName).trim() : undefined,
        flags: [], children: [], ...documentation(element),
      };
      built.set(element, def);
      def.flags = buildFlags(element, module, contextPath);
      const model = firstChild(element, "model");
      if (model) buildModel(model, module, contextPath, def.children);
      collectConstraints(element, module, def);
      return def;
    }
    const def: FieldDef = { kind: "field", name, useName, contextPath, asType: element.attrs["as-type"] ?? "string", flags: [], valueKey: null, ...documentation(element) };
    built.set(element, def);
    def.flags = buildFlags(element, module, contextPath);
    if (firstChild(element, "json-value-key-flag")) throw new Error(`${contextPath}: json-value-key-flag is not supported by the semantic compiler`);
    const valueKey = firstChild(element, "json-value-key");
    // Metaschema default value keys when a flagged field names none.
    const defaultKey = def.asType === "markup-line" ? "RICHTEXT" : def.asType === "markup-multiline" ? "PROSE" : "STRVALUE";
    def.valueKey = def.flags.length === 0 ? null : valueKey ? textContent(valueKey).trim() : defaultKey;
    collectConstraints(element, module, def);
    return def;
  }

  const roots = new Map<string, AssemblyDef>();
  for (const module of [...new Set(modules.values())].sort((a, b) => a.base.localeCompare(b.base))) {
    for (const [key, element] of [...module.definitions].sort(([a], [b]) => a.localeCompare(b))) {
      const [kind] = key.split(":");
      const def = buildDefinition(element, module, `${module.base}:${kind === "flag" ? "@" : ""}${element.attrs.name}`);
      if (def.kind === "assembly" && def.rootName) roots.set(def.rootName, def);
    }
  }
  return { roots, constraints };
}
