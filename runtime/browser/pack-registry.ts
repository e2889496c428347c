// The browser's stand-in for #generated/packs/index.js (the bundle build aliases that import here): the validation page
// does not offer rule packs yet, and the bundle's manifest leaves their rules out, so none can be selected.
export const PACK_NAMES: readonly string[] = [];

export function packData(name: string): unknown {
  throw new Error(`the rule pack ${name} is not available in the browser`);
}
