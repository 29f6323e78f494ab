/**
 * The chat where IDE chats live (issue 30 items 4 and 5): at 297 px (VS Code's default sidebar)
 * and 360 px every control of a turn in progress is in view and takes a click — the permission
 * prompt's Allow and Deny, each queued message's Remove, Stop — and nothing overflows sideways. Esc
 * on the prompt denies that call alone: the turn goes on. Stop ends the turn only: the queued
 * messages stay queued ("Stopped: these wait for you"), each removable, sent when the user says
 * so; the message box has the focus again. Real `wavehost web`, the scripted provider, real Bash
 * processes, Debian's Chromium; screenshots in build/screenshots.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";

import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { SCREENSHOTS, type Workspace, collectProblems, e2eSuite } from "./harness";

const e2e = e2eSuite();
const WAIT = { timeout: 30_000 };
/** A command that prints two lines (then says so with a file), then runs until it is stopped. */
const PRINTED = ".printed";
const LONG_COMMAND = `echo step one; echo step two; touch ${PRINTED}; while true; do sleep 0.2; done`;
const QUEUED = ["then update the docs", "and run the linters on every package of the workspace, one after the other"];

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

async function openChat(ws: Workspace, viewport: { width: number; height: number }, turns: unknown[]) {
  const script = ws.write(join(ws.root, "turns.json"), { turns });
  const server = await e2e.web(ws, "en", [], { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });
  const page = await e2e.browser.newPage({ viewport });
  const problems = collectProblems(page);
  await page.goto(`${server.url}&view=chat`);
  const panel = page.locator("wave-chat-panel");
  await expect.poll(() => panel.locator("[data-action=send]").getAttribute("disabled"), WAIT).toBeNull();
  return { page, panel, problems, input: panel.locator("textarea") };
}

async function type(input: Locator, text: string): Promise<void> {
  await input.fill(text);
  await input.press("Enter");
}

/** In the viewport whole (not clipped at any edge), and the point a click lands on is the
 * control's own (nothing covers it): Playwright's trial click checks what a real click would hit. */
async function expectReachable(page: Page, target: Locator, what: string): Promise<void> {
  const viewport = page.viewportSize()!;
  const box = await target.boundingBox();
  expect(box, `${what}: rendered`).not.toBeNull();
  expect(box!.width * box!.height, `${what}: has a size`).toBeGreaterThan(0);
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge`).toBeLessThanOrEqual(viewport.width);
  expect(box!.y + box!.height, `${what}: bottom edge`).toBeLessThanOrEqual(viewport.height);
  await target.click({ trial: true, timeout: 5_000 });
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0], "the page scrolls sideways").toBeLessThanOrEqual(widths[1]!);
}

describe("chat in a sidebar: every control in reach", () => {
  for (const viewport of [
    { width: 297, height: 700 },
    { width: 360, height: 740 },
  ]) {
    it(`at ${viewport.width} px: Allow, Deny, each queued message's Remove and Stop; Esc denies the call alone`, async () => {
      const ws = e2e.workspace();
      const turns = [
        { text: "Running the build.", tool_calls: [{ name: "Bash", input: { command: LONG_COMMAND, description: "Build every package" } }] },
        { text: "Understood, not running it." },
        { text: "Docs updated." },
        { text: "Linters are clean." },
      ];
      const { page, panel, problems, input } = await openChat(ws, viewport, turns);
      await type(input, "build it");
      const card = panel.getByTestId("permission");
      await expect.poll(() => card.innerText(), WAIT).toContain("Allow Bash?");
      for (const text of QUEUED) await type(input, text);
      const items = panel.getByTestId("queued-item");
      await expect.poll(() => items.allInnerTexts(), WAIT).toEqual(QUEUED.map((text) => expect.stringContaining(text)));

      const controls: [Locator, string][] = [
        [card.locator("[data-action=allow]"), "Allow"],
        [card.locator("[data-action=deny]"), "Deny"],
        [items.nth(0).locator("[data-action=remove-queued]"), "Remove (first queued)"],
        [items.nth(1).locator("[data-action=remove-queued]"), "Remove (second queued)"],
        [panel.locator("[data-action=cancel]"), "Stop"],
        [input, "message box"],
      ];
      for (const [target, what] of controls) await expectReachable(page, target, `${what} at ${viewport.width} px`);
      await expectNoSidewaysScroll(page);
      await shot(page, `chat-sidebar-asking-${viewport.width}`);

      // Esc on the prompt denies this call; the turn goes on (the model's next reply), then the
      // queued messages run in order — Esc did not stop the turn.
      await card.focus();
      await page.keyboard.press("Escape");
      await expect.poll(() => card.count(), WAIT).toBe(0);
      const log = panel.locator(".log");
      await expect.poll(() => log.innerText(), WAIT).toContain("Understood, not running it.");
      await expect.poll(() => log.innerText(), WAIT).toContain("Linters are clean.");
      await expect.poll(() => panel.getByTestId("queued").count(), WAIT).toBe(0);
      await expect.poll(() => panel.locator(".tool[data-tool=Bash]").getAttribute("data-status")).not.toBe("cancelled");
      expect(problems).toEqual([]);
    });
  }
});

describe("chat: Stop ends the turn and leaves the queue queued", () => {
  it("the queued messages wait after Stop, one is removed, Send queued sends the other; the message box has the focus", async () => {
    const ws = e2e.workspace();
    const turns = [
      { text: "Running the build.", tool_calls: [{ name: "Bash", input: { command: LONG_COMMAND } }] },
      { text: "Linters are clean." },
    ];
    const { page, panel, problems, input } = await openChat(ws, { width: 360, height: 740 }, turns);
    await type(input, "build it");
    const card = panel.getByTestId("permission");
    await expect.poll(() => card.innerText(), WAIT).toContain("Allow Bash?");
    await card.locator("[data-action=allow]").click();
    const bash = panel.locator(".tool[data-tool=Bash]");
    await expect.poll(() => bash.getAttribute("data-status"), WAIT).toBe("running");
    await expect.poll(() => existsSync(join(ws.project, PRINTED)), WAIT).toBe(true);
    for (const text of QUEUED) await type(input, text);
    const queue = panel.getByTestId("queued");
    const items = panel.getByTestId("queued-item");
    await expect.poll(() => items.count(), WAIT).toBe(2);
    await expect.poll(() => queue.getAttribute("data-held")).toBe("false");

    await panel.locator("[data-action=cancel]").click();
    await expect.poll(() => bash.getAttribute("data-status"), WAIT).toBe("cancelled");
    // What the command printed before Stop is in its card.
    await expect.poll(() => bash.getByTestId("tool-partial-output").innerText(), WAIT).toBe("step one\nstep two");
    await expect.poll(() => panel.locator("[data-action=cancel]").count(), WAIT).toBe(0); // the turn is over
    // Nothing started by itself: both messages are still queued, and the queue says why.
    await expect.poll(() => queue.getAttribute("data-held"), WAIT).toBe("true");
    await expect.poll(() => panel.getByTestId("queued-heading").innerText()).toBe("Stopped: these wait for you (2)");
    expect(await items.allInnerTexts()).toEqual(QUEUED.map((text) => expect.stringContaining(text)));
    expect(await panel.locator(".msg.user .bubble").allInnerTexts()).toEqual(["build it"]);
    await expect.poll(() => input.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
    await expectReachable(page, panel.locator("[data-action=send-queued]"), "Send queued");
    await shot(page, "chat-stopped-queue-held-360");

    // Remove the first; the second stays, still waiting.
    await items.nth(0).locator("[data-action=remove-queued]").click();
    await expect.poll(() => items.allInnerTexts(), WAIT).toEqual([expect.stringContaining(QUEUED[1]!)]);
    await expect.poll(() => panel.getByTestId("queued-heading").innerText()).toBe("Stopped: these wait for you (1)");
    expect(await panel.locator(".msg.user .bubble").allInnerTexts()).toEqual(["build it"]);

    // Send queued: the one left runs; the removed one never does.
    await panel.locator("[data-action=send-queued]").click();
    const log = panel.locator(".log");
    await expect.poll(() => log.innerText(), WAIT).toContain("Linters are clean.");
    await expect.poll(() => queue.count(), WAIT).toBe(0);
    expect(await panel.locator(".msg.user .bubble").allInnerTexts()).toEqual(["build it", QUEUED[1]]);
    await shot(page, "chat-stopped-queue-sent-360");
    expect(problems).toEqual([]);
  });
});
