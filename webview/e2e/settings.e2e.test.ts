import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import {
  FrameLog,
  SCREENSHOTS,
  type WebServer,
  type Workspace,
  collectProblems,
  command,
  e2eSuite,
  hooksFile,
} from "./harness";

const e2e = e2eSuite();
let ws: Workspace;
let server: WebServer | null = null;

/** User: 1 hook (+ plugin fmt enabled); project: 2 hooks and an invalid entry; plugin: 1 hook. */
function standardWorkspace(): Workspace {
  const w = e2e.workspace();
  w.write(
    w.userSettings,
    hooksFile({ Stop: [{ hooks: [command("notify-send done", { timeout: 5 })] }] }, { enabledPlugins: { fmt: true } }),
  );
  w.write(
    w.projectSettings,
    hooksFile({
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [command("./guard.sh", { description: "Refuses rm -rf" }), { type: "command" }],
        },
      ],
      PostToolUse: [{ matcher: "Write|Edit", hooks: [command("./lint.sh", { async: true })] }],
    }),
  );
  w.write(w.pluginHooks("fmt"), hooksFile({ PostToolUse: [{ matcher: "Write", hooks: [command("prettier --write")] }] }));
  return w;
}

async function openSettings(locale = "zh-CN"): Promise<{ page: Page; frames: FrameLog; problems: string[] }> {
  server = await e2e.web(ws, locale);
  const page = await e2e.browser.newPage({ viewport: { width: 1100, height: 760 } });
  const frames = new FrameLog(page);
  const problems = collectProblems(page);
  await page.goto(server.url);
  await page.getByTestId("count-user").waitFor(); // the list has arrived
  expect(page.url()).toBe(server.address); // the token was traded for a cookie and left the URL
  return { page, frames, problems };
}

const tab = (page: Page, source: string) => page.locator(`[role=tab][data-source=${source}]`);
const panel = (page: Page, source: string) => page.locator(`[role=tabpanel][data-source=${source}]`);
const rows = (page: Page, source: string) => panel(page, source).locator("li.hook:not(.broken)");

describe("settings page: the UI language", () => {
  // The one rule (wavehost.language): without --locale, browser mode takes the environment's
  // (LC_ALL, LC_MESSAGES, LANG, as POSIX programs read them); the C locale chooses no language,
  // which is English — in every shell, as the JetBrains preview and the server's texts.
  for (const [lang, htmlLang, title] of [
    ["zh_CN.UTF-8", "zh-CN", "用户级钩子"],
    ["C.UTF-8", "en", "User hooks"],
  ] as const) {
    it(`follows the environment's locale when --locale is not given (LANG=${lang})`, async () => {
      ws = standardWorkspace();
      server = await e2e.web(ws, null, [], { LANG: lang, LC_ALL: "", LC_MESSAGES: "" });
      const page = await e2e.browser.newPage({ viewport: { width: 1100, height: 760 } });
      await page.goto(server.url);
      await expect.poll(() => tab(page, "user").innerText()).toContain(title);
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(htmlLang);
      // The server's texts follow the page: the New prompt is in its language.
      // The page opens at the project's skipped entry: New of the user tab.
      await tab(page, "user").click();
      await expect.poll(() => tab(page, "user").getAttribute("aria-selected")).toBe("true");
      await page.locator("[data-action=new]").click();
      await expect.poll(() => page.locator("wave-chat-panel textarea").inputValue(), { timeout: 30_000 }).toMatch(
        htmlLang === "en" ? /^Help me set up a user-level hook/ : /^帮我配一个用户级钩子/,
      );
    });
  }
});

describe("settings page: hooks tab", () => {
  it("shows the three source tabs with counts, rows, read-only plugin rows and problems with paths", async () => {
    ws = standardWorkspace();
    const { page, problems } = await openSettings();

    await expect.poll(() => tab(page, "user").innerText()).toContain("用户级钩子");
    await expect.poll(() => tab(page, "project").innerText()).toContain("项目级钩子");
    await expect.poll(() => tab(page, "plugin").innerText()).toContain("插件钩子");
    await expect.poll(() => page.getByTestId("count-user").innerText()).toBe("1");
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("2 · ⚠ 1"); // 2 hooks, 1 broken entry
    await expect.poll(() => page.getByTestId("count-plugin").innerText()).toBe("1");

    // The page opens where the problem is (the project's skipped entry); the user tab has its
    // row, with event summary, command, timeout and Edit/Delete.
    await expect.poll(() => tab(page, "project").getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => tab(page, "user").getAttribute("aria-label")).toBe("用户级钩子, 1");
    await expect.poll(() => tab(page, "project").getAttribute("aria-label")).toBe("项目级钩子, 2, 1 个问题");
    await tab(page, "user").click();
    const userRow = rows(page, "user").first();
    await expect.poll(() => userRow.isVisible()).toBe(true);
    const group = () => panel(page, "user").getByTestId("group").innerText(); // rows are grouped by event
    await expect.poll(group).toContain("Stop：1 个");
    await expect.poll(group).toContain("智能体完成回复时");
    await expect.poll(() => userRow.innerText()).toContain("notify-send done");
    await expect.poll(() => userRow.innerText()).toContain("超时 5 秒");
    await expect.poll(() => userRow.innerText()).toContain("~/.wave/settings.json"); // the absolute path on hover
    await expect.poll(() => userRow.getByTestId("row-path").getAttribute("title")).toBe(ws.userSettings);
    await expect.poll(() => userRow.locator("[data-action=edit]").count()).toBe(1);

    // Keyboard: arrow keys move between tabs.
    await tab(page, "user").focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await expect.poll(() => rows(page, "project").first().isVisible()).toBe(true);
    const projectTexts = () => rows(page, "project").allInnerTexts();
    await expect.poll(() => rows(page, "project").first().getAttribute("data-event")).toBe("PreToolUse");
    await expect.poll(async () => (await projectTexts())[0]).toContain("匹配器: Bash");
    await expect.poll(async () => (await projectTexts())[0]).toContain("Refuses rm -rf");
    await expect.poll(async () => (await projectTexts())[1]).toContain("Write|Edit");
    await expect.poll(async () => (await projectTexts())[1]).toContain("异步");
    const broken = panel(page, "project").locator("li.hook.broken");
    await expect.poll(() => broken.getAttribute("data-broken")).toBe("/hooks/PreToolUse/0/hooks/1/command");
    await expect.poll(() => broken.innerText()).toContain("\"command\" 必须是非空字符串");
    await page.screenshot({ path: join(SCREENSHOTS, "settings-project-tab.png"), fullPage: true });

    await tab(page, "plugin").click();
    const pluginRow = rows(page, "plugin").first();
    await expect.poll(() => pluginRow.isVisible()).toBe(true);
    await expect.poll(() => pluginRow.innerText()).toContain("插件：fmt");
    await expect.poll(() => pluginRow.locator("[data-action=edit], [data-action=delete]").count()).toBe(0);
    await expect.poll(() => page.locator("[data-action=new]").count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("shows an empty state on a source without hooks, in English for an English host", async () => {
    ws = e2e.workspace();
    ws.write(ws.projectSettings, hooksFile({ Stop: [{ hooks: [command("true")] }] }));
    const { page, problems } = await openSettings("en-US");
    await expect.poll(() => tab(page, "user").innerText()).toContain("User hooks");
    await expect.poll(() => tab(page, "project").getAttribute("aria-selected")).toBe("true"); // the first with hooks
    await tab(page, "user").click();
    await expect.poll(() => page.getByTestId("empty-user").innerText()).toContain("No user hooks yet");
    await tab(page, "plugin").click();
    await expect.poll(() => page.getByTestId("empty-plugin").isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it("deletes only after confirmation: cancel and Escape change nothing, confirm removes it", async () => {
    ws = standardWorkspace();
    const before = readFileSync(ws.projectSettings, "utf8");
    const { page, problems } = await openSettings();
    await tab(page, "project").click();
    const row = rows(page, "project").filter({ hasText: "./guard.sh" });
    const dialog = page.getByTestId("delete-dialog");

    await row.locator("[data-action=delete]").click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect.poll(() => dialog.innerText()).toContain("PreToolUse (Bash)");
    await expect.poll(() => page.getByTestId("delete-path").innerText()).toBe(ws.projectSettings);
    await page.screenshot({ path: join(SCREENSHOTS, "settings-delete-dialog.png") });
    await dialog.locator("[data-action=cancel]").click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    await row.locator("[data-action=delete]").press("Enter"); // keyboard works as well
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(readFileSync(ws.projectSettings, "utf8")).toBe(before);
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("2 · ⚠ 1");

    await row.locator("[data-action=delete]").click();
    await dialog.locator("[data-action=confirm]").click();
    await expect
      .poll(() => page.getByTestId("toast-title").innerText())
      .toBe("已从 .wave/settings.json 删除钩子「PreToolUse (Bash)」。");
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("1 · ⚠ 1");
    await expect.poll(() => rows(page, "project").allInnerTexts()).toEqual([expect.stringContaining("./lint.sh")]);
    const after = JSON.parse(readFileSync(ws.projectSettings, "utf8"));
    expect(JSON.stringify(after)).not.toContain("./guard.sh");
    expect(JSON.stringify(after)).toContain("./lint.sh");
    expect(problems).toEqual([]);
  });

  it("a delete that fails (file made read-only) says why and shows the server's list", async () => {
    ws = standardWorkspace();
    const before = readFileSync(ws.userSettings, "utf8");
    const { page } = await openSettings();
    await tab(page, "user").click();
    const row = rows(page, "user").first();
    await row.locator("[data-action=delete]").click();
    const dialog = page.getByTestId("delete-dialog");
    await expect.poll(() => dialog.isVisible()).toBe(true);

    // While the dialog is open the file becomes read-only; the page hears of it and reloads.
    chmodSync(ws.userSettings, 0o444);
    await expect.poll(() => row.locator("[data-action=delete]").count(), { timeout: 15_000 }).toBe(0);
    await dialog.locator("[data-action=confirm]").click();

    // The result is where the user looks (a toast that takes focus), with the file and what to do.
    const toast = page.getByTestId("toast");
    await expect.poll(() => toast.isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("toast-title").innerText()).toBe(
      "无法从 ~/.wave/settings.json 删除钩子「Stop」：配置文件是只读的，无法修改。",
    );
    await expect.poll(() => page.getByTestId("toast-todo").innerText()).toContain("chmod u+w");
    await expect.poll(() => page.getByTestId("toast-details").innerText()).toContain(ws.userSettings); // the server's words
    await expect.poll(() => toast.evaluate((el) => el.matches(":focus"))).toBe(true);
    await expect.poll(() => page.getByTestId("count-user").innerText()).toBe("1");
    await expect.poll(() => rows(page, "user").first().innerText()).toContain("notify-send done");
    expect(readFileSync(ws.userSettings, "utf8")).toBe(before);
    await page.screenshot({ path: join(SCREENSHOTS, "settings-delete-failed.png"), fullPage: true });
  });

  it("Edit opens the config file before the settings page closes, then prefills the chat", async () => {
    ws = standardWorkspace();
    const { page, frames, problems } = await openSettings();
    await tab(page, "project").click();
    await rows(page, "project").filter({ hasText: "./guard.sh" }).locator("[data-action=edit]").click();

    const input = page.locator("wave-chat-panel textarea");
    await expect.poll(() => input.inputValue()).toContain("帮我编辑钩子：把<事件/匹配/命令/超时>改成<新内容>");
    await expect.poll(() => page.getByTestId("viewer-path").innerText()).toBe(ws.projectSettings);
    await expect.poll(() => page.getByTestId("viewer-content").innerText()).toContain("./guard.sh");

    const open = frames.index((f) => f.dir === "sent" && f.data.method === "wave/openConfigFile");
    const openId = frames.frames[open]!.data.id;
    const shown = frames.index((f) => f.dir === "received" && f.data.command === "showFile");
    const answered = frames.index((f) => f.dir === "received" && f.data.kind === "response" && f.data.id === openId);
    const closed = frames.index((f) => f.dir === "sent" && f.data.command === "closeSettings");
    const prefill = frames.index((f) => f.dir === "sent" && f.data.command === "openChat");
    expect(open).toBeGreaterThanOrEqual(0);
    expect(frames.frames[open]!.data.params).toEqual({ path: ws.projectSettings, pointer: "/hooks/PreToolUse/0/hooks/0" }); // at the hook
    expect(frames.frames[answered]!.data.result).toMatchObject({ opened: true });
    expect([open < shown, shown < answered, answered < prefill, prefill < closed]).toEqual([true, true, true, true]);
    await page.screenshot({ path: join(SCREENSHOTS, "chat-prefilled-with-file-viewer.png"), fullPage: true });

    // The chat view leads back to the settings page.
    await page.locator("[data-action=open-settings]").click();
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("2 · ⚠ 1");
    expect(problems).toEqual([]);
  });

  it("New asks the server for the prompt and prefills the chat with it, editable", async () => {
    ws = standardWorkspace();
    const { page, problems } = await openSettings();
    await tab(page, "project").click();
    await page.locator("[data-action=new]").click();
    const input = page.locator("wave-chat-panel textarea");
    await expect
      .poll(() => input.inputValue())
      .toBe("帮我在【my-app】新建钩子：<事件>时，<matcher 工具>，跑<命令>，<超时/异步>");
    await input.press("End");
    await input.pressSequentially(" 谢谢");
    await expect.poll(() => input.inputValue()).toMatch(/ 谢谢$/);
    expect(problems).toEqual([]);
  });

  it("refreshes the list when a config file changes on disk", async () => {
    ws = standardWorkspace();
    const { page } = await openSettings();
    ws.write(
      ws.userSettings,
      hooksFile(
        {
          Stop: [{ hooks: [command("notify-send done", { timeout: 5 })] }],
          UserPromptSubmit: [{ hooks: [command("./context.sh")] }],
        },
        { enabledPlugins: { fmt: true } },
      ),
    );
    await expect.poll(() => page.getByTestId("count-user").innerText(), { timeout: 15_000 }).toBe("2");
    await tab(page, "user").click();
    await expect.poll(async () => (await rows(page, "user").allInnerTexts()).join("\n")).toContain("./context.sh");
    await page.screenshot({ path: join(SCREENSHOTS, "settings-user-tab.png"), fullPage: true });
  });

  it("lists Copilot and Snow hooks beside Wave's with a dialect badge and their file; Edit and Delete work on them", async () => {
    ws = e2e.workspace();
    ws.write(ws.projectSettings, hooksFile({ Stop: [{ hooks: [command("./wave-stop.sh")] }] }));
    const copilot = ws.write(join(ws.project, ".github", "hooks", "team.json"), {
      version: 1,
      hooks: { preToolUse: [{ bash: "./guard.sh", matcher: "bash" }, { bash: "./audit.sh" }] },
    });
    const snow = ws.write(join(ws.project, ".snow", "hooks", "onStop.json"), [
      { description: "ask", hooks: [{ type: "prompt", prompt: "下一步？", enabled: true }] },
    ]);
    const { page, problems } = await openSettings();
    await tab(page, "project").click();
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("4");
    const row = (text: string) => rows(page, "project").filter({ hasText: text });
    const group = (event: string) => panel(page, "project").locator(`[data-testid=group][data-event=${event}]`);
    const section = (event: string) => panel(page, "project").locator("section.group", { has: page.locator(`[data-testid=group][data-event=${event}]`) });
    // Every dialect is listed, each row with its badge and its file relative to the project.
    await expect.poll(() => rows(page, "project").locator("[data-testid=dialect]").allInnerTexts()).toEqual(
      expect.arrayContaining(["格式：Wave", "格式：Copilot CLI", "格式：Snow CLI"]),
    );
    await expect.poll(() => row("./wave-stop.sh").getByTestId("dialect").innerText()).toBe("格式：Wave");
    await expect.poll(() => row("./wave-stop.sh").getByTestId("row-path").innerText()).toBe(".wave/settings.json");
    for (const command of ["./guard.sh", "./audit.sh"]) {
      await expect.poll(() => row(command).getByTestId("dialect").innerText()).toBe("格式：Copilot CLI");
      await expect.poll(() => row(command).getByTestId("row-path").innerText()).toBe(".github/hooks/team.json");
      await expect.poll(() => row(command).getByTestId("row-path").getAttribute("title")).toBe(copilot); // the absolute path on hover
      await expect.poll(() => row(command).getAttribute("data-event")).toBe("preToolUse");
    }
    // One moment, one group: the catalogue's event heads it, each row says its own file's name
    // for it beside its format.
    await expect.poll(() => group("PreToolUse").innerText()).toContain("PreToolUse：2 个");
    await expect.poll(() => group("PreToolUse").innerText()).toContain("工具调用前");
    await expect.poll(() => row("./guard.sh").getByTestId("file-event").innerText()).toBe("preToolUse");
    await expect.poll(() => row("./wave-stop.sh").getByTestId("file-event").count()).toBe(0);
    const snowRow = row("下一步？");
    await expect.poll(() => snowRow.getByTestId("dialect").innerText()).toBe("格式：Snow CLI");
    await expect.poll(() => snowRow.innerText()).toContain("提示（询问用户）");
    await expect.poll(() => snowRow.getByTestId("row-path").innerText()).toBe(".snow/hooks/onStop.json");
    await expect.poll(() => snowRow.getByTestId("row-path").getAttribute("title")).toBe(snow);
    // Wave's Stop and Snow's onStop hooks sit together, and the page says a session runs both.
    await expect.poll(() => group("Stop").innerText()).toContain("Stop：2 个");
    await expect.poll(() => group("Stop").innerText()).toContain("智能体完成回复时");
    await expect.poll(() => section("Stop").locator("li.hook").count()).toBe(2);
    const both = section("Stop").getByTestId("both-fire");
    await expect.poll(() => both.innerText()).toBe("每次 Stop 时，Wave 和 Snow CLI 的钩子都会运行。");
    await expect.poll(() => section("PreToolUse").getByTestId("both-fire").count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, "settings-dialects.png"), fullPage: true });

    const dialog = page.getByTestId("delete-dialog");
    await rows(page, "project").filter({ hasText: "./guard.sh" }).locator("[data-action=delete]").click();
    await expect.poll(() => page.getByTestId("delete-path").innerText()).toBe(copilot);
    await dialog.locator("[data-action=confirm]").click();
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("3");
    expect(JSON.parse(readFileSync(copilot, "utf8"))).toEqual({ version: 1, hooks: { preToolUse: [{ bash: "./audit.sh" }] } });

    await rows(page, "project").filter({ hasText: "下一步？" }).locator("[data-action=edit]").click();
    await expect.poll(() => page.getByTestId("viewer-path").innerText()).toBe(snow);
    const input = page.locator("wave-chat-panel textarea");
    await expect.poll(() => input.inputValue()).toContain("onStop [Snow CLI]");
    expect(problems).toEqual([]);
  });

  it("lists Claude Code's own .claude files under their own format chip, beside Wave's; Delete works on them", async () => {
    ws = e2e.workspace();
    ws.write(ws.projectSettings, hooksFile({ Stop: [{ hooks: [command("./wave-stop.sh")] }] }));
    const claudeProject = ws.write(
      ws.claudeProjectSettings,
      hooksFile({
        PreToolUse: [{ matcher: "Bash", hooks: [command("./claude-guard.sh"), command("./claude-audit.sh")] }],
        Stop: [
          {
            hooks: [
              { type: "http", url: "https://hooks.example.com/stop" },
              { type: "prompt", prompt: "Did it run the tests?" },
              { type: "agent", prompt: "Verify the tests pass" },
            ],
          },
        ],
      }),
    );
    ws.write(ws.claudeUserSettings, hooksFile({ Stop: [{ hooks: [command("say done")] }] }));
    const { page, problems } = await openSettings("en-US");
    await expect.poll(() => page.getByTestId("count-user").innerText()).toBe("1");
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("6");
    const userRow = rows(page, "user").first();
    await expect.poll(() => userRow.isVisible()).toBe(true);
    await expect.poll(() => userRow.getByTestId("dialect").innerText()).toBe("Format: Claude Code");
    await expect.poll(() => userRow.getByTestId("row-path").innerText()).toBe("~/.claude/settings.json");

    await tab(page, "project").click();
    const row = (text: string) => rows(page, "project").filter({ hasText: text });
    await expect.poll(() => row("./claude-guard.sh").isVisible()).toBe(true);
    await expect.poll(() => row("./wave-stop.sh").getByTestId("dialect").innerText()).toBe("Format: Wave");
    for (const text of ["./claude-guard.sh", "./claude-audit.sh"]) {
      await expect.poll(() => row(text).getByTestId("dialect").innerText()).toBe("Format: Claude Code");
      await expect.poll(() => row(text).getByTestId("row-path").innerText()).toBe(".claude/settings.json");
      await expect.poll(() => row(text).getAttribute("data-dialect")).toBe("claude");
    }
    // Handler types that run no command say how they run; the row names them as Claude Code does
    await expect.poll(() => row("https://hooks.example.com/stop").getByTestId("kind").innerText()).toBe("HTTP");
    await expect.poll(() => row("Did it run the tests?").getByTestId("kind").innerText()).toBe("prompt (the model judges)");
    await expect.poll(() => row("Verify the tests pass").getByTestId("kind").innerText()).toBe("agent (a subagent checks)");
    await expect.poll(() => row("./claude-guard.sh").getByTestId("kind").count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, "settings-claude-code-files.png"), fullPage: true });

    await row("./claude-guard.sh").locator("[data-action=delete]").click();
    await expect.poll(() => page.getByTestId("delete-path").innerText()).toBe(claudeProject);
    await page.getByTestId("delete-dialog").locator("[data-action=confirm]").click();
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("5");
    expect(JSON.parse(readFileSync(claudeProject, "utf8")).hooks.PreToolUse[0].hooks).toEqual([command("./claude-audit.sh")]);
    expect(problems).toEqual([]);
  });

  it("tells the user when wavehost goes away", async () => {
    ws = standardWorkspace();
    const { page } = await openSettings();
    await server!.stop();
    const banner = page.getByTestId("gone");
    await expect.poll(() => banner.innerText(), { timeout: 15_000 }).toContain("wavehost 已停止运行，此页面暂时无法修改任何内容。");
    await expect.poll(() => banner.innerText()).toContain("重新启动 wavehost");
    // Nothing that needs the server can be clicked any more.
    for (const action of ["delete", "edit", "test", "new"]) {
      const button = page.locator(`[data-action=${action}]`).first();
      expect(await button.evaluate((b) => b.hasAttribute("disabled")), action).toBe(true);
    }
    await expect.poll(() => page.locator("[data-action=reload]").isVisible()).toBe(true);
  });

  it("is refused without the token, in a fresh browser profile", async () => {
    ws = standardWorkspace();
    server = await e2e.web(ws, "zh-CN");
    const context = await e2e.browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(server.address);
    expect(response?.status()).toBe(403);
    await expect.poll(() => page.locator("body").innerText()).toContain("wavehost web needs its token");
    await context.close();
  });

  it("follows a dark colour scheme", async () => {
    ws = standardWorkspace();
    server = await e2e.web(ws, "zh-CN");
    const page = await e2e.browser.newPage({ viewport: { width: 1100, height: 600 }, colorScheme: "dark" });
    await page.goto(server.url);
    await page.getByTestId("count-user").waitFor();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(31, 31, 31)");
    await page.screenshot({ path: join(SCREENSHOTS, "settings-dark.png"), fullPage: true });
  });
});
