// NIST profile resolution (OSCAL profile resolution specification, usnistgov/OSCAL v1.2.2): a profile and the
// catalogs and profiles it imports become one catalog, through the phases import, merge and modify, then back-matter,
// pruning and metadata. Documents come from a loader; nothing here reads files or the network.
import { randomUUID } from "node:crypto";
import { OSCAL_RELEASE } from "../package-info.js";
import type { DocumentLoader, LoadedDocument } from "./loader.js";
import { addTo, CONTROL_ORDER, deepCopy, GROUP_ORDER, isObject, keptAlways, type Obj, objects, ordered, setList, strings, text } from "./model.js";
import { alterControl, Copies, type Location, setParameter } from "./modify.js";
import { controlEntries, globPattern, markIncluded, type ControlEntry } from "./select.js";

/** What kind of fault stops a resolution: callers answer a document that is not available differently from a bad profile. */
export type ResolutionFault = "document-unavailable" | "circular-import" | "not-profile-or-catalog" | "unknown-controls" | "invalid-profile";

/** Why a profile cannot be resolved; `chain` is the hrefs from the profile to the import at fault. */
export class ResolutionError extends Error {
  constructor(
    message: string,
    readonly chain: readonly string[],
    readonly fault: ResolutionFault,
  ) {
    super(message);
  }
}

export interface ResolveSettings {
  loader: DocumentLoader;
  /** The profile's own uri: its relative hrefs resolve against it. */
  uri: string;
  /** How the result names the profile it came from (metadata prop and link `source-profile`). */
  sourceProfile: string;
  now: Date;
  /** Conditions the specification asks a resolver to warn about; resolution goes on. */
  warn(message: string): void;
}

/** One import's catalog with its controls marked included or not. */
interface Selection {
  catalog: Obj;
  entries: ControlEntry[];
  byControl: Map<Obj, ControlEntry>;
}

/** A profile being resolved: the hrefs that led to it (for messages) and the uris of the profiles above it (for cycles). */
interface Context {
  uri: string;
  chain: readonly string[];
  active: readonly string[];
  settings: ResolveSettings;
}

const STRUCTURES = ["flat", "as-is", "custom"] as const;

function fail(context: Context, message: string, fault: ResolutionFault = "invalid-profile"): never {
  throw new ResolutionError(`${context.chain.join(" -> ")}: ${message}`, context.chain, fault);
}

/** The document an import's href names: a file or URI through the loader, or (`#uuid`) a back-matter resource. */
function acquire(href: string, profile: Obj, context: Context): LoadedDocument {
  const { loader } = context.settings;
  if (!href.startsWith("#")) {
    const loaded = loader.load(href, context.uri);
    return "unavailable" in loaded ? fail(context, `the document is not available: ${loaded.unavailable}`, "document-unavailable") : loaded;
  }
  const uuid = href.slice(1);
  const resource = objects(isObject(profile["back-matter"]) ? profile["back-matter"].resources : undefined).find((candidate) => candidate.uuid === uuid);
  if (resource === undefined) fail(context, `no back-matter resource of the profile has the uuid ${uuid}`);
  const reasons: string[] = [];
  // Any rlink or the base64 may be used (req-internal-resolve1): the first one available wins.
  for (const rlink of objects(resource.rlinks)) {
    const rlinkHref = text(rlink.href);
    if (rlinkHref === undefined) continue;
    const loaded = loader.load(rlinkHref, context.uri);
    if (!("unavailable" in loaded)) return loaded;
    reasons.push(`rlink "${rlinkHref}": ${loaded.unavailable}`);
  }
  const base64 = isObject(resource.base64) ? text(resource.base64.value) : undefined;
  if (base64 !== undefined) {
    try {
      return { uri: `${context.uri}#${uuid}`, document: JSON.parse(Buffer.from(base64, "base64").toString("utf8")) };
    } catch {
      reasons.push("its base64 content is not a JSON document");
    }
  }
  return fail(context, `the resource ${uuid} is not available: ${reasons.length === 0 ? "it has neither an rlink nor a base64" : reasons.join("; ")}`, "document-unavailable");
}

/** The catalog an import brings: the catalog itself, or the imported profile resolved first (req-circular-resolve). */
function importedCatalog(importDirective: Obj, profile: Obj, context: Context): Obj {
  const href = text(importDirective.href);
  if (href === undefined) fail(context, "an import has no href");
  const inner: Context = { ...context, chain: [...context.chain, href] };
  const loaded = acquire(href, profile, inner);
  const document = loaded.document;
  if (isObject(document) && isObject(document.catalog)) return document.catalog;
  if (!isObject(document) || !isObject(document.profile)) fail(inner, "the document is neither an OSCAL profile nor an OSCAL catalog", "not-profile-or-catalog");
  if (context.active.includes(loaded.uri)) fail(inner, "circular import: the profile imports itself through this chain", "circular-import");
  return resolveProfileObject(document.profile, { ...inner, uri: loaded.uri, active: [...context.active, loaded.uri] });
}

function select(importDirective: Obj, catalog: Obj, context: Context): Selection {
  const entries = controlEntries(catalog);
  const missing = markIncluded(importDirective, entries);
  if (missing.length > 0) fail({ ...context, chain: [...context.chain, text(importDirective.href) ?? ""] }, `the import selects controls the imported catalog does not have: ${missing.join(", ")}`, "unknown-controls");
  const byControl = new Map<Obj, ControlEntry>();
  for (const entry of entries) byControl.set(entry.control, entry);
  return { catalog, entries, byControl };
}

/** Applies `combine` (req-merge-use-first, req-merge-keep): use-first drops later controls with an id already seen. */
function combine(merge: Obj, selections: readonly Selection[], context: Context): void {
  const method = isObject(merge.combine) ? (merge.combine.method ?? "keep") : "keep";
  if (method !== "keep" && method !== "use-first") {
    fail(context, method === "merge" ? 'combine method "merge" is deprecated and its behaviour undefined (req-merge-combine): use "use-first" or "keep"' : `unknown combine method ${JSON.stringify(method)}`);
  }
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const { entries } of selections) {
    for (const entry of entries) {
      if (!entry.included || entry.id === undefined) continue;
      if (!seen.has(entry.id)) seen.add(entry.id);
      else if (method === "use-first") entry.included = false;
      else duplicates.add(entry.id);
    }
  }
  if (duplicates.size > 0) context.settings.warn(`combine method keep: controls included more than once: ${[...duplicates].join(", ")}`);
}

/**
 * An included control for the result: a shallow copy without its child controls, which the structure places. What it
 * holds stays shared with the catalog until the modify phase changes it (./modify.ts).
 */
function controlCopy(control: Obj): Obj {
  const { controls: _children, ...rest } = control;
  return rest;
}

function allGroups(groups: unknown): Obj[] {
  return objects(groups).flatMap((group) => [group, ...allGroups(group.groups)]);
}

interface Structured {
  params: Obj[];
  controls: Obj[];
  groups: Obj[];
}

/** flat: every included control directly under the catalog, loose params too, no groups (req-merge-flat-list). */
function flat(selections: readonly Selection[]): Structured {
  return {
    params: selections.flatMap(({ catalog }) => [...objects(catalog.params), ...allGroups(catalog.groups).flatMap((group) => objects(group.params))]).map(deepCopy),
    controls: selections.flatMap(({ entries }) => entries.filter((entry) => entry.included).map((entry) => controlCopy(entry.control))),
    groups: [],
  };
}

/** as-is: the imported structure kept; a control whose parent is not included moves up to the parent's place. */
function asIs(selections: readonly Selection[]): Structured {
  const structured: Structured = { params: [], controls: [], groups: [] };
  for (const { catalog, byControl } of selections) {
    const controlsOf = (controls: unknown): Obj[] =>
      objects(controls).flatMap((control) => {
        const children = controlsOf(control.controls);
        if (!byControl.get(control)?.included) return children;
        const copy = controlCopy(control);
        setList(copy, "controls", children);
        return [ordered(copy, CONTROL_ORDER)];
      });
    const groupOf = (group: Obj): Obj[] => {
      const groups = objects(group.groups).flatMap(groupOf);
      const controls = controlsOf(group.controls);
      if (groups.length === 0 && controls.length === 0 && !keptAlways(group)) return [];
      const { groups: _groups, controls: _controls, ...rest } = group;
      const copy = deepCopy(rest);
      setList(copy, "groups", groups);
      setList(copy, "controls", controls);
      return [ordered(copy, GROUP_ORDER)];
    };
    structured.params.push(...objects(catalog.params).map(deepCopy));
    structured.controls.push(...controlsOf(catalog.controls));
    structured.groups.push(...objects(catalog.groups).flatMap(groupOf));
  }
  return structured;
}

const ORDERINGS: Readonly<Record<string, (a: Obj, b: Obj) => number>> = {
  ascending: (a, b) => String(a.id).localeCompare(String(b.id), "en", { numeric: true }),
  descending: (a, b) => String(b.id).localeCompare(String(a.id), "en", { numeric: true }),
};

/** custom: the groups the profile declares, each holding the included controls its insert-controls select. */
function custom(selections: readonly Selection[], structure: Obj, warn: (message: string) => void): Structured {
  const pool = flat(selections);
  const sourceGroups = new Map<string, Obj>();
  for (const { catalog } of selections) for (const group of allGroups(catalog.groups)) if (typeof group.id === "string" && !sourceGroups.has(group.id)) sourceGroups.set(group.id, group);
  const taken = new Set<unknown>();
  const inserted = (node: Obj): Obj[] =>
    objects(node["insert-controls"]).flatMap((insert) => {
      let chosen: Obj[];
      if (insert["include-all"] !== undefined) chosen = pool.controls;
      else {
        const wanted = objects(insert["include-controls"]);
        const ids = new Set(wanted.flatMap((selector) => strings(selector["with-ids"])));
        const patterns = wanted.flatMap((selector) => objects(selector.matching).flatMap((match) => (typeof match.pattern === "string" ? [globPattern(match.pattern)] : [])));
        chosen = pool.controls.filter((control) => typeof control.id === "string" && (ids.has(control.id) || patterns.some((pattern) => pattern.test(control.id as string))));
      }
      if (chosen.length === 0) warn("an insert-controls of the custom structure selects none of the included controls");
      const order = ORDERINGS[text(insert.order) ?? "keep"];
      return (order === undefined ? chosen : [...chosen].sort(order)).map((control) => (taken.has(control) ? { ...control } : (taken.add(control), control)));
    });
  const groupOf = (group: Obj): Obj => {
    const { "insert-controls": _insert, groups, ...declared } = group;
    // A custom group with the id of an imported group brings that group's contents (req-custom-group-contents).
    const source = typeof group.id === "string" ? sourceGroups.get(group.id) : undefined;
    const { groups: _g, controls: _c, ...sourceContent } = source ?? {};
    const copy = { ...deepCopy(sourceContent), ...deepCopy(declared) };
    if (source !== undefined) for (const param of objects(source.params)) pool.params = pool.params.filter((loose) => loose.id !== param.id);
    setList(copy, "groups", objects(groups).map(groupOf));
    setList(copy, "controls", inserted(group));
    return ordered(copy, GROUP_ORDER);
  };
  return { params: pool.params, controls: inserted(structure), groups: objects(structure.groups).map(groupOf) };
}

function structure(merge: Obj, selections: readonly Selection[], context: Context): Structured {
  const given = STRUCTURES.filter((name) => merge[name] !== undefined);
  if (given.length > 1) fail(context, `merge gives more than one structuring directive (${given.join(", ")}) (req-stucture)`);
  switch (given[0]) {
    case "as-is":
      return asIs(selections);
    case "custom":
      return custom(selections, isObject(merge.custom) ? merge.custom : {}, context.settings.warn);
    default:
      return flat(selections);
  }
}

/** Adds the controls and the controls inside them, each before its own. */
function addControls(controls: readonly Obj[], found: Obj[]): void {
  for (const control of controls) {
    found.push(control);
    addControls(objects(control.controls), found);
  }
}

function structuredControls(structured: Structured): Obj[] {
  const found: Obj[] = [];
  addControls(structured.controls, found);
  for (const group of allGroups(structured.groups)) addControls(objects(group.controls), found);
  return found;
}

function modify(profile: Obj, structured: Structured, settings: ResolveSettings): void {
  const modifyDirective = isObject(profile.modify) ? profile.modify : {};
  // Loose and group params are copies already (holder undefined); a control's are shared until set.
  const params = new Map<string, Location[]>();
  const addParams = (list: unknown, holder: Location | undefined) => {
    for (const param of objects(list)) if (typeof param.id === "string") addTo(params, param.id, { object: param, holder, key: "params" });
  };
  addParams(structured.params, undefined);
  for (const group of allGroups(structured.groups)) addParams(group.params, undefined);
  const copies = new Copies();
  const controls = new Map<string, Obj[]>();
  for (const control of structuredControls(structured)) {
    copies.add(control);
    addParams(control.params, { object: control, holder: undefined, key: "controls" });
    if (typeof control.id === "string") addTo(controls, control.id, control);
  }
  // Every set-parameter applies, in the order given (req-modify-param-multi).
  for (const directive of objects(modifyDirective["set-parameters"])) {
    const targets = params.get(text(directive["param-id"]) ?? "");
    if (targets === undefined) settings.warn(`set-parameter "${text(directive["param-id"])}": no such parameter in the resolved catalog`);
    for (const param of targets ?? []) setParameter(copies.writable(param), directive);
  }
  for (const alter of objects(modifyDirective.alters)) {
    const targets = controls.get(text(alter["control-id"]) ?? "");
    if (targets === undefined) settings.warn(`alter "${text(alter["control-id"])}": no such control in the resolved catalog`);
    for (const control of targets ?? []) alterControl(control, alter, copies, settings.warn);
  }
}

/** Resolves a profile object (`document.profile`) into a catalog object (the value of a catalog document's `catalog`). */
function resolveProfileObject(profile: Obj, context: Context): Obj {
  const imports = objects(profile.imports);
  if (imports.length === 0) fail(context, "the profile imports nothing");
  const sources = imports.map((directive) => importedCatalog(directive, profile, context));
  const selections = imports.map((directive, index) => select(directive, sources[index]!, context));
  const merge = isObject(profile.merge) ? profile.merge : {};
  combine(merge, selections, context);
  const structured = structure(merge, selections, context);
  modify(profile, structured, context.settings);
  return finish(profile, structured, sources, context);
}

/** Resolves a profile document (`{ "profile": ... }`) into a catalog document; throws ResolutionError when it cannot. */
export function resolveDocument(document: unknown, settings: ResolveSettings): { catalog: Obj } {
  const context: Context = { uri: settings.uri, chain: [settings.sourceProfile], active: [settings.uri], settings };
  if (!isObject(document) || !isObject(document.profile)) fail(context, "the document is not an OSCAL profile", "not-profile-or-catalog");
  return { catalog: resolveProfileObject(document.profile, context) };
}

// ---- Final operations: back-matter, pruning, metadata (spec "Final Operations") ----

const INSERT_PARAM = /\{\{\s*insert:\s*param,\s*([^\s}]+)\s*\}\}/g;
/** Whether a character may be part of a `#id` fragment: `[A-Za-z0-9_.:-]`. */
function inFragment(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 58) || code === 95 || code === 46 || code === 45;
}

/** Adds the id of each `#id` in the string, as `/#([A-Za-z0-9_.:-]+)/g` finds them, without a match array for each. */
function addFragments(value: string, found: Set<string>): void {
  for (let hash = value.indexOf("#"); hash !== -1; hash = value.indexOf("#", hash + 1)) {
    let end = hash + 1;
    while (end < value.length && inFragment(value.charCodeAt(end))) end++;
    if (end > hash + 1) found.add(value.slice(hash + 1, end));
  }
}

/** Adds the first group of each match of a global pattern; exec rather than matchAll, which makes an iterator per string. */
function addMatches(pattern: RegExp, value: string, found: Set<string>): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(value); match !== null; match = pattern.exec(value)) found.add(match[1]!);
}

/** The ids a value refers to: `#id` fragments and `{{ insert: param, id }}` in any string inside it. */
function referencesIn(value: unknown, found: Set<string>): void {
  if (typeof value === "string") {
    if (value.includes("#")) addFragments(value, found);
    if (value.includes("{{")) addMatches(INSERT_PARAM, value, found);
  } else if (Array.isArray(value)) for (const item of value) referencesIn(item, found);
  else if (isObject(value)) for (const key in value) referencesIn(value[key], found);
}

/**
 * Keeps the candidates that are kept always, named by `modifyIds` or referred to by the rest of the result or by a
 * candidate kept (req-prune-keep, -modify, -ref).
 */
function pruned(candidates: readonly Obj[], idOf: (candidate: Obj) => unknown, references: Set<string>): Obj[] {
  const kept = new Set<Obj>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const candidate of candidates) {
      if (kept.has(candidate)) continue;
      const id = idOf(candidate);
      if (keptAlways(candidate) || (typeof id === "string" && references.has(id))) {
        kept.add(candidate);
        referencesIn(candidate, references);
        grew = true;
      }
    }
  }
  return candidates.filter((candidate) => kept.has(candidate));
}

/** Resources of the imported catalogs, then the profile's; a later one with a uuid already seen replaces it unless only the earlier is kept always. */
function backMatterResources(sources: readonly Obj[], profile: Obj): Obj[] {
  const byUuid = new Map<unknown, Obj>();
  for (const document of [...sources, profile]) {
    const backMatter = isObject(document["back-matter"]) ? document["back-matter"] : {};
    for (const resource of objects(backMatter.resources)) {
      const earlier = byUuid.get(resource.uuid);
      if (earlier !== undefined && keptAlways(earlier) && !keptAlways(resource)) continue;
      byUuid.delete(resource.uuid);
      byUuid.set(resource.uuid, resource);
    }
  }
  return [...byUuid.values()];
}

/** The ids the modify section names: what it sets or alters is never pruned (req-prune-modify). */
function modifyIds(profile: Obj): Set<string> {
  const modifyDirective = isObject(profile.modify) ? profile.modify : {};
  const ids = new Set<string>();
  for (const directive of objects(modifyDirective["set-parameters"])) if (typeof directive["param-id"] === "string") ids.add(directive["param-id"]);
  for (const alter of objects(modifyDirective.alters)) if (typeof alter["control-id"] === "string") ids.add(alter["control-id"]);
  return ids;
}

function finish(profile: Obj, structured: Structured, sources: readonly Obj[], context: Context): Obj {
  const catalog: Obj = { uuid: randomUUID(), metadata: metadata(profile, sources, context) };
  const references = modifyIds(profile);
  referencesIn(catalog.metadata, references);
  referencesIn(structured.controls, references);
  referencesIn(structured.groups, references);
  const params = pruned(structured.params, (param) => param.id, references);
  // Copied once pruned: most resources of a baseline's catalog are dropped.
  const resources = pruned(backMatterResources(sources, profile), (resource) => resource.uuid, references).map(deepCopy);
  setList(catalog, "params", params);
  setList(catalog, "controls", structured.controls);
  setList(catalog, "groups", structured.groups);
  if (resources.length > 0) catalog["back-matter"] = { resources };
  return catalog;
}

function versionParts(version: unknown): number[] | undefined {
  const match = typeof version === "string" ? /^(\d+)\.(\d+)\.(\d+)/.exec(version) : null;
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  return a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
}

/** The most recent oscal-version of the inputs, at most the tool's own (req-meta-oscal-version). */
function oscalVersion(documents: readonly Obj[], context: Context): string {
  const tool = versionParts(OSCAL_RELEASE)!;
  let newest: number[] | undefined;
  for (const document of documents) {
    const version = versionParts(isObject(document.metadata) ? document.metadata["oscal-version"] : undefined);
    if (version === undefined) continue;
    if (version[0] !== tool[0]) fail(context, `an imported document declares OSCAL ${version.join(".")}, of another major version than ${OSCAL_RELEASE} (req-meta-oscalversion-error)`);
    if (newest === undefined || compareVersions(version, newest) > 0) newest = version;
  }
  return newest === undefined || compareVersions(newest, tool) > 0 ? OSCAL_RELEASE : newest.join(".");
}

const METADATA_ORDER = ["title", "published", "last-modified", "version", "oscal-version", "revisions", "document-ids", "props", "links", "roles", "locations", "parties", "responsible-parties", "actions", "remarks"] as const;

function metadata(profile: Obj, sources: readonly Obj[], context: Context): Obj {
  const { settings } = context;
  const result = deepCopy(isObject(profile.metadata) ? profile.metadata : {});
  result["last-modified"] = settings.now.toISOString();
  result["oscal-version"] = oscalVersion([profile, ...sources], context);
  result.props = [
    ...objects(result.props).filter((prop) => prop.name !== "resolution-tool" && prop.name !== "source-profile"),
    { name: "resolution-tool", value: "oscal-validate" },
    { name: "source-profile", value: settings.sourceProfile },
  ];
  result.links = [...objects(result.links).filter((link) => link.rel !== "source-profile"), { href: settings.sourceProfile, rel: "source-profile" }];
  // Roles and parties an imported catalog keeps always are copied as they are (req-meta-keep).
  for (const [key, idKey] of [["roles", "id"], ["parties", "uuid"]] as const) {
    const present = new Set(objects(result[key]).map((item) => item[idKey]));
    for (const source of sources) {
      for (const item of objects(isObject(source.metadata) ? source.metadata[key] : undefined)) {
        if (!keptAlways(item) || present.has(item[idKey])) continue;
        present.add(item[idKey]);
        result[key] = [...objects(result[key]), deepCopy(item)];
      }
    }
  }
  return ordered(result, METADATA_ORDER);
}
