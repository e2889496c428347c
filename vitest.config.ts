import { defineConfig } from "vitest/config";

/**
 * Long runs that add nothing to `make test` (what they prove is proved there already): `make test-long` runs them.
 * generated-patterns.test.ts proves every generated regular expression linear-time again, as the build has.
 */
const LONG_TESTS = ["test/compiler/generated-patterns.test.ts"];

export default defineConfig({
  test: {
    // No test bounds elapsed time, so a limit here only ends a test that hangs: minutes, so that a busy machine makes
    // tests slow, never failed.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: "forks",
    // Two files at a time: most of them wait on services, child processes and sockets rather than compute, so two
    // overlap well on two cores (vitest's default, one fewer than the cores, would run one at a time here).
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "main", include: ["test/**/*.test.ts"], exclude: LONG_TESTS } },
      { extends: true, test: { name: "long", include: LONG_TESTS } },
    ],
  },
});
