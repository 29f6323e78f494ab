/**
 * The extension's own notifications speak the UI language the documented rule picks from VS
 * Code's display language, as its pages do: in a Chinese VS Code (code-server `--locale zh-cn`
 * with a Chinese language pack installed: without one VS Code falls back to English and reports
 * `en`), a crashed server's restart notice and its button are in Chinese.
 */

import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  CodeServer,
  EXTENSION,
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

/**
 * A language pack with no translations, made here with vsce (none can be downloaded): all VS Code
 * needs to take `--locale zh-cn` as its display language (its own words stay English).
 */
function chineseLanguagePack(): string {
  const dir = tempDir("zh-cn-pack");
  writeJson(join(dir, "package.json"), {
    name: "wavehost-test-zh-cn",
    displayName: "zh-cn for the wavehost tests",
    description: "An empty Chinese language pack: VS Code reports zh-cn as its display language",
    publisher: "wavehost-tests",
    version: "0.0.1",
    engines: { vscode: "^1.90.0" },
    categories: ["Language Packs"],
    contributes: {
      localizations: [
        {
          languageId: "zh-cn",
          languageName: "Chinese Simplified",
          localizedLanguageName: "中文(简体)",
          translations: [{ id: "vscode", path: "./translations/main.i18n.json" }],
        },
      ],
    },
  });
  mkdirSync(join(dir, "translations"));
  writeJson(join(dir, "translations", "main.i18n.json"), { version: "1.0.0", contents: {} });
  const vsix = join(dir, "zh-cn.vsix");
  const vsce = join(EXTENSION, "node_modules", ".bin", "vsce");
  execFileSync(vsce, ["package", "--allow-missing-repository", "--skip-license", "-o", vsix], { cwd: dir, stdio: "pipe" });
  return vsix;
}

const home = tempDir("language-home");
const project = tempDir("language-project");

let server: CodeServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  writeJson(join(home, ".wave", "settings.json"), {
    hooks: { Stop: [{ hooks: [{ type: "command", command: "echo user-hook" }] }] },
  });
  // The environment says English: the IDE's display language wins (the one rule).
  server = await CodeServer.start({
    home,
    env: { LANG: "C.UTF-8", LC_ALL: "", LC_MESSAGES: "" },
    alsoInstall: [chineseLanguagePack()],
    locale: "zh-cn",
  });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await openWorkbench(page, server.origin, project);
  await waitForExtension(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("a Chinese VS Code", () => {
  it("a killed server's restart notice and its button are in Chinese, as the settings page is", async () => {
    try {
      await restartNoticeInChinese();
    } catch (err) {
      throw await explainFailure(page, server, "language-zh-restart-notice", err);
    }
  });
});

async function restartNoticeInChinese(): Promise<void> {
  await runCommand(page, "Wave: Open Hooks Settings");
  const settings = await waveFrame(page, "settings", 60_000);
  await expect.poll(() => settings.evaluate(() => document.documentElement.lang), { timeout: 30_000 }).toBe("zh-CN");
  await page.locator(".statusbar-item [aria-label='wavehost ready']").first().waitFor({ timeout: 60_000 });
  process.kill(server.wavehostPid(), "SIGKILL");
  const toast = page.locator(".notifications-toasts", { hasText: "秒后重启；你的对话会保留。" });
  await toast.waitFor({ timeout: 30_000 });
  await toast.getByRole("button", { name: "显示日志" }).waitFor({ timeout: 10_000 });
  expect(await toast.innerText()).not.toContain("Restarting it in");
  await screenshot(page, "language-zh-restart-notice");
}
