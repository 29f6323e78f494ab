import { defineConfig } from "vitest/config";

// One page, two views (settings, chat). Fixed output names (no hashes) so every shell can write
// its own HTML shell around `assets/webview.js` + `assets/webview.css` under its own CSP.
export default defineConfig({
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0, // never data: URLs for fonts or images
    rollupOptions: {
      output: {
        entryFileNames: "assets/webview.js",
        chunkFileNames: "assets/[name].js",
        assetFileNames: "assets/webview[extname]",
      },
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
  },
});
