// Builds the extension into dist/: the bundled extension code (esbuild; vscode-languageclient
// inside), the shared webview (webview/dist, built by scripts/setup-web) and the settings schema
// shipped in the Python package. The server bundle (server/) comes from scripts/bundle-server.
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

const here = join(dirname(fileURLToPath(import.meta.url)), "..");
const repo = join(here, "..");
const webview = join(repo, "webview", "dist");
if (!existsSync(join(webview, "assets", "webview.js"))) {
  console.error("webview/dist is missing: run bash scripts/setup-web first");
  process.exit(1);
}

rmSync(join(here, "dist"), { recursive: true, force: true });
await build({
  entryPoints: [join(here, "src", "extension.ts")],
  outfile: join(here, "dist", "extension.js"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode"],
  sourcemap: true,
  minify: true,
  logLevel: "warning",
});
cpSync(webview, join(here, "dist", "webview"), { recursive: true });
mkdirSync(join(here, "schemas"), { recursive: true });
cpSync(
  join(repo, "server", "wavehost", "hooks", "settings.schema.json"),
  join(here, "schemas", "settings.schema.json"),
);
console.log("built extension-vscode/dist");
