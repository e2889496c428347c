// Shared by the resolution tests: NIST's example cases and how a result is compared with their expected catalogs.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../../compiler/paths.js";
import { corpusDir } from "../helpers/corpus.js";
import { fileLoader, resolveProfile, type CatalogDocument, type ResolutionFailure, type ResolveResult } from "../../runtime/index.js";

export const EXAMPLES = path.join(repoRoot, "../shared/profile-resolution/examples");
export const CORPUS = corpusDir();
export { fedrampDir as FEDRAMP } from "../packs/fedramp-harness.js";
export const SP800_53_REV5 = path.join(CORPUS, "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");

export interface ResolutionCase {
  name: string;
  profile: string;
  expected?: string;
  expectError?: boolean;
  documents?: string;
  map?: Record<string, string>;
}

export const CASES: ResolutionCase[] = JSON.parse(readFileSync(path.join(EXAMPLES, "cases.json"), "utf8")).cases;

export function readJson(file: string): any {
  return JSON.parse(readFileSync(file, "utf8"));
}

const IGNORED_METADATA = ["last-modified", "published", "version", "oscal-version"];
const TOOL_PROPS = new Set(["resolution-tool", "source-profile"]);
const TOOL_LINKS = new Set(["source-profile", "resolution-source"]);

function collapseWhitespace(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/\s+/g, " ");
  if (Array.isArray(value)) return value.map(collapseWhitespace);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, collapseWhitespace(item)]));
  return value;
}

/** A resolved catalog as cases.json compares it: what a resolver generates (uuid, timestamps, its own props and links) left out. */
export function comparable(document: any): unknown {
  const { uuid: _uuid, metadata, ...catalog } = document.catalog;
  const kept = Object.fromEntries(Object.entries(metadata).filter(([key]) => !IGNORED_METADATA.includes(key)));
  const props = (kept.props as any[] | undefined)?.filter((prop) => !TOOL_PROPS.has(prop.name));
  const links = (kept.links as any[] | undefined)?.filter((link) => !TOOL_LINKS.has(link.rel));
  delete kept.props;
  delete kept.links;
  if (props?.length) kept.props = props;
  if (links?.length) kept.links = links;
  return collapseWhitespace({ ...catalog, metadata: kept });
}

/** The scored case resolved through the library from its files, as the CLI would (allowed directory: the examples). */
export function resolveCase(resolutionCase: ResolutionCase): ResolveResult {
  const file = path.join(EXAMPLES, resolutionCase.profile);
  const loader = fileLoader({ allowedDir: resolutionCase.documents === undefined ? EXAMPLES : path.join(EXAMPLES, resolutionCase.documents), files: resolutionCase.map });
  return resolveProfile(readJson(file), { loader, uri: pathToFileURL(file).href, sourceProfile: resolutionCase.profile });
}

export function catalogOf(result: ResolveResult): CatalogDocument {
  if (result.kind !== "catalog") throw new Error(`expected a catalog, got ${result.error.detail}`);
  return result.document;
}

export function errorOf(result: ResolveResult): ResolutionFailure {
  if (result.kind !== "error") throw new Error("expected a resolution error, got a catalog");
  return result.error;
}

/** Every control of a catalog document in document order, nested ones after their parent. */
export function controlIds(document: any): string[] {
  const ids: string[] = [];
  const controls = (list: any[] = []) => {
    for (const control of list) {
      ids.push(control.id);
      controls(control.controls);
    }
  };
  const groups = (list: any[] = []) => {
    for (const group of list) {
      controls(group.controls);
      groups(group.groups);
    }
  };
  controls(document.catalog.controls);
  groups(document.catalog.groups);
  return ids;
}
