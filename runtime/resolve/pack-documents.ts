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

/** A profile's answer for the packs, with the documents its resolution read (the profile's own href among them). */
interface Resolution {
  read: Map<string, unknown>;
  answer: unknown;
}

/** Per documents source a library caller passed, its profiles' resolutions by href. */
const resolutions = new WeakMap<object, Map<string, Resolution>>();

/**
 * The library caller's `documents` with each profile resolved against the same documents (hrefs as written), once per
 * href. A caller's map or function may answer differently from one call to the next: a resolution is kept for the
 * source's next validations only while the source answers each href it read with the same object (parsed documents
 * are not changed in place, as a parse kept by the CLI or the service is not).
 */
export function documentsResolvingProfiles(documents: DocumentSource): (href: string) => unknown {
  const answers = new Map<string, unknown>();
  return (href) => {
    if (!answers.has(href)) answers.set(href, resolvedAnswer(documents, href));
    return answers.get(href);
  };
}

function resolvedAnswer(documents: DocumentSource, href: string): unknown {
  const document = documentFor(documents, href);
  if (!isObject(document) || !isObject(document.profile)) return document;
  let kept = resolutions.get(documents);
  const known = kept?.get(href);
  if (known !== undefined && [...known.read].every(([read, answer]) => documentFor(documents, read) === answer)) return known.answer;
  const read = new Map<string, unknown>([[href, document]]);
  const recorded = (imported: string) => {
    const answer = documentFor(documents, imported);
    read.set(imported, answer);
    return answer;
  };
  const answer = asResolvedCatalog(document, { documents: recorded, uri: href, sourceProfile: href });
  if (kept === undefined) resolutions.set(documents, (kept = new Map()));
  kept.set(href, { read, answer });
  return answer;
}
