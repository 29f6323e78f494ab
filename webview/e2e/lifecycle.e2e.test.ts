/**
 * The session lifecycle in browser mode, end to end (real Chromium, `wavehost web`, `wavehost
 * serve`, the scripted provider, real hook and tool processes): pages are disposable, sessions
 * are not. A question asked while a page is torn down waits in the session for the page that
 * re-attaches; Stop withdraws it from every page of the session; closing a session ends its
 * background work.
 */

import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { SCREENSHOTS, type WebServer, type Workspace, collectProblems, command, e2eSuite, hooksFile } from "./harness";

const e2e = e2eSuite();
let context: BrowserContext | null = null;
let ws: Workspace;
const WAIT = { timeout: 30_000 };

afterEach(async () => {
  await context?.close(); // before the server stops: its pages go first
  context = null;
});

const WRITE_PLAN = [
  { text: "我来写计划。", tool_calls: [{ name: "Write", input: { file_path: "PLAN.md", content: "# Plan\n" } }] },
  { text: "计划写好了。" },
];

type Hooks = Parameters<typeof hooksFile>[0];

/** `wavehost web` on a new workspace: the model's turns and the project's hooks may name files
 * in the workspace (`root`). */
async function serve(
  setup: (root: string) => { turns: unknown[]; hooks?: Hooks; env?: Record<string, string> },
): Promise<WebServer> {
  ws = e2e.workspace();
  const { turns, hooks = {}, env = {} } = setup(ws.root);
  ws.write(ws.projectSettings, hooksFile(hooks));
  const script = ws.write(join(ws.root, "turns.json"), { turns });
  const server = await e2e.web(ws, "zh-CN", [], { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script, ...env });
  context = await e2e.browser.newContext({ viewport: { width: 1000, height: 800 } });
  return server;
}

/** A chat page of this browser context: `address` is the token URL (first tab) or a plain one. */
async function chatPage(address: string): Promise<{ page: Page; panel: Locator; problems: string[] }> {
  const page = await context!.newPage();
  const problems = collectProblems(page);
  await page.goto(address);
  const panel = page.locator("wave-chat-panel");
  await expect.poll(() => panel.locator("[data-action=send]").getAttribute("disabled"), WAIT).toBeNull();
  return { page, panel, problems };
}

async function say(panel: Locator, text: string): Promise<void> {
  const input = panel.locator("textarea");
  await input.fill(text);
  await input.press("Enter");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

describe("session lifecycle in browser mode", () => {
  it("a page torn down while a permission question is open gets it back when re-created, and answers it", async () => {
    const web = await serve(() => ({ turns: WRITE_PLAN }));
    const { page, panel, problems } = await chatPage(`${web.url}&view=chat`);
    await say(panel, "写个计划");
    const question = panel.getByTestId("permission");
    await expect.poll(() => question.count(), WAIT).toBe(1);
    const sessionId = await panel.getAttribute("data-session-id");
    expect(sessionId).toBeTruthy();

    await page.reload(); // the shell destroys the page and makes it again (same tab, same state)
    const again = page.locator("wave-chat-panel");
    await expect.poll(() => again.getByTestId("permission").count(), WAIT).toBe(1);
    await expect.poll(() => again.getAttribute("data-session-id")).toBe(sessionId);
    await expect.poll(() => again.getByTestId("permission").innerText()).toContain("允许 Write 吗？");
    await expect.poll(() => again.locator("[data-role=user]").innerText()).toContain("写个计划"); // the snapshot
    await page.screenshot({ path: join(SCREENSHOTS, "lifecycle-question-back.png"), fullPage: true });

    await again.getByTestId("permission").locator("[data-action=allow]").click();
    await expect.poll(() => again.locator(".log").innerText(), WAIT).toContain("计划写好了。");
    await expect.poll(() => again.getByTestId("permission").count()).toBe(0);
    await expect.poll(() => again.locator(".tool[data-tool=Write]").getAttribute("data-status")).toBe("success");
    expect(readFileSync(join(ws.project, "PLAN.md"), "utf8")).toBe("# Plan\n");
    expect(problems).toEqual([]);
  });

  it("Stop withdraws the question from every page attached to the session, and no other session's page sees it", async () => {
    const web = await serve(() => ({ turns: WRITE_PLAN }));
    const first = await chatPage(`${web.url}&view=chat`);
    await say(first.panel, "写个计划");
    await expect.poll(() => first.panel.getByTestId("permission").count(), WAIT).toBe(1);
    const sessionId = await first.panel.getAttribute("data-session-id");
    // A second tab on the same session (browser mode names it in the address), and a third tab
    // with a session of its own.
    const second = await chatPage(`${web.address}?view=chat&session=${sessionId}`);
    await expect.poll(() => second.panel.getByTestId("permission").count(), WAIT).toBe(1);
    const other = await chatPage(`${web.address}?view=chat`);
    await expect.poll(() => other.panel.getAttribute("data-session-id")).not.toBe(sessionId);
    await second.page.screenshot({ path: join(SCREENSHOTS, "lifecycle-second-tab.png"), fullPage: true });

    await first.panel.locator("[data-action=cancel]").click();
    await expect.poll(() => first.panel.getByTestId("permission").count(), WAIT).toBe(0);
    await expect.poll(() => second.panel.getByTestId("permission").count(), WAIT).toBe(0);
    await expect.poll(() => second.panel.locator(".tool[data-tool=Write]").getAttribute("data-status"), WAIT).toBe("cancelled");
    expect(existsSync(join(ws.project, "PLAN.md"))).toBe(false);
    await expect.poll(() => other.panel.getByTestId("permission").count()).toBe(0);
    await expect.poll(() => other.panel.locator("[data-role=user]").count()).toBe(0); // never saw the other session
    expect([...first.problems, ...second.problems, ...other.problems]).toEqual([]);
  });

  it("closing a session ends its background work (task, async hook, cron) and runs SessionEnd", async () => {
    let task = "";
    let hook = "";
    let ended = "";
    let temp = "";
    const web = await serve((root) => {
      task = join(root, "task.pid");
      hook = join(root, "hook.pid");
      ended = join(root, "ended.json");
      temp = join(root, "tmp"); // the server's TMPDIR: the session's task folder goes in it
      mkdirSync(temp, { mode: 0o777 });
      chmodSync(temp, 0o777); // AS_ROOT: serve runs as nobody
      const background = { command: `echo $$ > ${task}; exec sleep 300`, run_in_background: true };
      const cron = { cron: "* * * * *", prompt: "看看后台", recurring: true };
      return {
        turns: [
          { text: "后台跑起来。", tool_calls: [{ name: "Bash", input: background }, { name: "CronCreate", input: cron }] },
          { text: "在后台运行。" },
        ],
        hooks: {
          PostToolUse: [{ matcher: "Bash", hooks: [command(`echo $$ > ${hook}; exec sleep 300`, { async: true })] }],
          SessionEnd: [{ hooks: [command(`cat > ${ended}.tmp && mv ${ended}.tmp ${ended}`)] }],
        },
        env: { TMPDIR: temp },
      };
    });
    const { page, panel, problems } = await chatPage(`${web.url}&view=chat`);
    const sessionId = await panel.getAttribute("data-session-id");
    await say(panel, "后台跑一个");
    await expect.poll(() => panel.getByTestId("permission").count(), WAIT).toBe(1);
    await panel.getByTestId("permission").locator("[data-action=allow]").click();
    await expect.poll(() => panel.locator(".log").innerText(), WAIT).toContain("在后台运行。");
    await expect.poll(() => panel.locator(".tool[data-tool=CronCreate]").getAttribute("data-status")).toBe("success");
    const pid = (file: string) => (existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : 0);
    await expect.poll(() => pid(task) > 0 && pid(hook) > 0, WAIT).toBe(true);
    const [shell, hookShell] = [pid(task), pid(hook)];
    expect([alive(shell), alive(hookShell)]).toEqual([true, true]);
    expect(readdirSync(temp).filter((name) => name.startsWith("wavehost-tasks-"))).toHaveLength(1);
    await page.screenshot({ path: join(SCREENSHOTS, "lifecycle-background-running.png"), fullPage: true });

    await panel.locator("[data-action=new-chat]").click(); // wave/chat/close, then a new session
    // The page has a new, empty session at once: New chat is /clear, whose end hooks run in the
    // background and do not hold up the new session (seed 002).
    await expect.poll(() => panel.getAttribute("data-session-id"), WAIT).not.toBe(sessionId);
    await expect.poll(() => panel.locator("[data-role=user]").count()).toBe(0);
    await expect.poll(() => alive(shell), WAIT).toBe(false);
    await expect.poll(() => alive(hookShell), WAIT).toBe(false);
    await expect.poll(() => existsSync(ended), WAIT).toBe(true);
    // New chat is Claude Code's /clear: SessionEnd's reason says so.
    expect(JSON.parse(readFileSync(ended, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", session_id: sessionId, reason: "clear" });
    // Once the old session is gone (its cron runner included), so is its task folder.
    await expect.poll(() => readdirSync(temp).filter((name) => name.startsWith("wavehost-tasks-")), WAIT).toEqual([]);
    expect(problems).toEqual([]);
  });
});
