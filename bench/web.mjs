// What the browser benchmarks share: a real `wavehost web` on a workspace, its URL read from what
// it prints.
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** `wavehost web` on `ws` ({home, project}), serving the webview build `dist`, with `env` added. */
export async function startWeb(ws, { dist = join(repo, "webview/dist"), env = {} } = {}) {
  const child = spawn(join(repo, ".venv/bin/wavehost"), ["web", "--project", ws.project, "--port", "0", "--locale", "en"], {
    env: { ...process.env, HOME: ws.home, WAVEHOST_WEBVIEW_DIST: dist, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const url = await new Promise((ok, fail) => {
    child.stdout.on("data", (d) => {
      out += d;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(out);
      if (m) ok(m[1]);
    });
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => fail(new Error(`wavehost web exited ${code}: ${out}`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}
