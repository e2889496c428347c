// The clock of report durations. In Node.js the `performance` global loads perf_hooks (a dozen modules) on first use,
// which a short CLI run would spend most of a millisecond on; the process's high-resolution clock costs nothing. Browsers
// have only `performance` (and a page may define a `process` of its own).
const hrtime = typeof process === "undefined" || typeof process.hrtime?.bigint !== "function" ? undefined : process.hrtime;

/** Milliseconds since an arbitrary origin, for measuring durations. */
export const now: () => number = hrtime === undefined ? () => performance.now() : () => Number(hrtime.bigint()) / 1e6;
