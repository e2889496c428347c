// One profile resolution as the service answers it: the resolved catalog serialized, or why there is none. The body
// rules are validate's (UTF-8, JSON); imports come from the document library only.
import { parseBody } from "../core/body.js";
import { resolveProfile } from "../resolve/index.js";
import { NO_LIBRARY, type DocumentLibrary } from "../resolve/library.js";
import { isObject } from "../resolve/model.js";
import { describeError } from "./log.js";
import type { ResolutionAnswer } from "./validation-protocol.js";

/** The profile's name in the result's metadata and in error chains: its uuid, as the body has no location. */
function profileName(document: unknown): string {
  const uuid = isObject(document) && isObject(document.profile) ? document.profile.uuid : undefined;
  return typeof uuid === "string" ? `urn:uuid:${uuid}` : "profile";
}

export function resolutionAnswer(bytes: Uint8Array, library: DocumentLibrary | undefined): ResolutionAnswer {
  try {
    const parsed = parseBody(bytes);
    if (!parsed.ok) return { kind: "body-error", error: parsed.error };
    const result = resolveProfile(parsed.document, {
      loader: library ?? NO_LIBRARY,
      // Relative hrefs of the submitted profile name files of the library.
      uri: library?.rootUri ?? "profile",
      sourceProfile: profileName(parsed.document),
    });
    return result.kind === "catalog" ? { kind: "catalog", json: JSON.stringify(result.document) } : { kind: "unresolvable", failure: result.error };
  } catch (error) {
    const { error: errorName, stack } = describeError(error);
    return { kind: "internal", errorName, stack };
  }
}
