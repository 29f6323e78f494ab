// What the page gets over the wire, measured in real Chromium against a real `wavehost web` (and
// the real `wavehost serve` behind it, the scripted provider streaming 16 characters a piece):
//
//   node bench/page.mjs reply BYTES   a reply of BYTES: ms from Enter to its last words on screen,
//                                     the bytes and frames the page's WebSocket received meanwhile
//   node bench/page.mjs delete        a confirmed delete on the settings page: the requests the page
//                                     sent and the notifications it got, until 3 s after the row went
//
// Prints one JSON object; bench/wire.py and bench/reliability.py run it and print the figures.
// (The pages bypass their CSP: the waits here are strings of JavaScript the page evaluates.)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { repo, startWeb } from "./web.mjs";

const require = createRequire(join(repo, "webview/package.json"));
const { chromium } = require("playwright-core");

const SENTENCE = "The reply streams on, a sentence at a time, and the page keeps up. ";
const END = "THE-END";

function workspace() {
  const root = mkdtempSync(join(tmpdir(), "wavehost-bench-page-"));
  const home = join(root, "home");
  const project = join(root, "app");
  mkdirSync(join(home, ".wave"), { recursive: true });
  mkdirSync(join(project, ".wave"), { recursive: true });
  return { root, home, project };
}

/** A Markdown reply of about `bytes`: paragraphs of sentences, ending with END. */
function replyOf(bytes) {
  let text = "";
  for (let i = 0; text.length < bytes - END.length - 2; i++) text += i % 6 === 5 ? `${SENTENCE}\n\n` : SENTENCE;
  return text.slice(0, bytes - END.length - 2) + "\n\n" + END;
}

/** Every frame the page's WebSocket gets or sends, with its size in bytes. */
function frames(page) {
  const seen = [];
  page.on("websocket", (socket) => {
    const add = (dir) => (f) => {
      const text = f.payload.toString();
      let data = null;
      try {
        data = JSON.parse(text);
      } catch {
        /* not an envelope */
      }
      seen.push({ dir, bytes: Buffer.byteLength(text), data, at: Date.now() });
    };
    socket.on("framereceived", add("received"));
    socket.on("framesent", add("sent"));
  });
  return seen;
}

const deep = (selector) => `(() => {
  const find = (root) => {
    const hit = root.querySelector(${JSON.stringify(selector)});
    if (hit) return hit;
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) { const f = find(el.shadowRoot); if (f) return f; }
    return null;
  };
  return find(document);
})()`;

async function reply(browser, bytes) {
  const ws = workspace();
  const script = join(ws.root, "reply.json");
  writeFileSync(script, JSON.stringify({ turns: [{ text: replyOf(bytes) }] }));
  const web = await startWeb(ws, { env: { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script } });
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 }, bypassCSP: true });
    const seen = frames(page);
    await page.goto(`${web.url}&view=chat`);
    await page.waitForFunction(`${deep("textarea")} !== null && ${deep("[data-action=send]")}?.hasAttribute("disabled") === false`, null, { timeout: 120_000 });
    const input = await page.evaluateHandle(deep("textarea"));
    await input.asElement().fill("go");
    const from = seen.length;
    const t0 = Date.now();
    await input.asElement().press("Enter");
    await page.waitForFunction(`(${deep(".log")}?.innerText ?? "").includes(${JSON.stringify(END)})`, null, { timeout: 600_000, polling: 16 });
    const ms = Date.now() - t0;
    const got = seen.slice(from).filter((f) => f.dir === "received");
    await page.close();
    return { bytes, toScreenMs: ms, wsBytes: got.reduce((n, f) => n + f.bytes, 0), wsFrames: got.length };
  } finally {
    web.stop();
    rmSync(ws.root, { recursive: true, force: true });
  }
}

async function remove(browser) {
  const ws = workspace();
  const hooks = { Stop: [{ hooks: [{ type: "command", command: "echo one" }, { type: "command", command: "echo two" }] }] };
  writeFileSync(join(ws.project, ".wave/settings.json"), JSON.stringify({ hooks }, null, 2));
  const web = await startWeb(ws);
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 }, bypassCSP: true });
    const seen = frames(page);
    await page.goto(web.url);
    const rows = (n) => `${deep("wave-hooks-page")}?.shadowRoot?.querySelectorAll("li.hook").length === ${n}`;
    await page.waitForFunction(rows(2), null, { timeout: 120_000 });
    await page.waitForTimeout(1500); // the first list's own traffic is over, the watch is set up
    await page.evaluate(`${deep("li.hook [data-action=delete]")}.click()`);
    await page.waitForFunction(`${deep("[data-action=confirm]")} !== null`);
    const from = seen.length;
    await page.evaluate(`${deep("[data-action=confirm]")}.click()`);
    await page.waitForFunction(rows(1), null, { timeout: 60_000, polling: 16 });
    await page.waitForTimeout(3000); // what the watcher's echo of the write would bring
    const after = seen.slice(from).filter((f) => f.data);
    await page.close();
    const requests = after.filter((f) => f.dir === "sent" && f.data.kind === "request").map((f) => f.data.method);
    const notifications = after.filter((f) => f.dir === "received" && f.data.kind === "notification").map((f) => f.data.method);
    return { requests, notifications };
  } finally {
    web.stop();
    rmSync(ws.root, { recursive: true, force: true });
  }
}

const [what, size] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--headless", "--disable-gpu"],
});
try {
  const result = what === "reply" ? await reply(browser, Number(size)) : await remove(browser);
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
}
