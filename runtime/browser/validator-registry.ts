// The browser's stand-in for #generated/models.js (the bundle build aliases that import here). The generated validator
// files are fetched one model at a time, as separate chunks, and the core then finds them loaded; validatorsFor and
// semanticChecks keep the synchronous shape the core calls.
import type { ModelValidators } from "#generated/models.js";
import type { SemanticChecks } from "#generated/semantic.cjs";
import type { Model } from "../core/report.js";

/** What a model chunk exports: built by the bundle step from generated/validators/<model>.cjs and .collect.cjs. */
interface ModelChunk {
  validate: ModelValidators["validate"];
  collecting: ReturnType<ModelValidators["collecting"]>;
}

// Literal specifiers, one per model, so the bundler makes one chunk of each ("oscal-model:" is resolved by the build).
const MODEL_CHUNKS: Record<Model, () => Promise<ModelChunk>> = {
  catalog: () => import("oscal-model:catalog"),
  profile: () => import("oscal-model:profile"),
  "component-definition": () => import("oscal-model:component-definition"),
  "system-security-plan": () => import("oscal-model:system-security-plan"),
  "assessment-plan": () => import("oscal-model:assessment-plan"),
  "assessment-results": () => import("oscal-model:assessment-results"),
  "plan-of-action-and-milestones": () => import("oscal-model:plan-of-action-and-milestones"),
  "mapping-collection": () => import("oscal-model:mapping-collection"),
};

/** Thrown by the synchronous accessors when a chunk has not been fetched yet: load it, then run again. */
export class ChunkNotLoaded extends Error {
  constructor(readonly chunk: Model | "semantic") {
    super(`the ${chunk} validators are not loaded`);
  }
}

const loadedModels = new Map<Model, ModelValidators>();
let loadedSemantic: SemanticChecks | undefined;

export async function loadModel(model: Model): Promise<void> {
  if (loadedModels.has(model)) return;
  const chunk = await MODEL_CHUNKS[model]();
  loadedModels.set(model, { validate: chunk.validate, collecting: () => chunk.collecting });
}

export async function loadSemantic(): Promise<void> {
  // A CommonJS module: its exports object is the namespace's default.
  loadedSemantic ??= (await import("#generated/semantic.cjs")).default;
}

export function validatorsFor(model: Model): ModelValidators {
  const validators = loadedModels.get(model);
  if (validators === undefined) throw new ChunkNotLoaded(model);
  return validators;
}

export function semanticChecks(): SemanticChecks {
  if (loadedSemantic === undefined) throw new ChunkNotLoaded("semantic");
  return loadedSemantic;
}
