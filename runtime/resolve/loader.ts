// Where imported documents come from. The resolver never fetches anything: a loader answers for each href, and says
// why when it will not (a file outside the allowed directory, an href nobody mapped, ...).
import { documentFor, type DocumentSource } from "../packs/engine.js";

/** A document a loader found. */
export interface LoadedDocument {
  /** Names the document: imports are circular when the same uri comes back, and its relative hrefs resolve against it. */
  uri: string;
  /** The parsed document (JSON data). */
  document: unknown;
}

/** Why a loader has no document for an href: shown to the user after the href and the chain of imports. */
export interface Unavailable {
  unavailable: string;
}

export interface DocumentLoader {
  /** The document `href` names, as written in the document whose uri is `base`. */
  load(href: string, base: string): LoadedDocument | Unavailable;
}

/**
 * A loader over documents the caller already holds, keyed by href exactly as the documents write it (what the
 * library's `documents` option takes, as `validate` does): no href is resolved against another.
 */
export function mapLoader(documents: DocumentSource): DocumentLoader {
  return {
    load(href) {
      const document = documentFor(documents, href);
      return document === undefined ? { unavailable: "no document is supplied for it" } : { uri: href, document };
    },
  };
}
