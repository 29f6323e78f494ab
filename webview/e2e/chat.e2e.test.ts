/**
 * A chat turn in browser mode, end to end: real Chromium, `wavehost web`, `wavehost serve`, the
 * scripted provider (the model's turns come from a file) and real hook processes. Also the
 * README's main job as `scripts/demo` runs it: the demo project and its demo-chat.json (its
 * screenshots are the README's; docs/screenshots/ holds copies).
 */

import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { REPO, SCREENSHOTS, collectProblems, command, e2eSuite, hooksFile } from "./harness";

const e2e = e2eSuite();

const TURNS = [
  { text: "先清理 **build** 目录。", tool_calls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
  { text: "钩子拦下了。我把计划写下来。", tool_calls: [{ name: "Write", input: { file_path: "PLAN.md", content: "# Plan\n" } }] },
  { text: "再看一眼。", tool_calls: [{ name: "Read", input: { file_path: "PLAN.md" } }] },
  { text: "完成：`PLAN.md` 已写好。" },
  { text: "这是第二条消息的回复。" },
  { text: "清理被钩子拦下；PLAN.md 已写好。" }, // the compaction's summary
];

describe("chat panel in browser mode", () => {
  it("a PreToolUse hook blocks a tool: failure text, systemMessage notice, permission, queue, compaction", async () => {
    const ws = e2e.workspace();
    ws.write(
      ws.projectSettings,
      hooksFile({
        UserPromptSubmit: [{ hooks: [command("echo 'secret context for the model'")] }],
        PreToolUse: [
          { matcher: "Bash", hooks: [command("echo 'Refusing rm -rf' >&2; exit 2")] },
          { matcher: "Read", hooks: [command("sleep 3", { statusMessage: "正在检查读取…" })] },
        ],
        Stop: [{ hooks: [command(`echo '{"systemMessage": "第 1 轮完成 | 想停：/cancel"}'`)] }],
      }),
    );
    const script = ws.write(join(ws.root, "turns.json"), { turns: TURNS });
    const server = await e2e.web(ws, "zh-CN", [], { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });
    const page = await e2e.browser.newPage({ viewport: { width: 1000, height: 900 } });
    const problems = collectProblems(page);
    await page.goto(`${server.url}&view=chat`); // the token goes, view=chat stays
    const panel = page.locator("wave-chat-panel");
    const input = panel.locator("textarea");
    // The first wave/chat/open loads the session runtime: seconds on a busy machine.
    const send = panel.locator("[data-action=send]");
    await expect.poll(() => send.getAttribute("disabled"), { timeout: 30_000 }).toBeNull();

    await input.fill("清理一下，然后写个计划");
    await input.press("Enter");

    // Write needs a yes in the default permission mode.
    const prompt = panel.getByTestId("permission");
    await expect.poll(() => prompt.isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => prompt.innerText()).toContain("允许 Write 吗？");
    await prompt.locator("[data-action=allow]").click();

    // The Read hook sleeps 3 s with a statusMessage: shown while it runs; a message sent now queues.
    await expect.poll(() => panel.getByTestId("running").innerText(), { timeout: 30_000 }).toContain("正在检查读取…");
    await input.fill("还有吗？");
    await input.press("Enter");
    await expect.poll(() => panel.getByTestId("queued").innerText()).toContain("还有吗？");

    await expect.poll(() => panel.locator(".log").innerText(), { timeout: 30_000 }).toContain("这是第二条消息的回复。");
    await expect.poll(() => panel.getByTestId("running").count()).toBe(0);
    await expect.poll(() => panel.getByTestId("queued").count()).toBe(0);

    // Tool headers say what ran; one "Wave" header per turn (two turns), not per message.
    await expect.poll(() => panel.getByTestId("tool-title").allInnerTexts()).toEqual(["Bash · rm -rf build", "Write · PLAN.md", "Read · PLAN.md"]);
    await expect.poll(() => panel.locator(".msg.assistant .who").count()).toBe(2);
    const bash = panel.locator(".tool[data-tool=Bash]");
    await expect.poll(() => bash.getAttribute("data-status")).toBe("blocked"); // a hook refused it: it never ran
    await expect.poll(() => bash.getByTestId("tool-error").innerText()).toBe("PreToolUse:Bash hook error: Refusing rm -rf");
    await expect.poll(() => panel.locator(".tool[data-tool=Write]").getAttribute("data-status")).toBe("success");
    expect(readFileSync(join(ws.project, "PLAN.md"), "utf8")).toBe("# Plan\n");
    expect(existsSync(join(ws.project, "build"))).toBe(false);

    const notices = panel.locator(".notice[data-level=info]");
    await expect.poll(() => notices.allInnerTexts()).toEqual([
      expect.stringContaining("第 1 轮完成 | 想停：/cancel"),
      expect.stringContaining("第 1 轮完成 | 想停：/cancel"),
    ]);
    await expect.poll(() => panel.locator(".markdown strong").first().innerText()).toBe("build");
    await expect.poll(() => panel.locator(".log").innerText()).not.toContain("secret context for the model"); // isMeta: for the model only
    await expect.poll(() => panel.locator("[data-role=user]").allInnerTexts()).toEqual([
      expect.stringContaining("清理一下，然后写个计划"),
      expect.stringContaining("还有吗？"),
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, "chat-turn-browser-mode.png"), fullPage: true });

    // Compaction: the model summarises; the page marks where, with the summary folded.
    await panel.locator("[data-action=compact]").click();
    const marker = panel.getByTestId("compacted");
    await expect.poll(() => marker.count(), { timeout: 30_000 }).toBe(1);
    await marker.locator("summary").click();
    await expect.poll(() => marker.innerText()).toContain("清理被钩子拦下；PLAN.md 已写好。");
    expect(problems).toEqual([]);
  });

  it("Esc stops a running turn; a draft survives switching views; New's prefill keeps the draft", async () => {
    const ws = e2e.workspace();
    ws.write(
      ws.projectSettings,
      hooksFile({ PreToolUse: [{ matcher: "Bash", hooks: [command("sleep 60", { statusMessage: "正在检查命令…" })] }] }),
    );
    const script = ws.write(join(ws.root, "turns.json"), { turns: [{ text: "先看看。", tool_calls: [{ name: "Bash", input: { command: "ls" } }] }, { text: "好。" }] });
    const server = await e2e.web(ws, "zh-CN", [], { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });
    for (const viewport of [{ width: 1200, height: 800 }, { width: 420, height: 800 }]) {
      const page = await e2e.browser.newPage({ viewport });
      const problems = collectProblems(page);
      await page.goto(`${server.url}&view=chat`);
      const panel = page.locator("wave-chat-panel");
      const input = panel.locator("textarea");
      await expect.poll(() => panel.locator("[data-action=send]").getAttribute("disabled")).toBeNull();
      if (viewport.width === 1200) {
        await input.fill("看一下目录");
        await input.press("Enter");
        await expect.poll(() => panel.getByTestId("running").innerText(), { timeout: 30_000 }).toContain("正在检查命令…");
        const started = Date.now();
        await page.keyboard.press("Escape");
        await expect.poll(() => panel.getByTestId("running").count(), { timeout: 30_000 }).toBe(0);
        expect(Date.now() - started).toBeLessThan(45_000); // stopped, not the hook's 60 s
        // Focus is in the message box after Stop, as it was on load.
        await expect.poll(() => input.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
      }
      // A draft survives a trip to the settings page and back.
      await input.fill("我还没写完的问题");
      await page.locator("[data-action=open-settings]").click();
      await page.getByTestId("count-user").waitFor();
      await page.locator("[data-action=back-to-chat]").click();
      await expect.poll(() => page.locator("wave-chat-panel textarea").inputValue()).toBe("我还没写完的问题");
      // New prefills the chat: the draft stays above the suggested text, and the panel says so.
      await page.locator("[data-action=open-settings]").click();
      await page.getByTestId("count-user").waitFor();
      await page.locator("[data-action=new]").click();
      const value = () => page.locator("wave-chat-panel textarea").inputValue();
      await expect.poll(value).toMatch(/^我还没写完的问题\n\n\S/);
      await expect.poll(() => page.locator("wave-chat-panel").getByTestId("draft-kept").innerText()).toContain("你的草稿保留在上方");
      await page.screenshot({ path: join(SCREENSHOTS, `chat-draft-kept-${viewport.width}.png`), fullPage: true });
      await input.fill("");
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});

const DEMO = join(REPO, "examples", "demo-project");

/** The demo project copied into a fresh workspace, and its scripted conversation's path. */
function demoWorkspace() {
  const ws = e2e.workspace();
  cpSync(DEMO, ws.project, { recursive: true });
  // Written through the workspace, so that everything is owned as the server expects.
  const script = ws.write(join(ws.project, "demo-chat.json"), readFileSync(join(DEMO, "demo-chat.json"), "utf8"));
  return { ws, script };
}

describe("the demo (scripts/demo)", () => {
  it("lists the demo's hooks, and its chat fires them: Bash blocked, PLAN.md written, the Stop line", async () => {
    const { ws, script } = demoWorkspace();
    const server = await e2e.web(ws, "en", [], { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });
    const page = await e2e.browser.newPage({ viewport: { width: 1000, height: 620 } });
    const problems = collectProblems(page);

    await page.goto(server.url);
    await page.locator("[role=tab][data-source=project]").click();
    const rows = page.locator("[role=tabpanel][data-source=project] li.hook");
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(4);
    // One row per event, each under its event's heading (the groups in the catalogue's order).
    const events = await rows.evaluateAll((lis) => lis.map((li) => li.getAttribute("data-event")));
    expect([...events].sort()).toEqual(["PostToolUse", "PreToolUse", "Stop", "UserPromptSubmit"]);
    const headings = page.locator("[role=tabpanel][data-source=project] [data-testid=group]");
    expect((await headings.allInnerTexts()).map((t) => t.split(":")[0])).toEqual(events);
    await expect.poll(() => rows.filter({ hasText: "Refuses destructive shell commands" }).getAttribute("data-event")).toBe("PreToolUse");
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

    await expect.poll(() => panel.locator(".tool[data-tool=Bash]").getByTestId("tool-error").innerText()).toBe(
      "PreToolUse:Bash hook error: Refusing a destructive command: rm -rf build",
    );
    await expect.poll(() => panel.locator(".tool[data-tool=Write]").getAttribute("data-status")).toBe("success");
    expect(readFileSync(join(ws.project, "PLAN.md"), "utf8")).toContain("TODO: auth");
    await expect.poll(() => panel.locator(".notice[data-level=info]").innerText()).toContain("Stop hook ran: reply finished");
    expect(existsSync(join(ws.project, "build"))).toBe(false);
    await page.screenshot({ path: join(SCREENSHOTS, "demo-chat.png") });
    expect(problems).toEqual([]);
  });

  it("a chat with no model provider says why in the page's language, the server's sentence as the detail", async () => {
    const ws = e2e.workspace();
    const none = { WAVE_PROVIDER: "", WAVE_SCRIPT: "", ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };
    const server = await e2e.web(ws, "zh-CN", [], none);
    const page = await e2e.browser.newPage();
    for (const [locale, reason] of [
      ["zh-CN", "对话不可用：没有可用的模型服务（wavehost 的原话：no model provider: pass --provider"],
      ["en", "Chat is unavailable: no model provider can be used (wavehost said: no model provider: pass --provider"],
    ] as const) {
      await page.goto(`${server.url}&view=chat&locale=${locale}`);
      const unavailable = page.locator("wave-chat-panel").getByTestId("chat-unavailable");
      await expect.poll(() => unavailable.innerText(), { timeout: 30_000 }).toContain(reason);
    }
    await page.screenshot({ path: join(SCREENSHOTS, "chat-no-provider.png") });
  });

  it("renders in the language of ?locale= in the address, whatever the shell's locale, prompts too", async () => {
    const { ws } = demoWorkspace();
    const server = await e2e.web(ws, "en");
    const page = await e2e.browser.newPage();
    await page.goto(`${server.url}&locale=zh-CN`);
    const tab = page.locator("[role=tab][data-source=project]");
    await expect.poll(() => tab.innerText(), { timeout: 30_000 }).toContain("项目级钩子");
    // The New prompt the server prefills follows the page, not the shell's English.
    await tab.click();
    await page.locator("[data-action=new]").click(); // the toolbar's New is for the tab shown
    const input = page.locator("wave-chat-panel textarea");
    await expect.poll(() => input.inputValue(), { timeout: 30_000 }).toMatch(/^帮我在【.+】新建钩子/);
    await page.goto(server.address); // the cookie is kept; no ?locale= now: the shell's English
    await expect.poll(() => tab.innerText(), { timeout: 30_000 }).toContain("Project hooks");
  });
});
