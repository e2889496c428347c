// The browser's stand-in for #generated/packs/index.js (the bundle build aliases that import here). Each rule pack's
// module is a chunk of its own, fetched only when a validation names the pack; packModule keeps the synchronous shape
// the core calls.
import PACK_CHUNKS from "oscal-packs";

export const PACK_NAMES: readonly string[] = Object.freeze(Object.keys(PACK_CHUNKS));

const loaded = new Map<string, unknown>();

export async function loadPack(name: string): Promise<void> {
  const chunk = PACK_CHUNKS[name];
  // A CommonJS module: its exports object is the namespace's default.
  if (chunk !== undefined && !loaded.has(name)) loaded.set(name, (await chunk()).default);
}

export function packModule(name: string): unknown {
  const pack = loaded.get(name);
  if (pack === undefined) throw new Error(`the rule pack ${name} is not loaded`);
  return pack;
}
