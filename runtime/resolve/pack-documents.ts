// What rule packs read through doc(): a profile is handed over as the catalog it resolves to, since the packs'
// resolve-profile() reads catalogs only and the baseline an SSP imports is usually a profile.
import { documentFor, type DocumentSource } from "../packs/engine.js";
import { resolveProfile, type ResolveOptions } from "./index.js";
import { isObject } from "./model.js";

/**
 * The document itself or, for a profile that resolves, its catalog. A profile that does not resolve is handed over as
 * it is: the rules that need its catalog are then reported as not evaluated.
 */
export function asResolvedCatalog(document: unknown, options: ResolveOptions): unknown {
  if (!isObject(document) || !isObject(document.profile)) return document;
  const resolved = resolveProfile(document, options);
  return resolved.kind === "catalog" ? resolved.document : document;
}

/**
 * The library caller's `documents` with each profile resolved against the same documents (hrefs as written), once per
 * href. Made per validation: a caller's map or function may answer differently from one call to the next.
 */
export function documentsResolvingProfiles(documents: DocumentSource): (href: string) => unknown {
  const answers = new Map<string, unknown>();
  return (href) => {
    if (!answers.has(href)) answers.set(href, asResolvedCatalog(documentFor(documents, href), { documents, uri: href, sourceProfile: href }));
    return answers.get(href);
  };
}
