/**
 * The settings page as users judge it (issue: honest states, narrow panels, hook run history):
 * real `wavehost web`, real files, real hook processes, Debian's Chromium; 1200 px and 420 px
 * screenshots in build/screenshots; axe-core with no violations, light and dark.
 */

import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { axeViolations } from "./axe";
import { SCREENSHOTS, type WebServer, type Workspace, collectProblems, command, e2eSuite, hooksFile } from "./harness";

const e2e = e2eSuite();
/** The test's workspace and (once a page opened it) its server; e2eSuite removes and stops them. */
const suite = { ws: undefined as unknown as Workspace, server: null as WebServer | null };
afterEach(() => {
  suite.server = null;
});

const WIDE = { width: 1200, height: 800 };
const NARROW = { width: 420, height: 800 };

async function open(
  viewport = WIDE,
  colorScheme: "light" | "dark" = "light",
  locale = "zh-CN",
): Promise<{ page: Page; problems: string[] }> {
  suite.server ??= await e2e.web(suite.ws, locale);
  const page = await e2e.browser.newPage({ viewport, colorScheme });
  const problems = collectProblems(page);
  await page.goto(suite.server.url);
  await page.getByTestId("count-user").waitFor();
  return { page, problems };
}

const tab = (page: Page, source: string) => page.locator(`[role=tab][data-source=${source}]`);
const panel = (page: Page) => page.locator("[role=tabpanel]");
const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}

/** A project whose settings.json has a stray comma, hooks switched off in settings.local.json,
 * and a user file with an enabled plugin that is not installed and an invalid matcher. */
function troubledWorkspace(): Workspace {
  const w = e2e.workspace();
  w.write(w.projectSettings, '{\n  "hooks": {\n    "Stop": [{"hooks": [{"type": "command", "command": "echo bye"}]}]\n  },\n}\n');
  w.write(join(w.project, ".wave", "settings.local.json"), { disableAllHooks: true });
  w.write(
    w.userSettings,
    hooksFile(
      {
        PreToolUse: [
          { matcher: "Bash(", hooks: [command("./guard.sh")] },
          { matcher: "Bash", hooks: [command("./guard.sh")] },
        ],
      },
      { enabledPlugins: { "lint-kit": true } },
    ),
  );
  return w;
}

describe("settings page: honest states", () => {
  it("a file that does not parse is an error state with its line, Open file at the line and Ask Wave to fix", async () => {
    suite.ws = troubledWorkspace();
    const { page, problems } = await open();
    // Opens on the first tab with a problem (user: a skipped entry), and the project tab's badge
    // names what is wrong with its file instead of a count of 0.
    await expect.poll(() => tab(page, "user").getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("⚠ settings.json 的 JSON 有误");
    await expect.poll(() => tab(page, "project").getAttribute("aria-label")).toBe("项目级钩子, settings.json 的 JSON 有误");
    await expectAccessible(page, "user tab with problems, light");
    await shot(page, "honest-user-tab-1200");

    await tab(page, "project").click();
    const card = page.getByTestId("broken-file");
    await expect.poll(() => card.isVisible()).toBe(true);
    await expect.poll(() => card.innerText()).toContain(".wave/settings.json 无法解析，其中的钩子都不会运行。");
    // The stray comma is on line 4 (after the closing brace of "hooks"), not line 5.
    await expect.poll(() => page.getByTestId("broken-file-problem").innerText()).toBe("第 4 行第 4 列：右括号前多了一个逗号，删掉它");
    await expect.poll(() => page.getByTestId("empty-project").count()).toBe(0); // never "no hooks yet"
    await expectAccessible(page, "error banner, light");
    await shot(page, "honest-parse-error-1200");

    await card.locator("[data-action=open-broken-file]").click();
    const marked = page.locator("wave-file-viewer .marked");
    await expect.poll(() => marked.count()).toBe(1);
    await expect.poll(() => marked.getAttribute("data-line")).toBe("4");
    await expect.poll(() => marked.innerText()).toContain("},");

    await card.locator("[data-action=ask-wave]").click();
    const input = page.locator("wave-chat-panel textarea");
    await expect.poll(() => input.inputValue()).toContain(`帮我修复配置文件 ${suite.ws.projectSettings}：`);
    await expect.poll(() => input.inputValue()).toContain("line 4");
    expect(problems).toEqual([]);
  });

  it("disableAllHooks names its file and dims every row; a broken entry stays in place; a missing plugin says what to do", async () => {
    suite.ws = troubledWorkspace();
    const { page } = await open(WIDE, "dark");
    const banner = page.getByTestId("disabled-banner");
    await expect.poll(() => banner.innerText()).toContain('所有钩子都已关闭：.wave/settings.local.json 设置了 "disableAllHooks": true。');
    const row = panel(page).locator("li.hook:not(.broken)");
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.evaluate((el) => [el.classList.contains("off"), getComputedStyle(el).borderTopStyle])).toEqual([true, "dashed"]);
    await expect.poll(() => row.getByTestId("row-disabled").innerText()).toBe("已关闭");
    // The entry with an invalid regex is listed where it is, with why it is skipped.
    const broken = panel(page).locator("li.hook.broken");
    await expect.poll(() => broken.innerText()).toContain("matcher「Bash(」不是合法的正则表达式");
    await expect.poll(() => broken.innerText()).toContain("./guard.sh");
    // Both in their event's group, in file order: the skipped one (first in the file) comes first.
    const group = panel(page).locator("ul.hooks[aria-label=PreToolUse] > li");
    await expect.poll(() => group.evaluateAll((els) => els.map((e) => e.className.trim()))).toEqual(["hook broken", "hook off"]);
    const plugin = page.getByTestId("problems").locator("li[data-code=pluginNotInstalled]");
    await expect.poll(() => plugin.innerText()).toContain("~/.wave/settings.json#/enabledPlugins/lint-kit");
    await expect.poll(() => plugin.innerText()).toContain("安装它，或从 enabledPlugins 中删除");
    await expectAccessible(page, "user tab, disabled banner, dark");
    await tab(page, "project").click();
    await page.getByTestId("broken-file").waitFor();
    await expectAccessible(page, "parse error, dark");
    await shot(page, "honest-dark-parse-error-1200");
  });

  for (const viewport of [WIDE, NARROW]) {
    it(`an untrusted workspace (wavehost web --untrusted): the project tab says its hooks are listed but inert, and they do not run (${viewport.width} px)`, async () => {
      suite.ws = e2e.workspace();
      const marker = join(suite.ws.project, "project-hook-ran");
      suite.ws.write(suite.ws.projectSettings, hooksFile({ PreToolUse: [{ matcher: "Bash", hooks: [command(`touch ${marker}`)] }] }));
      suite.ws.write(suite.ws.userSettings, hooksFile({ Stop: [{ hooks: [command("echo user-hook")] }] }));
      suite.server = await e2e.web(suite.ws, "zh-CN", ["--untrusted"]);
      const { page, problems } = await open(viewport);
      // On the tab itself, before it is opened: listed (the count) but inert.
      await expect.poll(() => tab(page, "project").innerText()).toContain("未受信任 · 不运行");
      await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("1");
      await expect.poll(() => tab(page, "user").innerText()).not.toContain("未受信任");
      for (const source of ["user", "project", "plugin"]) {
        // Every tab stays whole in view, however narrow the panel (the mark makes a tab longer).
        const box = (await tab(page, source).boundingBox())!;
        expect(box.x >= 0 && box.x + box.width <= viewport.width, `${source} tab at ${viewport.width} px`).toBe(true);
      }
      await expect.poll(() => panel(page).locator("li.hook").innerText()).not.toContain("未受信任"); // user hooks run as ever
      await tab(page, "project").click();
      await expect.poll(() => page.getByTestId("untrusted").innerText()).toBe("此工作区未受信任：下面的项目级钩子只会列出，不会运行。");
      const row = panel(page).locator("li.hook");
      await expect.poll(() => row.count()).toBe(1);
      await expect.poll(() => row.innerText()).toContain("未受信任：不会运行");
      await expect.poll(() => row.evaluate((el) => el.classList.contains("off"))).toBe(true);
      await expectAccessible(page, `untrusted project tab, ${viewport.width} px`);
      await shot(page, `honest-untrusted-${viewport.width}`);

      // Test refuses to run it, and Why says the trust step is where it stops.
      await row.locator("[data-action=test]").click();
      const inspector = page.getByTestId("inspector");
      await expect.poll(() => page.getByTestId("test-payload").inputValue()).toContain('"tool_name": "Bash"');
      await inspector.locator("[data-action=run-test]").click();
      await expect.poll(() => inspector.getByTestId("inspector-error").innerText(), { timeout: 30_000 }).toContain("工作区未受信任");
      await inspector.locator("[role=tab][data-tab=why]").click();
      const trusted = page.getByTestId("why-steps").locator("li[data-step=trusted]");
      await expect.poll(() => trusted.getAttribute("data-status")).toBe("fail");
      await expect.poll(() => trusted.innerText()).toContain("工作区未受信任：项目级钩子不会运行");
      await expect.poll(() => page.getByTestId("why-verdict").innerText()).toBe("它不会触发：见下面标出的那一步。");
      await shot(page, `honest-untrusted-why-${viewport.width}`);
      expect(readdirSync(suite.ws.project)).not.toContain("project-hook-ran"); // it never ran
      expect(problems).toEqual([]);
    });
  }

  it("says the same in English", async () => {
    suite.ws = e2e.workspace();
    suite.ws.write(suite.ws.projectSettings, hooksFile({ Stop: [{ hooks: [command("echo bye")] }] }));
    suite.ws.write(suite.ws.userSettings, { enabledPlugins: { ghost: true } });
    const { page } = await open(WIDE, "light", "en-US");
    await expect.poll(() => tab(page, "user").getAttribute("aria-selected")).toBe("true"); // it has a problem
    await expect.poll(() => page.getByTestId("problems").innerText()).toContain(
      "The enabled plugin “ghost” is not installed (no folder",
    );
    await tab(page, "project").click();
    await expect.poll(() => panel(page).locator("li.hook").innerText()).toContain("echo bye");
    await expectAccessible(page, "project tab, English");
    await shot(page, "honest-en-1200");
  });
});

function manyHooks(count: number): Workspace {
  const w = e2e.workspace();
  const events = ["PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit"];
  const groups: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> = {};
  for (let i = 0; i < count; i++) {
    const event = events[i % events.length]!;
    const matcher = event.endsWith("ToolUse") ? (i % 3 ? "Bash" : "Write|Edit") : undefined;
    (groups[event] ??= []).push({ ...(matcher ? { matcher } : {}), hooks: [command(`./scripts/check-${i}.sh --really-long-option-name=value-${i}`)] });
  }
  w.write(w.projectSettings, hooksFile(groups));
  return w;
}

/** The pid of the `wavehost serve` this test's `wavehost web` started (its only child). */
function servePid(web: WebServer): number {
  const out = execFileSync("ps", ["-o", "pid=", "--ppid", String(web.process.pid)], { encoding: "utf8" });
  const pids = out.split(/\s+/).filter(Boolean).map(Number);
  expect(pids.length, `children of wavehost web: ${out}`).toBe(1);
  return pids[0]!;
}

describe("settings page: the server stops", () => {
  for (const viewport of [WIDE, NARROW]) {
    it(`says so in plain words, disables actions and restarts wavehost serve on request (${viewport.width} px)`, async () => {
      suite.ws = e2e.workspace();
      suite.ws.write(suite.ws.projectSettings, hooksFile({ PreToolUse: [{ matcher: "Bash", hooks: [command("./guard.sh")] }] }));
      const { page, problems } = await open(viewport);
      await tab(page, "project").click();
      const before = servePid(suite.server!);
      process.kill(before, "SIGKILL");
      const banner = page.getByTestId("gone");
      await expect.poll(() => banner.innerText(), { timeout: 15_000 }).toContain("wavehost 已停止运行，此页面暂时无法修改任何内容。");
      await expect.poll(() => banner.innerText()).toContain("code -9");
      await expect.poll(() => banner.innerText()).toContain("可以在这里重新启动它");
      for (const action of ["delete", "edit", "test", "new"]) {
        const button = page.locator(`[data-action=${action}]`).first();
        expect(await button.evaluate((b) => b.hasAttribute("disabled")), action).toBe(true);
      }
      await expectAccessible(page, `server stopped, ${viewport.width} px`);
      await shot(page, `server-stopped-${viewport.width}`);
      // wavehost web stays up; Restart starts a new wavehost serve and the page comes back.
      expect(suite.server!.process.exitCode).toBeNull();
      await page.locator("[data-action=restart]").click();
      await expect.poll(() => banner.count(), { timeout: 30_000 }).toBe(0);
      expect(servePid(suite.server!)).not.toBe(before);
      await tab(page, "project").click();
      const row = panel(page).locator("li.hook");
      await expect.poll(() => row.count()).toBe(1);
      await expect.poll(() => row.locator("[data-action=delete]").evaluate((b) => b.hasAttribute("disabled"))).toBe(false);
      await shot(page, `server-restarted-${viewport.width}`);
      expect(problems).toEqual([]);
    });
  }
});

describe("settings page: narrow and long", () => {
  it("at 420 px: tabs stay visible while the list scrolls, commands do not break mid-word, Edit stacks the file above the chat", async () => {
    suite.ws = manyHooks(24);
    const { page } = await open(NARROW);
    await expect.poll(() => tab(page, "project").getAttribute("aria-selected")).toBe("true"); // user is empty
    await shot(page, "narrow-list-420");
    const command = panel(page).locator("code.command").first();
    const box = await command.boundingBox();
    expect(box!.height).toBeLessThan(40); // one line (it scrolls sideways), never one letter per line
    await page.locator("wave-app .view").evaluate((el) => el.scrollTo(0, 5000));
    const tabs = await page.locator("[role=tablist]").boundingBox();
    expect(tabs!.y).toBeGreaterThanOrEqual(0);
    expect(tabs!.y).toBeLessThan(120);
    await shot(page, "narrow-scrolled-420");

    await panel(page).locator("[data-action=edit]").first().click();
    const viewer = page.locator("wave-file-viewer");
    await viewer.waitFor();
    const viewerBox = await viewer.boundingBox();
    const textarea = await page.locator("wave-chat-panel textarea").boundingBox();
    expect(viewerBox!.width).toBeGreaterThan(400); // full width, not half
    expect(textarea!.width).toBeGreaterThan(250);
    expect(viewerBox!.y + viewerBox!.height).toBeLessThanOrEqual(textarea!.y); // above the chat
    const path = await page.getByTestId("viewer-path").boundingBox();
    expect(path!.height).toBeLessThan(60);
    await shot(page, "narrow-edit-420");
  });

  it("an exec-form hook with an if rule shows its command line and its rule; if on Stop is a skipped entry saying why", async () => {
    suite.ws = e2e.workspace();
    const guard = { type: "command", command: "python3", args: ["${CLAUDE_PROJECT_DIR}/hook scripts/guard.py"], if: "Bash(git *)" };
    suite.ws.write(
      suite.ws.projectSettings,
      hooksFile({ PreToolUse: [{ matcher: "Bash", hooks: [guard] }], Stop: [{ hooks: [{ ...command("notify-send done"), if: "Bash(git *)" }] }] }),
    );
    const { page, problems } = await open();
    await tab(page, "project").click();
    const row = panel(page).locator("li.hook:not(.broken)");
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.locator("code.command").innerText()).toBe("python3 '${CLAUDE_PROJECT_DIR}/hook scripts/guard.py'");
    await expect.poll(() => row.getByTestId("if-rule").innerText()).toBe("条件: Bash(git *)");
    const broken = panel(page).locator("li.hook.broken");
    await expect.poll(() => broken.innerText()).toContain('"if" 只适用于工具事件');
    await expect.poll(() => broken.innerText()).toContain("在 Stop 上这个钩子永远不会运行");
    await expectAccessible(page, "exec form and if rule, light");
    await shot(page, "honest-if-rule-1200");
    expect(problems).toEqual([]);
  });

  it("a long list keeps the rows near the view in the DOM, reaches its last row when scrolled to the end, and a filter finds rows far down", async () => {
    suite.ws = manyHooks(300);
    const { page } = await open();
    await expect.poll(() => page.getByTestId("count-project").innerText(), { timeout: 30_000 }).toBe("300");
    const rows = panel(page).locator("li.hook");
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    expect(await rows.count()).toBeLessThan(60); // a screen and a margin, not 300
    // Each row says where it stands in its group, for screen readers: "1 of 75".
    expect([await rows.first().getAttribute("aria-posinset"), await rows.first().getAttribute("aria-setsize")]).toEqual(["1", "75"]);
    // Scrolled to the end: the last group's last row is there, in view.
    const view = page.locator("wave-app .view").first();
    const last = panel(page).locator("section.group").last().locator("li.hook").last();
    await expect
      .poll(async () => {
        await view.evaluate((el) => (el.scrollTop = el.scrollHeight));
        return last.getAttribute("aria-posinset");
      })
      .toBe("75");
    await expect.poll(() => last.locator("code.command").innerText()).toContain("./scripts/check-298.sh");
    const box = await last.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(WIDE.height);
    await view.evaluate((el) => (el.scrollTop = 0));
    await page.getByTestId("filter").fill("check-299.sh");
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => panel(page).locator("li.hook code.command").innerText()).toContain("./scripts/check-299.sh");
    await page.getByTestId("filter").fill("");
    await expect.poll(() => rows.first().locator("code.command").innerText()).toContain("./scripts/check-0.sh");
  });

  it("filters by text and event, groups by event, remembers the tab", async () => {
    suite.ws = manyHooks(24);
    suite.ws.write(suite.ws.userSettings, hooksFile({ Stop: [{ hooks: [command("notify-send done")] }] }));
    const { page } = await open();
    await expect.poll(() => tab(page, "user").getAttribute("aria-selected")).toBe("true");
    await tab(page, "project").click();
    const groups = panel(page).getByTestId("group");
    await expect.poll(() => groups.evaluateAll((els) => els.map((e) => e.getAttribute("data-event")))).toEqual([
      "PreToolUse",
      "PostToolUse",
      "UserPromptSubmit",
      "Stop",
    ]);
    await page.getByTestId("filter").fill("write check-12");
    await expect.poll(() => panel(page).locator("li.hook").count()).toBe(1);
    await expect.poll(() => page.getByTestId("filter-count").innerText()).toBe("显示 1 / 24 个");
    await page.getByTestId("filter").fill("");
    await page.getByTestId("filter-event").selectOption("Stop");
    await expect.poll(() => panel(page).locator("li.hook").count()).toBe(6);
    await shot(page, "filtered-1200");
    await page.reload();
    await page.getByTestId("count-user").waitFor();
    await expect.poll(() => tab(page, "project").getAttribute("aria-selected")).toBe("true");
    // Keyboard: arrows move between tabs, and the label of every row is unique.
    await tab(page, "project").focus();
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => tab(page, "user").getAttribute("aria-selected")).toBe("true");
  });
});

describe("settings page: run history, Test this hook, why didn't it fire", () => {
  it("Test runs the hook for real with an editable sample, shows the interpreted outcome and records it as its last run", async () => {
    suite.ws = e2e.workspace();
    const script = suite.ws.write(
      join(suite.ws.project, "guard.py"),
      "import json, sys\nd = json.load(sys.stdin)\nprint('checked', d['tool_input'].get('command'))\n" +
        "if 'rm' in d['tool_input'].get('command', ''):\n    print('no rm -rf here', file=sys.stderr)\n    sys.exit(2)\n",
    );
    suite.ws.write(suite.ws.projectSettings, hooksFile({ PreToolUse: [{ matcher: "Bash", hooks: [command(`python3 ${script}`)] }] }));
    const { page, problems } = await open();
    const row = panel(page).locator("li.hook").first();
    await expect.poll(() => row.getByTestId("last-run").innerText()).toBe("尚未运行");

    await row.locator("[data-action=test]").click();
    const inspector = page.getByTestId("inspector");
    const payload = page.getByTestId("test-payload");
    await expect.poll(() => payload.inputValue()).toContain('"tool_name": "Bash"');
    const sample = JSON.parse(await payload.inputValue());
    expect(sample.hook_event_name).toBe("PreToolUse");
    await payload.fill(JSON.stringify({ ...sample, tool_input: { command: "rm -rf build" } }, null, 2));
    await inspector.locator("[data-action=run-test]").click();
    await expect.poll(() => page.getByTestId("test-exit").innerText(), { timeout: 30_000 }).toBe("退出码 2");
    await expect.poll(() => page.getByTestId("test-stdout").innerText()).toContain("checked rm -rf build");
    await expect.poll(() => page.getByTestId("test-stderr").innerText()).toContain("no rm -rf here");
    await expect.poll(() => page.getByTestId("test-outcome").innerText()).toContain("阻止这次工具调用；模型看到：PreToolUse:Bash hook error: no rm -rf here");
    await expectAccessible(page, "inspector dialog (test), light");
    await shot(page, "inspector-test-1200");

    await inspector.locator("[role=tab][data-tab=history]").click();
    await expect.poll(() => page.getByTestId("history-run").count()).toBe(1);
    await expect.poll(() => page.getByTestId("history-run").innerText()).toContain("已拦截");
    await inspector.locator("[role=tab][data-tab=why]").click();
    const steps = page.getByTestId("why-steps");
    await expect.poll(() => steps.locator("li[data-step]").count()).toBe(7);
    await expect.poll(() => page.getByTestId("why-verdict").innerText()).toBe("按现在的配置，它会触发。");
    await expect.poll(() => steps.locator("li[data-step=matcher]").innerText()).toContain("这个项目还没有记录到 PreToolUse 事件");
    await shot(page, "inspector-why-1200");
    await inspector.locator("[data-action=close-inspector]").click();
    await expect.poll(() => row.getByTestId("last-run").innerText()).toMatch(/^上次运行 .* · 已拦截（退出码 2）· \d+ 毫秒$/);
    // The run log lives in the user's folder, not in the project.
    expect(readFileSync(join(suite.ws.home, ".wave", "runs", readdirRuns(suite.ws.home)), "utf8")).toContain('"trigger": "test"');
    expect(problems).toEqual([]);
  });

  it("the inspector fits a 420 px panel and is accessible in the dark", async () => {
    suite.ws = e2e.workspace();
    suite.ws.write(suite.ws.userSettings, hooksFile({ Stop: [{ hooks: [command("echo done; exit 1")] }] }));
    const { page } = await open(NARROW, "dark");
    await panel(page).locator("[data-action=test]").click();
    await expect.poll(() => page.getByTestId("test-payload").inputValue()).toContain('"hook_event_name": "Stop"');
    await page.getByTestId("inspector").locator("[data-action=run-test]").click();
    await expect.poll(() => page.getByTestId("test-exit").innerText(), { timeout: 30_000 }).toBe("退出码 1");
    await expect.poll(() => page.getByTestId("test-outcome").innerText()).toContain("向你显示（错误）");
    const dialog = await page.getByTestId("inspector").boundingBox();
    expect(dialog!.width).toBeLessThanOrEqual(420);
    await expectAccessible(page, "inspector dialog, dark, 420 px");
    await shot(page, "inspector-test-420-dark");
  });
});

/** The run log (beside it, the inputs its runs received). */
function readdirRuns(home: string): string {
  const name = readdirSync(join(home, ".wave", "runs")).find((n) => !n.endsWith(".inputs.jsonl"));
  return name!;
}
