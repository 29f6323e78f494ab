// Benchmark of the settings page with 300, 3,000 and 5,000 hooks in real Chromium against a real
// `wavehost web`: time to render (the list's answer → first screen of rows painted), to reach the
// end (scrolled to the bottom → the last row painted: a long list keeps only the rows near the
// view in the DOM), to filter (typing → the matching rows shown) and delete (confirm click → row
// gone, server round trip included). The list request alone, timed in the same page, is the
// baseline the render is a ratio of (the machine is shared and noisy). Prints the median of 5
// runs each, the rows in the DOM, and the machine's load.
//
//   node bench/webview.mjs                 (after scripts/setup; needs Debian's chromium)
//   node bench/webview.mjs --hooks 500     (other sizes, comma-separated: --hooks 300,3000)
//   node bench/webview.mjs --against DIR   (also another build of the webview, e.g. main's
//                                           `vite build --outDir DIR`: runs alternate, same machine moment)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { repo, startWeb } from "./web.mjs";

const require = createRequire(join(repo, "webview/package.json"));
const { chromium } = require("playwright-core");
const RUNS = 5;
const sizes = process.argv.indexOf("--hooks");
const SIZES = (sizes > 0 ? process.argv[sizes + 1] : "300,3000,5000").split(",").map(Number);

function workspace(HOOKS) {
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

/** How many of the workspace's `hooks` hooks have `text` in their command (the rows the runs
 * delete, check-0, -5, -10…, never have "check-42"). */
const matching = (hooks, text) => Array.from({ length: hooks }, (_, i) => `./check-${i}.sh --flag`).filter((c) => c.includes(text)).length;

/** The page lists `want` hooks (its tab's count) and shows rows. */
const listed = (want) => {
  const page = document.querySelector("wave-app")?.shadowRoot?.querySelector("wave-hooks-page")?.shadowRoot;
  return page?.querySelector("[data-testid=count-project]")?.textContent.trim() === String(want) && page.querySelector("li.hook") !== null;
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const against = process.argv.indexOf("--against");
const builds = [{ name: "this build", dist: join(repo, "webview/dist") }];
if (against > 0) builds.push({ name: `against ${process.argv[against + 1]}`, dist: resolve(process.argv[against + 1]) });

/** One run on a fresh page: list baseline, render, filter, delete (the workspace loses a hook). */
async function measure(browser, web, hooks, all) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(web.url);
  await page.waitForFunction(listed, hooks, { timeout: 120_000 });
  const [baseline, render, end, inDom] = await page.evaluate(`(async () => {
    const host = document.querySelector("wave-app").shadowRoot.querySelector("wave-hooks-page");
    const frame = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
    // Baseline, same page and moment: the list request alone (server, socket, JSON), no render.
    let t0 = performance.now();
    await host.actions.list();
    const baseline = performance.now() - t0;
    // Render from nothing: the list is dropped, fetched again and shown; timed from its answer.
    host.list = null;
    await host.updateComplete;
    const list = host.actions.list.bind(host.actions);
    let answered = 0;
    host.actions.list = async () => {
      const result = await list();
      answered = performance.now();
      return result;
    };
    t0 = performance.now();
    await host.reload();
    await host.updateComplete;
    await frame(); // painted
    const first = performance.now() - answered;
    host.actions.list = list;
    const inDom = host.shadowRoot.querySelectorAll("li.hook").length;
    // The end of the list: scrolled to the bottom, its last row painted.
    const view = host.closest(".view") ?? host.getRootNode().host.shadowRoot.querySelector(".view");
    const last = () => {
      // (a build that puts every row in the DOM: all of them there)
      if (!host.shadowRoot.querySelector("li.hook[aria-setsize]")) return host.shadowRoot.querySelectorAll("li.hook").length === ${hooks};
      const rows = [...host.shadowRoot.querySelectorAll("ul.hooks")].at(-1)?.querySelectorAll("li.hook");
      const row = rows?.[rows.length - 1];
      return row && row.getAttribute("aria-posinset") === row.getAttribute("aria-setsize") && row.getBoundingClientRect().bottom <= innerHeight;
    };
    t0 = performance.now();
    view.scrollTop = view.scrollHeight;
    while (!last()) {
      await frame();
      view.scrollTop = view.scrollHeight; // (the rows measured on the way move the end)
    }
    await frame(); // painted
    const end = performance.now() - t0;
    view.scrollTop = 0;
    await frame();
    return [baseline, first, end, inDom];
  })()`);
  const filter = await page.evaluate(`(async () => {
    const host = document.querySelector("wave-app").shadowRoot.querySelector("wave-hooks-page");
    const input = host.shadowRoot.querySelector("input[type=search]");
    const t0 = performance.now();
    input.value = "check-42";
    input.dispatchEvent(new Event("input"));
    await host.updateComplete;
    host.shadowRoot.querySelector("li.hook").getBoundingClientRect(); // laid out
    const t = performance.now() - t0;
    // The rows shown all match, and the page counts every matching hook.
    const shown = [...host.shadowRoot.querySelectorAll("li.hook code.command")].map((c) => c.textContent);
    const count = host.shadowRoot.querySelector("[data-testid=filter-count]").textContent.match(/\\d+/)[0];
    if (!shown.length || shown.some((c) => !c.includes("check-42")) || Number(count) !== ${matching(all, "check-42")}) throw new Error("the filter showed other rows");
    input.value = "";
    input.dispatchEvent(new Event("input"));
    await host.updateComplete;
    return t;
  })()`);
  await page.waitForFunction(listed, hooks);
  await page.locator("li.hook [data-action=delete]").first().click();
  await page.locator("[data-action=confirm]").waitFor();
  const t0 = Date.now();
  await page.locator("[data-action=confirm]").click();
  await page.waitForFunction(listed, hooks - 1, { polling: 16 });
  const del = Date.now() - t0;
  await page.close();
  return { baseline, render, end, inDom, filter, del };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
try {
  for (const HOOKS of SIZES) await bench(HOOKS);
} finally {
  await browser.close();
}

async function bench(HOOKS) {
  const sides = [];
  try {
    for (const build of builds) {
      const ws = workspace(HOOKS);
      sides.push({ ...build, ws, web: await startWeb(ws, { dist: build.dist }), runs: [] });
    }
    for (let run = 0; run < RUNS; run++) for (const side of sides) side.runs.push(await measure(browser, side.web, HOOKS - run, HOOKS));
  } finally {
    for (const side of sides) {
      side.web.stop();
      rmSync(side.ws.root, { recursive: true, force: true });
    }
  }
  const fmt = (xs) => xs.map((x) => x.toFixed(0)).join(", ");
  console.log(`settings page, ${HOOKS} hooks, Chromium, median of ${RUNS} (load ${loadavg()[0].toFixed(1)} on 2 cores):`);
  for (const side of sides) {
    const m = (k) => median(side.runs.map((r) => r[k]));
    const line = (label, k, extra = "") => console.log(`    ${label.padEnd(36)} ${m(k).toFixed(1).padStart(7)} ms   (runs: ${fmt(side.runs.map((r) => r[k]))})${extra}`);
    console.log(`  ${side.name}:`);
    line("baseline: the list request alone", "baseline");
    line("answer → first screen painted", "render", `  ${(m("render") / m("baseline")).toFixed(2)}× baseline`);
    line("scroll to the end → last row shown", "end");
    console.log(`    rows in the DOM after the render: ${fmt(side.runs.map((r) => r.inDom))}`);
    line("filter (type → rows shown)", "filter");
    line("delete (confirm → row gone)", "del");
  }
  if (sides.length === 2) {
    const ratio = (k) => (median(sides[0].runs.map((r) => r[k])) / median(sides[1].runs.map((r) => r[k]))).toFixed(2);
    console.log(`  this build / other: first screen ${ratio("render")}×, filter ${ratio("filter")}×, delete ${ratio("del")}×`);
    console.log("  (the other build's \"end\" is the time its rows take to reach the end of the list)");
  }
}
