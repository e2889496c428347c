// The one module the generated constraint checks require by name (#runtime/constraints/runtime.cjs: this module,
// bundled as CommonJS by scripts/build-cli.mjs): NIST's generated module (generated/semantic.cjs) takes the helpers of
// its walk over the JSON and makes its run from here, every rule pack's module (generated/packs/<name>.cjs) the
// primitives its code calls over the node view and the engine that runs it. The core reaches the pack engine through
// the pack's module (PackModule.runtime), and NIST's module makes its SemanticRun itself, so that every path node, run,
// node view, scope and NotEvaluated is of the classes the generated code tests with instanceof, from this one copy,
// even where the core runs from another (the tests run it from source; the generated modules require the compiled one).
import type { PrimitiveName } from "#generated/packs/index.js";
import type { HelperName } from "#generated/semantic.cjs";
import * as constraintRuntime from "./runtime.js";

export * from "./values.js";
export * from "../semantic/helpers.js";
export * from "../packs/primitives.js";
export { packProgram, runPack, Run } from "../packs/engine.js";
export { searchesMade, viewsMade } from "../packs/node-view.js";

// Every name the generated modules take from here: the build fails to type-check when one is missing.
constraintRuntime satisfies Record<HelperName | PrimitiveName, unknown>;
