import { defineConfig } from "vitest/config";

// End-to-end: real headless Chromium (Debian's) against a real `wavehost web` with real files.
// One file at a time: the machine has two cores, and each test starts its own server.
export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // A page waiting for a real server: on a loaded 2-core machine the default 1 s is too short
    // (a chat session took longer to open). A poll still ends as soon as its condition holds.
    expect: { poll: { timeout: 15_000 } },
  },
});
