import { defineConfig } from "vitest/config";

export default defineConfig({
  // runtime/semantic/helpers.cts is CommonJS TypeScript (the generated semantic module requires it): transform .cts too.
  oxc: { include: /\.(m?ts|cts|[jt]sx)$/ },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
