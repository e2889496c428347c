// Profile resolution for the library, the CLI and the service: a parsed profile and a loader in, a catalog or an
// error naming the import at fault out, never an exception for bad input.
import type { CatalogDocument } from "#generated/models.js";
import type { DocumentSource } from "../packs/engine.js";
import { mapLoader, type DocumentLoader } from "./loader.js";
import { resolveDocument, ResolutionError, type ResolutionFault } from "./resolver.js";

export type { DocumentLoader, LoadedDocument, Unavailable } from "./loader.js";
export type { ResolutionFault } from "./resolver.js";
export { fileLoader, type FileLoaderSettings } from "./file-loader.js";

export interface ResolveOptions {
  /**
   * The documents the profile imports, by href exactly as written (`#uuid` imports go through the rlinks of the
   * back-matter resource): a map to parsed documents, or a function returning one (undefined: not available).
   * Nothing is fetched. Ignored when `loader` is given.
   */
  documents?: DocumentSource;
  /** Where documents come from, for hrefs resolved against the importing document (see `fileLoader`). */
  loader?: DocumentLoader;
  /** The profile's own uri, which its relative hrefs resolve against and cycles are told by (default `profile`). */
  uri?: string;
  /** How the result's metadata names the profile (prop and link `source-profile`); the uri by default. */
  sourceProfile?: string;
  /** The resolution time the result's `last-modified` records; the time of the call when absent. */
  now?: Date;
}

export interface ResolutionFailure {
  code: "ERR_RESOLUTION";
  /** Names the chain of imports and what failed; never quotes a document. */
  detail: string;
  /** The profile, then each href followed down to the import at fault. */
  chain: string[];
  /** What kind of fault: a document that is not available, a circular import, an import of neither profile nor catalog, ... */
  fault: ResolutionFault;
}

export type ResolveResult =
  | { kind: "catalog"; document: CatalogDocument; warnings: string[] }
  | { kind: "error"; error: ResolutionFailure };

/**
 * Resolves an OSCAL profile (a parsed document, `{ "profile": ... }`) into the catalog it stands for, following
 * NIST's profile resolution specification: a circular import, a document that is not available, an import that is
 * neither profile nor catalog and a selection of controls the catalog lacks are errors naming the chain of hrefs.
 * The documents read are never changed; the catalog shares with them what it does not change (most of its controls'
 * parts): copy it before changing it in place.
 */
export function resolveProfile(profile: unknown, options: ResolveOptions = {}): ResolveResult {
  const uri = options.uri ?? "profile";
  const warnings: string[] = [];
  try {
    const document = resolveDocument(profile, {
      loader: options.loader ?? mapLoader(options.documents ?? {}),
      uri,
      sourceProfile: options.sourceProfile ?? uri,
      now: options.now ?? new Date(),
      warn: (message) => warnings.push(message),
    });
    // Built to the catalog model; a catalog whose controls repeat an id (combine keep) is still returned, as the spec asks.
    return { kind: "catalog", document: document as unknown as CatalogDocument, warnings };
  } catch (error) {
    if (error instanceof ResolutionError) return { kind: "error", error: { code: "ERR_RESOLUTION", detail: error.message, chain: [...error.chain], fault: error.fault } };
    throw error;
  }
}
