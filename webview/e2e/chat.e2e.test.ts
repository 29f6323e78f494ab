/**
 * A chat turn in browser mode, end to end: real Chromium, `wavehost web`, `wavehost serve`, the
 * scripted provider (the model's turns come from a file) and real hook processes.
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { SCREENSHOTS, collectProblems, command, e2eSuite, hooksFile } from "./harness";

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
    await expect.poll(() => panel.locator("[data-action=send]").getAttribute("disabled"), { timeout: 30_000 }).toBeNull();

    await input.fill("清理一下，然后写个计划");
    await input.press("Enter");

    // Write needs a yes in the default permission mode.
    const prompt = panel.getByTestId("permission");
    await expect.poll(() => prompt.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await prompt.innerText()).toContain("允许 Write 吗？");
    await prompt.locator("[data-action=allow]").click();

    // The Read hook sleeps 3 s with a statusMessage: shown while it runs; a message sent now queues.
    await expect.poll(() => panel.getByTestId("running").innerText(), { timeout: 30_000 }).toContain("正在检查读取…");
    await input.fill("还有吗？");
    await input.press("Enter");
    await expect.poll(() => panel.getByTestId("queued").innerText()).toContain("还有吗？");

    await expect.poll(() => panel.locator(".log").innerText(), { timeout: 30_000 }).toContain("这是第二条消息的回复。");
    await expect.poll(() => panel.getByTestId("running").count()).toBe(0);
    expect(await panel.getByTestId("queued").count()).toBe(0);

    // Tool headers say what ran; one "Wave" header per turn (two turns), not per message.
    expect(await panel.getByTestId("tool-title").allInnerTexts()).toEqual(["Bash · rm -rf build", "Write · PLAN.md", "Read · PLAN.md"]);
    expect(await panel.locator(".msg.assistant .who").count()).toBe(2);
    const bash = panel.locator(".tool[data-tool=Bash]");
    expect(await bash.getAttribute("data-status")).toBe("blocked"); // a hook refused it: it never ran
    expect(await bash.getByTestId("tool-error").innerText()).toBe("PreToolUse:Bash hook error: Refusing rm -rf");
    expect(await panel.locator(".tool[data-tool=Write]").getAttribute("data-status")).toBe("success");
    expect(readFileSync(join(ws.project, "PLAN.md"), "utf8")).toBe("# Plan\n");
    expect(existsSync(join(ws.project, "build"))).toBe(false);

    const notices = panel.locator(".notice[data-level=info]");
    expect(await notices.allInnerTexts()).toEqual([
      expect.stringContaining("第 1 轮完成 | 想停：/cancel"),
      expect.stringContaining("第 1 轮完成 | 想停：/cancel"),
    ]);
    expect(await panel.locator(".markdown strong").first().innerText()).toBe("build");
    const shown = await panel.locator(".log").innerText();
    expect(shown).not.toContain("secret context for the model"); // isMeta: for the model only
    expect(await panel.locator("[data-role=user]").allInnerTexts()).toEqual([
      expect.stringContaining("清理一下，然后写个计划"),
      expect.stringContaining("还有吗？"),
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, "chat-turn-browser-mode.png"), fullPage: true });

    // Compaction: the model summarises; the page marks where, with the summary folded.
    await panel.locator("[data-action=compact]").click();
    const marker = panel.getByTestId("compacted");
    await expect.poll(() => marker.count(), { timeout: 30_000 }).toBe(1);
    await marker.locator("summary").click();
    expect(await marker.innerText()).toContain("清理被钩子拦下；PLAN.md 已写好。");
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
      expect(await page.locator("wave-chat-panel").getByTestId("draft-kept").innerText()).toContain("你的草稿保留在上方");
      await page.screenshot({ path: join(SCREENSHOTS, `chat-draft-kept-${viewport.width}.png`), fullPage: true });
      await input.fill("");
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
