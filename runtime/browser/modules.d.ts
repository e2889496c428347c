// The per-model modules scripts/build-browser.mjs makes from generated/validators/<model>.cjs and .collect.cjs.
declare module "oscal-model:*" {
  import type { CollectingValidators, FastValidator } from "#generated/models.js";
  export const validate: FastValidator;
  export const collecting: CollectingValidators;
}

// The rule packs' data chunks scripts/build-browser.mjs makes from generated/packs/<name>.cjs, by pack name.
declare module "oscal-packs" {
  const chunks: Readonly<Record<string, (() => Promise<{ default: unknown }>) | undefined>>;
  export default chunks;
}
