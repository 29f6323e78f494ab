/**
 * The chat never lets a user believe a hook protects them when it does not: an untrusted
 * workspace, "disableAllHooks", a settings file that does not parse and a dialect switched off
 * each put one line above the chat's input — before a turn and during it, with "Why?" (the
 * settings page) and the way out (the file at the line). A healthy workspace has no line; breaking
 * and mending a file while the chat is open shows and hides it. A Stop hook that makes the agent
 * go on shows its line, with its reason, between the two replies. Real `wavehost web`, the
 * scripted provider, real hook processes, Debian's Chromium; screenshots at 297 px (VS Code's
 * sidebar), axe-core clean.
 */

import { renameSync } from "node:fs";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { axeViolations } from "./axe";
import { SCREENSHOTS, type Workspace, collectProblems, command, e2eSuite, hooksFile } from "./harness";

const e2e = e2eSuite();
const WAIT = { timeout: 30_000 };
const SIDEBAR = { width: 297, height: 760 };
const GUARD = hooksFile({ PreToolUse: [{ matcher: "Bash", hooks: [command("echo 'Refusing rm -rf' >&2; exit 2")] }] });

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}

/** The chat at 297 px; the scripted provider (a chat needs one to open), `turns` its replies. */
async function openChat(ws: Workspace, args: string[] = [], turns: unknown[] = [{ text: "Done." }]) {
  const script = ws.write(join(ws.root, "turns.json"), { turns });
  const server = await e2e.web(ws, "en", args, { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });
  const page = await e2e.browser.newPage({ viewport: SIDEBAR });
  const problems = collectProblems(page);
  await page.goto(`${server.url}&view=chat`);
  const panel = page.locator("wave-chat-panel");
  await expect.poll(() => panel.locator("[data-action=send]").getAttribute("disabled"), WAIT).toBeNull();
  return { page, panel, problems, line: panel.getByTestId("hooks-off") };
}

describe("chat: says when hooks are not running", () => {
  it("an untrusted workspace: the line stands before and during the turn whose rm -rf asks Allow Bash?", async () => {
    const ws = e2e.workspace();
    ws.write(ws.projectSettings, GUARD);
    const turns = [{ text: "Cleaning up.", tool_calls: [{ name: "Bash", input: { command: "rm -rf build" } }] }, { text: "Done." }];
    const { page, panel, problems, line } = await openChat(ws, ["--untrusted"], turns);

    // Before the turn.
    await expect.poll(() => line.innerText(), WAIT).toContain("Project hooks are not running (1): this workspace is not trusted.");
    await expect.poll(() => line.getAttribute("data-kind")).toBe("untrusted");
    // Browser mode has no trust action of its own: no button that would do nothing.
    await expect.poll(() => line.locator("[data-action=hooks-trust]").count()).toBe(0);
    await expectAccessible(page, "untrusted line, empty chat");
    await shot(page, "chat-hooks-off-untrusted-297");

    // During the turn: the guard that would refuse rm -rf does not run, so the call asks — and
    // the line says why, right above the question.
    await panel.locator("textarea").fill("clean the build");
    await panel.locator("textarea").press("Enter");
    const card = panel.getByTestId("permission");
    await expect.poll(() => card.count(), WAIT).toBe(1);
    await expect.poll(() => card.innerText()).toContain("rm -rf build");
    await expect.poll(() => line.isVisible()).toBe(true);
    await expect.poll(() => line.innerText()).toContain("this workspace is not trusted");
    // A message typed meanwhile waits in the queue.
    await panel.locator("textarea").fill("then update the docs");
    await panel.locator("textarea").press("Enter");
    const queued = panel.getByTestId("queued");
    await expect.poll(() => queued.innerText(), WAIT).toContain("then update the docs");
    // Every control still in reach at 297 px: the line's button, Allow, Deny, the queue, Stop.
    const controls = [line.locator("[data-action=hooks-why]"), card.locator("[data-action=allow]"), card.locator("[data-action=deny]"), queued, panel.locator("[data-action=cancel]")];
    for (const target of controls) {
      const box = await target.boundingBox();
      expect(box, "rendered").not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(SIDEBAR.width);
    }
    await expectAccessible(page, "untrusted line, asking");
    await shot(page, "chat-hooks-off-untrusted-asking-297");

    // Why? opens the settings page, which says the project's hooks are listed but inert.
    await line.locator("[data-action=hooks-why]").click();
    await expect.poll(() => page.locator("wave-hooks-page").getByTestId("untrusted").innerText(), WAIT).toContain("not trusted");
    expect(problems).toEqual([]);
  });

  it("disableAllHooks: the line names its file, and Open file shows it at that setting", async () => {
    const ws = e2e.workspace();
    ws.write(ws.userSettings, { ...GUARD, disableAllHooks: true });
    const { page, problems, line } = await openChat(ws);
    await expect.poll(() => line.innerText(), WAIT).toContain('Hooks are not running: ~/.wave/settings.json sets "disableAllHooks": true');
    await line.locator("[data-action=hooks-open]").click();
    const viewer = page.locator("wave-file-viewer");
    await expect.poll(() => viewer.getByTestId("viewer-path").innerText(), WAIT).toBe(ws.userSettings);
    await expect.poll(() => viewer.locator(".marked").first().innerText()).toContain('"disableAllHooks": true');
    await shot(page, "chat-hooks-off-disabled-297");
    expect(problems).toEqual([]);
  });

  it("a settings file that does not parse: its hooks are not running, Open at line N shows the line", async () => {
    const ws = e2e.workspace();
    ws.write(ws.projectSettings, '{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}\n');
    const { page, problems, line } = await openChat(ws);
    await expect.poll(() => line.innerText(), WAIT).toContain("The hooks in .wave/settings.json are not running: the file does not parse (line 3).");
    const open = line.locator("[data-action=hooks-open]");
    await expect.poll(() => open.innerText()).toBe("Open at line 3");
    await open.click();
    const viewer = page.locator("wave-file-viewer");
    await expect.poll(() => viewer.locator(".marked").getAttribute("data-line"), WAIT).toBe("3");
    await expectAccessible(page, "broken-file line");
    await shot(page, "chat-hooks-off-broken-297");
    expect(problems).toEqual([]);
  });

  it("a dialect switched off: its hooks that would run are counted and the switch's file named", async () => {
    const ws = e2e.workspace();
    ws.write(ws.userSettings, { hookDialects: { copilot: false } });
    ws.write(join(ws.project, ".github", "hooks", "team.json"), {
      version: 1,
      hooks: { preToolUse: [{ bash: "./guard.sh", matcher: "bash" }], agentStop: [{ bash: "./bye.sh" }] },
    });
    const { problems, line } = await openChat(ws);
    await expect.poll(() => line.innerText(), WAIT).toContain('Copilot CLI hooks are not running (2): "hookDialects" in ~/.wave/settings.json switches them off.');
    await expect.poll(() => line.getAttribute("data-kind")).toBe("dialectOff");
    expect(problems).toEqual([]);
  });

  it("a healthy workspace has no line; a file broken while the chat is open shows it, mending it hides it", async () => {
    const ws = e2e.workspace();
    ws.write(ws.projectSettings, GUARD);
    const { page, panel, problems, line } = await openChat(ws);
    await expect.poll(() => panel.getByTestId("hooks-off").count(), { timeout: 5_000 }).toBe(0);
    // Saved as editors save (a new file renamed over the old): the watcher sees one change.
    const save = (content: string) => renameSync(ws.write(`${ws.projectSettings}.tmp`, content), ws.projectSettings);
    save('{"hooks": {"PreToolUse": [}');
    await expect.poll(() => line.innerText(), WAIT).toContain("The hooks in .wave/settings.json are not running");
    save(JSON.stringify(GUARD));
    await expect.poll(() => panel.getByTestId("hooks-off").count(), WAIT).toBe(0);
    await shot(page, "chat-hooks-on-297");
    expect(problems).toEqual([]);
  });
});

describe("chat: a Stop hook that makes the agent go on", () => {
  it("shows a line with its hook and reason between the two replies", async () => {
    const ws = e2e.workspace();
    const guard = `input=$(cat); echo "$input" | grep -Eq '"stop_hook_active": ?true' && exit 0; echo 'The tests are failing: run them first.' >&2; exit 2`;
    ws.write(ws.projectSettings, hooksFile({ Stop: [{ hooks: [command(guard)] }] }));
    const { page, panel, problems } = await openChat(ws, [], [{ text: "First reply." }, { text: "Second reply." }]);
    await panel.locator("textarea").fill("finish up");
    await panel.locator("textarea").press("Enter");
    const log = panel.locator(".log");
    await expect.poll(() => log.innerText(), WAIT).toContain("Second reply.");
    const line = panel.getByTestId("stop-continue");
    await expect.poll(() => line.count()).toBe(1);
    await expect.poll(() => line.innerText()).toContain("A Stop hook made the agent go on:");
    await expect.poll(() => line.getByTestId("stop-continue-reason").innerText()).toBe("The tests are failing: run them first.");
    await expect.poll(() => line.innerText()).toContain("project"); // its hook, named
    // Between the two replies, in that order.
    const text = await log.innerText();
    const [first, between, second] = ["First reply.", "A Stop hook made the agent go on:", "Second reply."].map((s) => text.indexOf(s));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(between!);
    expect(between).toBeLessThan(second!);
    await expectAccessible(page, "stop-continue line");
    await shot(page, "chat-stop-continue-297");
    expect(problems).toEqual([]);
  });
});

