import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["test/bench/**/*.bench.test.ts"], testTimeout: 900_000, hookTimeout: 300_000 },
});
