/**
 * The chat panel as users judge it (issue: chat clarity): a hook's notice names its hook and links
 * to its settings row, a tool a hook refused is "blocked by hook", a permission question says the
 * turn waits for the user, takes focus and previews the change; axe-core with no violations on the
 * empty, waiting and finished chat, light and dark; screenshots at 1200 and 420 px.
 * Real `wavehost web`, the scripted provider, real hook processes, Debian's Chromium.
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { axeViolations } from "./axe";
import { SCREENSHOTS, collectProblems, command, e2eSuite, hooksFile } from "./harness";

const e2e = e2eSuite();
const WAIT = { timeout: 30_000 };
const FAILING_FORMATTER = "echo 'prettier not found' >&2; exit 1";

const TURNS = [
  { text: "先清理。", tool_calls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
  { text: "写计划。", tool_calls: [{ name: "Write", input: { file_path: "PLAN.md", content: "# Plan\nstep one\n" } }] },
  { text: "好了。" },
];

async function expectAccessible(page: Page, what: string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const violations = await axeViolations(page);
    expect(violations, `${what} (${scheme}): ${JSON.stringify(violations, null, 1)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

function chatWorkspace() {
  const ws = e2e.workspace();
  ws.write(
    ws.projectSettings,
    hooksFile({
      PreToolUse: [{ matcher: "Bash", hooks: [command("echo 'Refusing rm -rf' >&2; exit 2")] }],
      PostToolUse: [{ matcher: "Write|Edit", hooks: [command(FAILING_FORMATTER)] }],
    }),
  );
  const script = ws.write(join(ws.root, "turns.json"), { turns: TURNS });
  return { ws, env: { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script } };
}

describe("chat panel: clarity", () => {
  for (const viewport of [
    { width: 1200, height: 900 },
    { width: 420, height: 900 },
  ]) {
    it(`names hooks, blocks as its own state, asks with a preview and focus (${viewport.width} px)`, async () => {
      const { ws, env } = chatWorkspace();
      const server = await e2e.web(ws, "zh-CN", [], env);
      const page = await e2e.browser.newPage({ viewport });
      const problems = collectProblems(page);
      await page.goto(`${server.url}&view=chat`);
      const panel = page.locator("wave-chat-panel");
      const input = panel.locator("textarea");
      await expect.poll(() => panel.locator("[data-action=send]").getAttribute("disabled"), WAIT).toBeNull();
      await expectAccessible(page, `empty chat, ${viewport.width} px`);

      await input.fill("清理一下，然后写个计划");
      await input.press("Enter");

      // The question: the status says the turn waits for the user, the card has focus, the
      // change is previewed as lines (not JSON), and "Always allow" says its scope.
      const card = panel.getByTestId("permission");
      await expect.poll(() => card.count(), WAIT).toBe(1);
      await expect.poll(() => panel.getByTestId("running").innerText()).toContain("等待你的批准");
      await expect.poll(() => panel.getByTestId("running").innerText()).not.toContain("正在运行");
      await expect.poll(() => card.evaluate((el) => el.getRootNode() instanceof ShadowRoot && (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
      const preview = card.getByTestId("permission-preview");
      await expect.poll(() => preview.innerText()).toContain("# Plan");
      await expect.poll(() => preview.innerText()).not.toContain("file_path");
      await expect.poll(() => card.innerText()).toContain("对 PLAN.md 的改动");
      await expect.poll(() => card.locator("[data-action=always]").innerText()).toBe("本次对话中始终允许 Write");
      // The refused Bash call above it is blocked by its hook, which is named.
      const bash = panel.locator(".tool[data-tool=Bash]");
      await expect.poll(() => bash.getAttribute("data-status")).toBe("blocked");
      await expect.poll(() => bash.getByTestId("tool-status").innerText()).toBe("被钩子拦下");
      await expect.poll(() => bash.getByTestId("blocked-by").innerText()).toContain("PreToolUse:Bash");
      await expect.poll(() => bash.getByTestId("blocked-by").innerText()).toContain("· 项目 ·");
      await expect.poll(() => bash.getByTestId("blocked-by").innerText()).toContain("echo 'Refusing rm -rf' >&2; exit 2");
      await expectAccessible(page, `permission pending, ${viewport.width} px`);
      await page.screenshot({ path: join(SCREENSHOTS, `chat-permission-${viewport.width}.png`), fullPage: true });

      if (viewport.width === 420) {
        // Esc on the card denies that call alone: the turn goes on to its last reply, Write never
        // ran, and focus is back in the message box.
        await page.keyboard.press("Escape");
        await expect.poll(() => card.count(), WAIT).toBe(0);
        await expect.poll(() => panel.locator(".log").innerText(), WAIT).toContain("好了。");
        await expect.poll(() => panel.getByTestId("running").count(), WAIT).toBe(0);
        await expect.poll(() => panel.locator(".tool[data-tool=Write]").getAttribute("data-status")).not.toBe("success");
        expect(existsSync(join(ws.project, "PLAN.md"))).toBe(false);
        await expect.poll(() => input.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
        expect(problems).toEqual([]);
        return;
      }

      await card.locator("[data-action=allow]").click();
      await expect.poll(() => panel.locator(".log").innerText(), WAIT).toContain("好了。");
      await expect.poll(() => panel.getByTestId("running").count(), WAIT).toBe(0);
      expect(readFileSync(join(ws.project, "PLAN.md"), "utf8")).toBe("# Plan\nstep one\n");
      await expect.poll(() => panel.locator(".tool[data-tool=Write]").getAttribute("data-status")).toBe("success");

      // The formatter's failure names its hook: event:tool, exit code, source and command.
      const notice = panel.locator(".notice[data-level=error]");
      await expect.poll(() => notice.count()).toBe(1);
      await expect.poll(() => notice.getByTestId("notice-hook").innerText()).toContain("PostToolUse:Write 钩子失败（退出码 1）");
      await expect.poll(() => notice.getByTestId("notice-hook").innerText()).toContain("· 项目 ·");
      await expect.poll(() => notice.getByTestId("notice-hook").innerText()).toContain(FAILING_FORMATTER);
      await expect.poll(() => notice.innerText()).toContain("prettier not found");
      await expectAccessible(page, `finished chat, ${viewport.width} px`);
      await page.screenshot({ path: join(SCREENSHOTS, `chat-finished-${viewport.width}.png`), fullPage: true });

      // "Show in settings" opens the settings page at that hook's row, focused.
      const hookId = await notice.getAttribute("data-hook-id");
      await notice.locator("[data-action=show-hook]").click();
      const row = page.locator(`li.hook[data-hook-id="${hookId}"]`);
      await expect.poll(() => row.count(), WAIT).toBe(1);
      await expect.poll(() => page.locator("[role=tab][data-source=project]").getAttribute("aria-selected")).toBe("true");
      await expect.poll(() => row.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
      await expect.poll(() => row.getAttribute("data-revealed")).toBe("");
      await expect.poll(() => row.innerText()).toContain(FAILING_FORMATTER);
      await page.screenshot({ path: join(SCREENSHOTS, `chat-show-hook-${viewport.width}.png`), fullPage: true });
      expect(problems).toEqual([]);
    });
  }
});
