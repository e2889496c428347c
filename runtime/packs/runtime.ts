// The one module a pack's generated module requires by name (#runtime/packs/runtime.cjs: this module, bundled by
// scripts/build-cli.mjs): the primitives its code calls and the engine that runs it. The core reaches the engine through
// the pack's module (PackModule.runtime), so that the nodes, scopes and NotEvaluated it makes are of the classes the
// generated code tests with instanceof, even where the core runs from another copy (the tests run it from source; the
// pack module requires the compiled one).
import type { PrimitiveName } from "#generated/packs/index.js";
import * as primitives from "./primitives.js";

export * from "./primitives.js";
export { packProgram, runPack, Run } from "./engine.js";
export { searchesMade, viewsMade } from "./node-view.js";

// Every primitive a pack's generated code calls: the build fails to type-check when one is missing here.
primitives satisfies Record<PrimitiveName, unknown>;
