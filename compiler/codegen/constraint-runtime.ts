// What the code of both constraint emitters meets at run time, so that NIST's generated module and every pack's agree.

/**
 * The one module NIST's generated module and every pack's require by name, for their helpers, primitives and engine:
 * package.json's imports map it to the compiled run time (runtime/constraints/runtime.ts, bundled as CommonJS by
 * scripts/build-cli.mjs), the browser bundle to the source.
 */
export const CONSTRAINT_RUNTIME_MODULE = "#runtime/constraints/runtime.cjs";
