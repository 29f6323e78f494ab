/**
 * Which project the extension gives the server, in a real VS Code (code-server): a multi-root
 * workspace (the folder of the active editor, else the first folder) and a window with no folder
 * (only the user's hooks; the page says so in its header).
 */

import { join } from "node:path";

import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import {
  CodeServer,
  explainFailure,
  launchBrowser,
  openWorkbench,
  runCommand,
  screenshot,
  tempDir,
  waitForExtension,
  waveFrame,
  writeJson,
} from "./harness";

const home = tempDir("folders-home");
const root = tempDir("folders");
const alpha = join(root, "alpha");
const beta = join(root, "beta");

function hookFile(dir: string, says: string): void {
  writeJson(join(dir, ".wave", "settings.json"), {
    hooks: { Stop: [{ hooks: [{ type: "command", command: `echo ${says}` }] }] },
  });
}

let server: CodeServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  writeJson(join(home, ".wave", "settings.json"), {
    hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo user-hook" }] }] },
  });
  hookFile(alpha, "alpha-hook");
  hookFile(beta, "beta-hook");
  writeJson(join(beta, "notes.json"), { a: 1 });
  // An environment in another language than the IDE's: the pages follow the IDE (the one rule:
  // an IDE's display language wins; the environment is for shells without one).
  server = await CodeServer.start({ home, env: { LANG: "zh_CN.UTF-8", LC_ALL: "", LC_MESSAGES: "" } });
  browser = await launchBrowser();
});

afterEach(async () => {
  await page?.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function settingsPage(): Promise<Frame> {
  await runCommand(page, "Wave: Open Hooks Settings");
  const frame = await waveFrame(page, "settings", 60_000);
  await frame.locator("li.hook").first().waitFor({ state: "attached", timeout: 60_000 });
  return frame;
}

async function hostReady(): Promise<void> {
  await page.locator(".statusbar-item [aria-label='wavehost ready']").first().waitFor({ timeout: 60_000 });
}

describe("the project of a window", () => {
  it("multi-root: the first folder when no editor is active, named in the page header", async () => {
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openWorkbench(page, server.origin, [alpha, beta]);
    await waitForExtension(page);
    const settings = await settingsPage();
    await settings.getByText("Current project: alpha").waitFor({ timeout: 30_000 });
    await expect.poll(() => settings.evaluate(() => document.documentElement.lang)).toBe("en"); // the IDE's, not LANG's
    await expect.poll(() => settings.getByTestId("count-project").innerText()).toBe("1");
    await hostReady();
    await screenshot(page, "20-multi-root-first-folder");
  });

  it("multi-root: the folder of the last active editor when the host (re)starts", async () => {
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openWorkbench(page, server.origin, [alpha, beta]);
    await waitForExtension(page);
    try {
      await page.keyboard.press("F1");
      await page.locator(".quick-input-widget input").fill("notes.json");
      await page.locator(".quick-input-list .monaco-list-row", { hasText: "notes.json" }).first().waitFor();
      await page.keyboard.press("Enter");
      await page.locator(".tabs-container .tab.active", { hasText: "notes.json" }).waitFor({ timeout: 30_000 });
      // The tab shows at once, the editor takes the focus once it has loaded the file: a palette
      // opened before then closes, and the command's Enter goes into the file instead.
      const text = page.locator(".editor-group-container.active .monaco-editor.focused .view-lines", { hasText: '"a"' });
      await text.waitFor({ timeout: 30_000 });
      await runCommand(page, "Wave: Restart Host");
      // The settings panel takes the focus (no active text editor then): the project is still the
      // last editor's folder, whether the restart has begun by then or not.
      await runCommand(page, "Wave: Open Hooks Settings");
      // A restart that lands after the panel opened loads the page anew: look the frame up each time.
      const header = async () => {
        const frame = await waveFrame(page, "settings", 5_000).catch(() => null);
        return frame ? await frame.getByText("Current project: beta").count().catch(() => 0) : 0;
      };
      await expect.poll(header, { timeout: 60_000, interval: 500 }).toBeGreaterThan(0);
      await hostReady();
      // A restart asked for while the first start is under way is not an error for the user.
      const errors = page.locator(".notifications-toasts .notification-list-item", { hasText: /couldn't create connection|connection got disposed/ });
      await expect.poll(() => errors.count()).toBe(0);
      await screenshot(page, "21-multi-root-active-editor-folder");
    } catch (err) {
      throw await explainFailure(page, server, "21-multi-root-active-editor-folder", err);
    }
  });

  it("no folder open: only the user's hooks, and the header says no folder is open", async () => {
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openWorkbench(page, server.origin);
    await waitForExtension(page);
    const settings = await settingsPage();
    await settings.getByText("Current project: no folder open").waitFor({ timeout: 30_000 });
    await expect.poll(() => settings.getByTestId("count-user").innerText()).toBe("1");
    await expect.poll(() => settings.getByTestId("count-project").innerText()).toBe("0");
    await screenshot(page, "22-no-folder");
  });
});
