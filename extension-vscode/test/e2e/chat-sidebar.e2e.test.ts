/**
 * The chat in VS Code's sidebar at the width VS Code gives it by default (issue 30 item 4): a turn
 * that asks "Allow Bash?" with a message queued behind it shows Allow, Deny, the queued message's
 * Remove and Stop whole, inside the sidebar and the window, each taking a click where it is drawn;
 * Stop then ends the turn and the queued message stays, held, with Send queued in reach. The
 * built vsix in a real code-server, its real wavehost server with the scripted provider, Debian's
 * Chromium; screenshots in build/screenshots.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";

import type { Browser, Frame, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CodeServer, explainFailure, launchBrowser, openWorkbench, runCommand, screenshot, tempDir, waitForExtension, waveFrame, writeJson } from "./harness";

const home = tempDir("sidebar-home");
const project = tempDir("sidebar-project");
const WINDOW = { width: 1280, height: 800 };
const PRINTED = ".printed";
const COMMAND = `echo step one; echo step two; touch ${PRINTED}; while true; do sleep 0.2; done`;
const QUEUED = "then update the docs";

let server: CodeServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  writeJson(join(home, ".wave", "settings.json"), {});
  const script = writeJson(join(home, "turns.json"), {
    turns: [{ text: "Running the build.", tool_calls: [{ name: "Bash", input: { command: COMMAND, description: "Build every package" } }] }, { text: "Docs updated." }],
  });
  server = await CodeServer.start({ home, env: { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script } });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: WINDOW });
  await openWorkbench(page, server.origin, project);
  await waitForExtension(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The chat page once it can send (the first wave/chat/open loads the session runtime). */
async function liveChat(): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(
      async () => {
        const frame = await waveFrame(page, "chat");
        const disabled = await frame.locator("[data-action=send]").getAttribute("disabled", { timeout: 2000 }).catch(() => "?");
        found = disabled === null ? frame : undefined;
        return found !== undefined;
      },
      { timeout: 90_000 },
    )
    .toBe(true);
  return found!;
}

/** Whole inside the sidebar (so inside the window too), and a click at its point lands on it. */
async function expectInSidebar(target: Locator, what: string): Promise<void> {
  const sidebar = (await page.locator(".part.sidebar").boundingBox())!;
  const box = await target.boundingBox();
  expect(box, `${what}: rendered`).not.toBeNull();
  expect(box!.width * box!.height, `${what}: has a size`).toBeGreaterThan(0);
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(sidebar.x);
  expect(box!.y, `${what}: top edge`).toBeGreaterThanOrEqual(sidebar.y);
  expect(box!.x + box!.width, `${what}: right edge`).toBeLessThanOrEqual(sidebar.x + sidebar.width);
  expect(box!.y + box!.height, `${what}: bottom edge`).toBeLessThanOrEqual(Math.min(sidebar.y + sidebar.height, WINDOW.height));
  await target.click({ trial: true, timeout: 10_000 });
}

describe("the chat in VS Code's sidebar at its default width", () => {
  it("Allow, Deny, the queued message's Remove and Stop are in reach; after Stop the message waits with Send queued", async () => {
    try {
      await runCommand(page, "Wave: Open Chat");
      const chat = await liveChat();
      const sidebar = (await page.locator(".part.sidebar").boundingBox())!;
      // VS Code's own default: the test never resizes it (the chat sits in the primary sidebar).
      expect(sidebar.width).toBeLessThan(400);
      const input = chat.locator("textarea");
      await input.fill("build it");
      await input.press("Enter");
      const card = chat.getByTestId("permission");
      await expect.poll(() => card.innerText(), { timeout: 60_000 }).toContain("Allow Bash?");
      await input.fill(QUEUED);
      await input.press("Enter");
      const item = chat.getByTestId("queued-item");
      await expect.poll(() => item.innerText(), { timeout: 30_000 }).toContain(QUEUED);

      await expectInSidebar(card.locator("[data-action=allow]"), "Allow");
      await expectInSidebar(card.locator("[data-action=deny]"), "Deny");
      await expectInSidebar(item.locator("[data-action=remove-queued]"), "Remove");
      await expectInSidebar(chat.locator("[data-action=cancel]"), "Stop");
      await screenshot(page, `20-chat-sidebar-${Math.round(sidebar.width)}px-asking`);

      // Allow: the command runs (it prints, then waits); Stop ends the turn, the queue stays.
      await card.locator("[data-action=allow]").click();
      await expect.poll(() => existsSync(join(project, PRINTED)), { timeout: 60_000 }).toBe(true);
      await expectInSidebar(chat.locator("[data-action=cancel]"), "Stop (running)");
      await chat.locator("[data-action=cancel]").click();
      const bash = chat.locator(".tool[data-tool=Bash]");
      await expect.poll(() => bash.getAttribute("data-status"), { timeout: 60_000 }).toBe("cancelled");
      await expect.poll(() => bash.getByTestId("tool-partial-output").innerText(), { timeout: 30_000 }).toBe("step one\nstep two");
      await expect.poll(() => chat.getByTestId("queued").getAttribute("data-held"), { timeout: 30_000 }).toBe("true");
      await expect.poll(() => item.innerText()).toContain(QUEUED);
      await expectInSidebar(chat.locator("[data-action=send-queued]"), "Send queued");
      await expectInSidebar(item.locator("[data-action=remove-queued]"), "Remove (held)");
      await screenshot(page, `21-chat-sidebar-${Math.round(sidebar.width)}px-stopped`);
    } catch (err) {
      throw await explainFailure(page, server, "20-chat-sidebar", err);
    }
  });
});
