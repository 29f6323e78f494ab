/**
 * The README's main job, as `scripts/demo` runs it: browser mode on a copy of
 * examples/demo-project, the scripted conversation of its demo-chat.json, its real hooks. The
 * screenshots are the README's (docs/screenshots/ holds copies of them).
 */

import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { REPO, SCREENSHOTS, type WebServer, Workspace, collectProblems, launchBrowser, startWeb } from "./harness";

const DEMO = join(REPO, "examples", "demo-project");

let browser: Browser;
let ws: Workspace;
let server: WebServer | null = null;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await server?.stop();
  server = null;
  ws?.remove();
});

/** The demo project copied into a fresh workspace; returns its scripted conversation's path. */
function demoWorkspace(): string {
  ws = new Workspace();
  cpSync(DEMO, ws.project, { recursive: true });
  // Written through the workspace, so that everything is owned as the server expects.
  return ws.write(join(ws.project, "demo-chat.json"), readFileSync(join(DEMO, "demo-chat.json"), "utf8"));
}

describe("the demo (scripts/demo)", () => {
  it("lists the demo's hooks, and its chat fires them: Bash blocked, PLAN.md written, the Stop line", async () => {
    const script = demoWorkspace();
    server = await startWeb(ws, "en", [], { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });
    const page = await browser.newPage({ viewport: { width: 1000, height: 620 } });
    const problems = collectProblems(page);

    await page.goto(server.url);
    await page.locator("vscode-tab-header[data-source=project]").click();
    const rows = page.locator("vscode-tab-panel[data-source=project] li.hook");
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(4);
    const texts = await rows.allInnerTexts();
    expect(texts.map((t) => t.split(/\s/)[0])).toEqual(["UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]);
    expect(texts[1]).toContain("Refuses destructive shell commands");
    await page.screenshot({ path: join(SCREENSHOTS, "demo-settings.png") });

    await page.goto(`${server.url}&view=chat`);
    const panel = page.locator("wave-chat-panel");
    const send = panel.locator("[data-action=send]");
    await expect.poll(() => send.getAttribute("disabled"), { timeout: 30_000 }).toBeNull();
    await panel.locator("textarea").fill("Clean up the build output, then write a plan.");
    await send.click();
    const allow = panel.getByTestId("permission").locator("[data-action=allow]");
    await expect.poll(() => allow.isVisible(), { timeout: 30_000 }).toBe(true);
    await allow.click(); // Write asks in the default permission mode
    await expect.poll(() => panel.locator(".notice[data-level=info]").count(), { timeout: 30_000 }).toBe(1);

    expect(await panel.locator(".tool[data-tool=Bash]").getByTestId("tool-error").innerText()).toBe(
      "PreToolUse:Bash hook error: Refusing a destructive command: rm -rf build",
    );
    expect(await panel.locator(".tool[data-tool=Write]").getAttribute("data-status")).toBe("success");
    expect(readFileSync(join(ws.project, "PLAN.md"), "utf8")).toContain("TODO: auth");
    expect(await panel.locator(".notice[data-level=info]").innerText()).toContain("Stop hook ran: reply finished");
    expect(existsSync(join(ws.project, "build"))).toBe(false);
    await page.screenshot({ path: join(SCREENSHOTS, "demo-chat.png") });
    expect(problems).toEqual([]);
  });

  it("renders in the language of ?locale= in the address, whatever the shell's locale", async () => {
    demoWorkspace();
    server = await startWeb(ws, "en");
    const page = await browser.newPage();
    await page.goto(`${server.url}&locale=zh-CN`);
    const tab = page.locator("vscode-tab-header[data-source=project]");
    await expect.poll(() => tab.innerText(), { timeout: 30_000 }).toContain("项目级钩子");
    await page.goto(server.address); // the cookie is kept; no ?locale= now: the shell's English
    await expect.poll(() => tab.innerText(), { timeout: 30_000 }).toContain("Project hooks");
  });
});
