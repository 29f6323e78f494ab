/**
 * The hook inspector that cannot mislead (run history, Test, Edit), in real Chromium against a
 * real `wavehost web` with real hook processes and a scripted model: a hook's history stays its
 * own when another hook is deleted; a history row runs the hook again on the very input that run
 * received; Test shows and sends the stdin of the hook's own dialect, says a timeout as one, clears
 * the last result when a new run starts and words a bad input in one plain sentence; Edit shows
 * the config file with the hook's own lines marked. Screenshots in build/screenshots (light and
 * dark, 1280 and 360 px, zh-CN and en); axe-core with no violations.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { axeViolations } from "./axe";
import { FrameLog, SCREENSHOTS, type Workspace, collectProblems, command, e2eSuite, hooksFile } from "./harness";

const e2e = e2eSuite();
const WIDE = { width: 1280, height: 860 };
const NARROW = { width: 360, height: 760 };

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
const row = (page: Page, text: string) => page.locator("li.hook", { hasText: text });
const inspector = (page: Page) => page.getByTestId("inspector");

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}

async function open(ws: Workspace, options: { locale?: string; viewport?: typeof WIDE; dark?: boolean; env?: Record<string, string> } = {}) {
  const server = await e2e.web(ws, options.locale ?? "en", [], options.env ?? {});
  const page = await e2e.browser.newPage({ viewport: options.viewport ?? WIDE, colorScheme: options.dark ? "dark" : "light" });
  const frames = new FrameLog(page);
  const problems = collectProblems(page);
  await page.goto(server.url);
  await page.getByTestId("count-user").waitFor();
  await page.locator("[role=tab][data-source=project]").click();
  return { page, frames, problems, server };
}

describe("hook inspector", () => {
  it("keeps a hook's history its own when the hook before it is deleted", async () => {
    const ws = e2e.workspace();
    ws.write(ws.projectSettings, hooksFile({ Stop: [{ hooks: [command("echo first"), command("echo second")] }] }));
    const { page, problems } = await open(ws, { locale: "zh-CN" });
    for (const text of ["echo first", "echo second"]) {
      await row(page, text).locator("[data-action=test]").click();
      await expect.poll(() => page.getByTestId("test-payload").inputValue()).toContain('"hook_event_name": "Stop"');
      await inspector(page).locator("[data-action=run-test]").click();
      await expect.poll(() => page.getByTestId("test-stdout").innerText()).toMatch(new RegExp(`^${text.slice(5)}\\s*$`));
      await inspector(page).locator("[data-action=close-inspector]").click();
    }
    await row(page, "echo first").locator("[data-action=delete]").click();
    await page.getByTestId("delete-dialog").locator("[data-action=confirm]").click();
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("1");
    // The row says when it last ran, and its history is its own run, not the deleted hook's.
    await expect.poll(() => row(page, "echo second").getByTestId("last-run").innerText()).toContain("退出码 0");
    await row(page, "echo second").getByTestId("last-run").click();
    const runs = page.getByTestId("history-run");
    await expect.poll(() => runs.count()).toBe(1);
    await expect.poll(() => runs.first().innerText()).toContain("second");
    await expect.poll(() => runs.first().innerText()).not.toContain("first");
    await expectAccessible(page, "history after a delete");
    await shot(page, "inspector-history-after-delete-1280");
    expect(problems).toEqual([]);
  });

  it("a delete is one request: its answer brings the list and the moved row's last run; the watcher's echo of the write reloads nothing", async () => {
    const ws = e2e.workspace();
    ws.write(ws.projectSettings, hooksFile({ Stop: [{ hooks: [command("echo first"), command("echo second")] }] }));
    const { page, frames, problems } = await open(ws);
    await row(page, "echo second").locator("[data-action=test]").click();
    await expect.poll(() => page.getByTestId("test-payload").inputValue()).toContain('"hook_event_name": "Stop"');
    await inspector(page).locator("[data-action=run-test]").click();
    await expect.poll(() => page.getByTestId("test-stdout").innerText()).toMatch(/^second\s*$/);
    await inspector(page).locator("[data-action=close-inspector]").click();
    await expect.poll(() => row(page, "echo second").getByTestId("last-run").innerText()).toContain("exit 0");
    await row(page, "echo first").locator("[data-action=delete]").click();
    await expect.poll(() => page.getByTestId("delete-dialog").isVisible()).toBe(true);

    const from = frames.frames.length;
    const sent = () => frames.frames.slice(from).filter((f) => f.dir === "sent" && f.data.kind === "request").map((f) => f.data.method);
    const notified = () => frames.frames.slice(from).filter((f) => f.dir === "received" && f.data.kind === "notification").map((f) => f.data.method);
    await page.getByTestId("delete-dialog").locator("[data-action=confirm]").click();
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("1");
    // The moved row (its id changed) still says when it ran, from the delete's answer alone.
    await expect.poll(() => row(page, "echo second").getByTestId("last-run").innerText()).toContain("exit 0");
    expect(sent()).toEqual(["wave/hooks/delete"]);
    // The watcher sees the server's own write within its debounce (0.8 s): it is no news.
    await page.waitForTimeout(3000);
    expect(notified()).toEqual([]);
    expect(sent()).toEqual(["wave/hooks/delete"]);
    // Anyone else's change still is (the watch is alive): one notification, one reload.
    ws.write(ws.userSettings, hooksFile({ Stop: [{ hooks: [command("echo user")] }] }));
    await expect.poll(() => page.getByTestId("count-user").innerText(), { timeout: 30_000 }).toBe("1");
    expect(notified()).toEqual(["wave/hooks/changed"]);
    const reload = () => sent().slice(1).sort(); // what any hooks/changed brings, in any order
    expect(sent()[0]).toBe("wave/hooks/delete");
    await expect.poll(reload).toEqual(["wave/hooks/history", "wave/hooks/list", "wave/mcp/list"]);
    expect(problems).toEqual([]);
  });

  it("runs a hook again on the input a chat run received", async () => {
    const ws = e2e.workspace();
    const seen = join(ws.root, "seen.jsonl");
    ws.write(ws.projectSettings, hooksFile({ PreToolUse: [{ matcher: "Bash", hooks: [command(`cat >> ${seen}; echo checked`)] }] }));
    const turns = [{ text: "", tool_calls: [{ name: "Bash", input: { command: "echo from-the-chat" } }] }, { text: "done" }];
    const script = ws.write(join(ws.root, "turns.json"), { turns });
    const env = { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script };
    const { page, problems, server } = await open(ws, { locale: "zh-CN", viewport: NARROW, dark: true, env });

    // A chat turn in another tab runs the hook (allowed when asked).
    const chat = await e2e.browser.newPage({ viewport: WIDE });
    await chat.goto(`${server.url}&view=chat`);
    const panel = chat.locator("wave-chat-panel");
    await expect.poll(() => panel.locator("[data-action=send]").getAttribute("disabled"), { timeout: 30_000 }).toBeNull();
    await panel.locator("textarea").fill("跑一下");
    await panel.locator("textarea").press("Enter");
    await panel.getByTestId("permission").locator("[data-action=allow]").click({ timeout: 60_000 });
    await expect.poll(() => panel.locator(".log").innerText(), { timeout: 60_000 }).toContain("done");

    await page.reload(); // the settings page, opened again after the chat
    await page.locator("[role=tab][data-source=project]").click();
    await expect.poll(() => row(page, "checked").getByTestId("last-run").innerText()).toContain("退出码 0");
    await row(page, "checked").getByTestId("last-run").click();
    const again = inspector(page).locator("[data-action=run-again]");
    await again.waitFor();
    await expect.poll(() => again.getAttribute("aria-label")).toMatch(/^用这次的输入再运行（.+那次）$/);
    await shot(page, "inspector-history-run-again-360-dark");
    await again.click();
    await expect.poll(() => page.getByTestId("test-stdout").innerText()).toMatch(/^checked\s*$/);
    await expect.poll(() => page.getByTestId("test-replaying").innerText()).toContain("那次运行收到的输入");
    await expect.poll(() => page.getByTestId("test-payload").inputValue()).toContain("echo from-the-chat");
    const [first, second] = readFileSync(seen, "utf8").split(/(?<=\n)/);
    expect(second).toBe(first); // the very stdin the chat's run read
    expect(JSON.parse(first!).tool_input).toEqual({ command: "echo from-the-chat" });
    await expectAccessible(page, "run again, dark, 360 px");
    await shot(page, "inspector-run-again-360-dark");
    expect(problems).toEqual([]);
  });

  it("tests a Copilot hook with Copilot's stdin, says a timeout, clears the old result and words a bad input plainly", async () => {
    const ws = e2e.workspace();
    const seen = join(ws.root, "seen.json");
    ws.write(join(ws.project, ".github", "hooks", "team.json"), {
      version: 1,
      hooks: { preToolUse: [{ bash: `cat > ${seen}; sleep 1; echo copilot-saw-it`, matcher: "bash" }] },
    });
    ws.write(ws.projectSettings, hooksFile({ Stop: [{ hooks: [command("sleep 10", { timeout: 1 })] }] }));
    const { page, problems } = await open(ws);

    await row(page, "copilot-saw-it").locator("[data-action=test]").click();
    const input = page.getByTestId("test-payload");
    await expect.poll(() => input.inputValue()).toContain('"toolName": "bash"');
    await expect.poll(() => inspector(page).locator("label[for=test-payload]").innerText()).toBe(
      "What this Copilot CLI hook reads on stdin (Copilot CLI's own shape, editable)",
    );
    const shown = JSON.parse(await input.inputValue());
    expect(shown).not.toHaveProperty("tool_name");
    await input.fill(JSON.stringify({ ...shown, toolArgs: { command: "rm -rf build" } }, null, 2));
    const run = inspector(page).locator("[data-action=run-test]");
    await run.click();
    await expect.poll(() => page.getByTestId("test-stdout").innerText()).toMatch(/^copilot-saw-it\s*$/);
    const received = readFileSync(seen, "utf8");
    expect(received).not.toContain("\n"); // one line of compact JSON, as Copilot sends it
    expect(JSON.parse(received).toolArgs).toEqual({ command: "rm -rf build" });
    await expectAccessible(page, "Copilot test result");
    await shot(page, "inspector-test-copilot-1280");

    // A new run takes the last result away at once (the hook sleeps a second).
    await run.click();
    await expect.poll(() => page.getByTestId("test-result").count()).toBe(0);
    await expect.poll(() => page.getByTestId("test-stdout").innerText()).toMatch(/^copilot-saw-it\s*$/);
    // Not JSON: one sentence, and the old result is gone.
    await input.fill('{"toolName": "bash",\n  "toolArgs": }');
    await run.click();
    await expect.poll(() => page.getByTestId("inspector-error").innerText()).toBe("The input is not valid JSON (line 2, column 15).");
    await expect.poll(() => page.getByTestId("test-result").count()).toBe(0);
    await inspector(page).locator("[data-action=close-inspector]").click();

    // A Wave hook that outlives its timeout, then an input that is not its event's.
    await row(page, "sleep 10").locator("[data-action=test]").click();
    await expect.poll(() => input.inputValue()).toContain('"hook_event_name": "Stop"');
    await run.click();
    await expect.poll(() => page.getByTestId("test-exit").innerText(), { timeout: 20_000 }).toBe("timed out after 1 s");
    await inspector(page).locator("[role=tab][data-tab=history]").click();
    await expect.poll(() => page.getByTestId("history-run").first().innerText()).toContain("timed out after 1 s");
    await inspector(page).locator("[role=tab][data-tab=test]").click();
    await input.fill('{"session_id": 7}');
    await run.click();
    await expect
      .poll(() => page.getByTestId("inspector-error").innerText())
      .toBe("This is not a Stop input: missing transcript_path, cwd; session_id must be text.");
    const error = await page.getByTestId("inspector-error").innerText();
    expect(error).not.toMatch(/Field required|Input should|wavehost said/);
    await expectAccessible(page, "plain error");
    await shot(page, "inspector-test-plain-error-1280");
    await inspector(page).locator("[data-action=close-inspector]").click();
    await expect.poll(() => row(page, "sleep 10").getByTestId("last-run").innerText()).toContain("timed out after 1 s");
    expect(problems).toEqual([]);
  });

  it("Edit shows the config file with the hook's own lines marked", async () => {
    const ws = e2e.workspace();
    ws.write(
      ws.projectSettings,
      hooksFile({ PreToolUse: [{ matcher: "Bash", hooks: [command("./first.sh"), command("./guard.sh", { timeout: 5 })] }] }),
    );
    const { page, frames, problems } = await open(ws, { locale: "zh-CN", viewport: NARROW });
    await row(page, "./guard.sh").locator("[data-action=edit]").click();
    const marked = page.locator("wave-file-viewer .marked");
    await expect.poll(() => marked.count()).toBeGreaterThan(1);
    const text = (await marked.allInnerTexts()).join("\n");
    expect(text).toContain("./guard.sh");
    expect(text).toContain('"timeout": 5');
    expect(text).not.toContain("./first.sh");
    const lines = readFileSync(ws.projectSettings, "utf8").split("\n");
    const first = Number(await marked.first().getAttribute("data-line"));
    expect(lines[first - 1]!.trim()).toBe("{"); // the entry's own opening brace
    expect(lines[first]).toContain('"type": "command"');
    const asked = frames.frames.find((f) => f.dir === "sent" && f.data.method === "wave/openConfigFile");
    expect(asked?.data.params).toEqual({ path: ws.projectSettings, pointer: "/hooks/PreToolUse/0/hooks/1" });
    await expectAccessible(page, "file viewer at the hook");
    await shot(page, "edit-viewer-at-hook-360");
    expect(problems).toEqual([]);
  });
});
