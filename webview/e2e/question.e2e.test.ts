/**
 * Questions in the chat panel, end to end in browser mode (real Chromium, `wavehost web`, the
 * scripted provider, real hook processes): the model's AskUserQuestion is a card with its choices,
 * and a Snow `onStop` prompt action is a card asking for the user's words, whose answer is the
 * next message. A question is session state: a reloaded page gets it back and answers it.
 */

import { join } from "node:path";

import { describe, expect, it } from "vitest";

import type { Locator, Page } from "playwright-core";

import { SCREENSHOTS, type Workspace, collectProblems, e2eSuite } from "./harness";

const e2e = e2eSuite();

const QUESTION = {
  question: "用哪种部署方式？",
  header: "部署",
  options: [
    { label: "Docker", description: "容器" },
    { label: "Kubernetes", description: "集群" },
  ],
  multiSelect: false,
};

/** `wavehost web` on this workspace with the model's turns; a chat page that said "部署一下". */
async function askedToDeploy(ws: Workspace, turns: unknown[]): Promise<{ page: Page; panel: Locator; problems: string[] }> {
  const script = ws.write(join(ws.root, "turns.json"), { turns });
  const server = await e2e.web(ws, "zh-CN", [], { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });
  const page = await e2e.browser.newPage({ viewport: { width: 1000, height: 900 } });
  const problems = collectProblems(page);
  await page.goto(`${server.url}&view=chat`);
  const panel = page.locator("wave-chat-panel");
  const input = panel.locator("textarea");
  await expect.poll(() => panel.locator("[data-action=send]").getAttribute("disabled"), { timeout: 30_000 }).toBeNull();
  await input.fill("部署一下");
  await input.press("Enter");
  return { page, panel, problems };
}

describe("questions in the chat panel", () => {
  it("AskUserQuestion shows a card; the chosen option is the tool result; a Snow prompt action asks for words", async () => {
    const ws = e2e.workspace();
    ws.write(join(ws.project, ".snow", "hooks", "onStop.json"), {
      onStop: [{ description: "ask", hooks: [{ type: "prompt", prompt: "还要做什么？", enabled: true }] }],
    });
    const turns = [
      { text: "先问一下。", tool_calls: [{ name: "AskUserQuestion", input: { questions: [QUESTION] } }] },
      { text: "好，用 Docker。" },
      { text: "测试也加上了。" },
    ];
    const { page, panel, problems } = await askedToDeploy(ws, turns);

    const card = panel.getByTestId("question");
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => card.innerText()).toContain("用哪种部署方式？");
    await expect.poll(() => card.locator("input[type=radio]").count()).toBe(2);
    await page.screenshot({ path: join(SCREENSHOTS, "chat-question-card.png"), fullPage: true });
    await card.locator("input[value=Docker]").check();
    await card.locator("[data-action=answer]").click();

    const tool = panel.locator(".tool[data-tool=AskUserQuestion]");
    await expect.poll(() => tool.getAttribute("data-status"), { timeout: 30_000 }).toBe("success");
    await tool.locator("details summary").last().click();
    await expect.poll(() => tool.innerText()).toContain('"用哪种部署方式？"="Docker"');

    // The reply ends: the onStop prompt action asks for the user's words.
    await expect.poll(() => card.innerText(), { timeout: 30_000 }).toContain("还要做什么？");
    await expect.poll(() => card.locator("input[type=radio]").count()).toBe(0);
    await card.locator("input[type=text]").fill("加上测试");
    await card.locator("[data-action=answer]").click();
    await expect.poll(() => panel.locator(".log").innerText(), { timeout: 30_000 }).toContain("测试也加上了。");
    await expect.poll(() => panel.locator("[data-role=user]").allInnerTexts()).toEqual([
      expect.stringContaining("部署一下"),
      expect.stringContaining("加上测试"),
    ]);
    // After the second reply the prompt action asks again; dismissing ends the turn.
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    await card.locator("[data-action=dismiss]").click();
    await expect.poll(() => card.count()).toBe(0);
    await expect.poll(() => panel.locator(".notice[data-level=info]").allInnerTexts()).toEqual([
      expect.stringContaining("还要做什么？"),
    ]);
    expect(problems).toEqual([]);
  });

  it("a page reloaded while the model's question is open gets the card back; answering it there continues the turn", async () => {
    const ws = e2e.workspace();
    const turns = [
      { text: "先问一下。", tool_calls: [{ name: "AskUserQuestion", input: { questions: [QUESTION] } }] },
      { text: "好，用 Kubernetes。" },
    ];
    const { page, panel, problems } = await askedToDeploy(ws, turns);
    await expect.poll(() => panel.getByTestId("question").count(), { timeout: 30_000 }).toBe(1);
    const sessionId = await panel.getAttribute("data-session-id");

    await page.reload(); // the shell destroys the page and makes it again (same tab, same state)
    const again = page.locator("wave-chat-panel");
    const card = again.getByTestId("question");
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => again.getAttribute("data-session-id")).toBe(sessionId);
    await expect.poll(() => card.innerText()).toContain("用哪种部署方式？");
    await expect.poll(() => again.locator("[data-role=user]").innerText()).toContain("部署一下"); // the snapshot
    await page.screenshot({ path: join(SCREENSHOTS, "chat-question-after-reload.png"), fullPage: true });

    await card.locator("input[value=Kubernetes]").check();
    await card.locator("[data-action=answer]").click();
    await expect.poll(() => again.locator(".log").innerText(), { timeout: 30_000 }).toContain("好，用 Kubernetes。");
    await expect.poll(() => card.count()).toBe(0);
    const tool = again.locator(".tool[data-tool=AskUserQuestion]");
    await expect.poll(() => tool.getAttribute("data-status")).toBe("success");
    await tool.locator("details summary").last().click();
    await expect.poll(() => tool.innerText()).toContain('"用哪种部署方式？"="Kubernetes"');
    expect(problems).toEqual([]);
  });
});
