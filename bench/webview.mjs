// Benchmark of the settings page with 500 hooks in real Chromium against a real `wavehost web`:
// time to first render (the list answered → 500 rows in the DOM), to filter (typing → rows
// shown), and delete (confirm click → row gone, server round trip and re-list included).
// Prints the median of 5 runs each.
//
//   node bench/webview.mjs          (after scripts/setup; needs Debian's chromium)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(repo, "webview/package.json"));
const { chromium } = require("playwright-core");
const RUNS = 5;
const HOOKS = 500;

function workspace() {
  const root = mkdtempSync(join(tmpdir(), "wavehost-bench-"));
  const home = join(root, "home");
  const project = join(root, "app");
  const events = ["PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit", "SessionStart"];
  const hooks = {};
  for (let i = 0; i < HOOKS; i++) {
    const event = events[i % events.length];
    (hooks[event] ??= []).push({ matcher: "Bash|Write", hooks: [{ type: "command", command: `./check-${i}.sh --flag` }] });
  }
  mkdirSync(join(project, ".wave"), { recursive: true });
  mkdirSync(join(home, ".wave"), { recursive: true });
  writeFileSync(join(project, ".wave/settings.json"), JSON.stringify({ hooks }, null, 2));
  return { root, home, project };
}

async function startWeb(ws) {
  const child = spawn(join(repo, ".venv/bin/wavehost"), ["web", "--project", ws.project, "--port", "0", "--locale", "en"], {
    env: { ...process.env, HOME: ws.home, WAVEHOST_WEBVIEW_DIST: join(repo, "webview/dist") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const url = await new Promise((ok, fail) => {
    child.stdout.on("data", (d) => {
      out += d;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(out);
      if (m) ok(m[1]);
    });
    child.on("exit", (code) => fail(new Error(`wavehost web exited ${code}: ${out}`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

const rowsAre = (want) =>
  document.querySelector("wave-app")?.shadowRoot?.querySelector("wave-hooks-page")?.shadowRoot?.querySelectorAll("li.hook").length === want;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const ws = workspace();
const web = await startWeb(ws);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
const render = [], filter = [], del = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(web.url);
    // First render: from the list's answer arriving to 500 rows in the DOM.
    const listed = page.waitForEvent("websocket").catch(() => null);
    await page.waitForFunction(() => document.querySelector("wave-app")?.shadowRoot?.querySelector("wave-hooks-page"));
    await listed;
    const page2 = page;
    const t = await page2.evaluate(`(async () => {
      const host = document.querySelector("wave-app").shadowRoot.querySelector("wave-hooks-page");
      const t0 = performance.now();
      await host.reload();
      await host.updateComplete;
      return performance.now() - t0;
    })()`);
    render.push(t);
    await page.waitForFunction(rowsAre, HOOKS - run);
    const f = await page.evaluate(`(async () => {
      const host = document.querySelector("wave-app").shadowRoot.querySelector("wave-hooks-page");
      const input = host.shadowRoot.querySelector("input[type=search]");
      const t0 = performance.now();
      input.value = "check-42";
      input.dispatchEvent(new Event("input"));
      await host.updateComplete;
      const shown = host.shadowRoot.querySelectorAll("li.hook").length;
      const t = performance.now() - t0;
      input.value = "";
      input.dispatchEvent(new Event("input"));
      await host.updateComplete;
      return [t, shown];
    })()`);
    filter.push(f[0]);
    const before = HOOKS - run;
    await page.locator("li.hook [data-action=delete]").first().click();
    await page.locator("[data-action=confirm]").waitFor();
    const t0 = Date.now();
    await page.locator("[data-action=confirm]").click();
    await page.waitForFunction(rowsAre, before - 1, { polling: 16 });
    del.push(Date.now() - t0);
    await page.close();
  }
} finally {
  await browser.close();
  web.stop();
  rmSync(ws.root, { recursive: true, force: true });
}
console.log(`settings page, ${HOOKS} hooks, Chromium, median of ${RUNS}:`);
console.log(`  list + first render of every row: ${median(render).toFixed(1)} ms   (runs: ${render.map((x) => x.toFixed(0)).join(", ")})`);
console.log(`  filter (type → rows shown):        ${median(filter).toFixed(1)} ms   (runs: ${filter.map((x) => x.toFixed(0)).join(", ")})`);
console.log(`  delete (confirm → row gone):       ${median(del).toFixed(1)} ms   (runs: ${del.join(", ")})`);
