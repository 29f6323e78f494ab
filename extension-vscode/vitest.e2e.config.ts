import { defineConfig } from "vitest/config";

// The vsix in a real VS Code (code-server) driven by Playwright: one file at a time, each with its
// own code-server; generous timeouts for 2-core machines.
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.test.ts", "test/host/**/*.host.test.ts"],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 240_000,
  },
});
