/**
 * The built vsix in a real VS Code (code-server 4.139.1), driven by Playwright like a person:
 * commands from the palette, the settings page's buttons, the chat view, an editor with the
 * settings schema, a killed server. One code-server and one workbench for the whole file; every
 * step leaves a screenshot in build/screenshots/. The tests pass in any order (vitest
 * --sequence.shuffle): each starts with the project's settings file as shipped, no editor open and
 * an empty chat input; the one scripted chat conversation is had once, by whichever test needs it
 * first.
 */

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";

import { axeViolations } from "../../../webview/e2e/axe";

const DEMO = join(REPO, "examples", "demo-project");

import {
  CodeServer,
  REPO,
  explainFailure,
  hasWaveFrame,
  launchBrowser,
  openWorkbench,
  runCommand,
  screenshot,
  tempDir,
  waveFrame,
  waitForExtension,
  writeJson,
} from "./harness";

const home = tempDir("home");
const project = join(tempDir("project"), "demo-project");
const userSettings = join(home, ".wave", "settings.json");
const projectSettings = join(project, ".wave", "settings.json");

const HOOK_ENV = "session-start-env.txt";
const HOOK_PATH = "session-start-path.json";

let server: CodeServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  cpSync(DEMO, project, { recursive: true });
  // The user's hook also writes down what it inherits: the bundled server's libraries must not
  // reach it, nor a Python it starts (the launcher sets sys.path inside the server only).
  const report = `env > "$HOME/${HOOK_ENV}"; python3 -c 'import json, sys; print(json.dumps(sys.path))' > "$HOME/${HOOK_PATH}"`;
  writeJson(userSettings, {
    hooks: { SessionStart: [{ hooks: [{ type: "command", command: `${report}; echo user-hook`, description: "Says hello" }] }] },
    // Listed beside the hooks, never started: its URL needs a variable nobody set.
    mcpServers: { tickets: { type: "http", url: "${TICKETS_URL}/mcp" } },
  });
  server = await CodeServer.start({
    home,
    env: { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: join(project, "demo-chat.json") },
  });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await openWorkbench(page, server.origin, project);
  await waitForExtension(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openSettings(): Promise<Frame> {
  await runCommand(page, "Wave: Open Hooks Settings");
  const frame = await waveFrame(page, "settings");
  await frame.locator("li.hook").first().waitFor({ state: "attached", timeout: 60_000 });
  return frame;
}

/** The one running wavehost server process of this code-server (the bundled launcher's). */
function serverPid(): number {
  return server.wavehostPid();
}

/** Marks the wavehost pages shown now: the ones a restart loads anew are told apart from them. */
async function markPages(): Promise<("settings" | "chat")[]> {
  const views: ("settings" | "chat")[] = [];
  for (const frame of page.frames()) {
    const view = await frame
      .evaluate(() => {
        if (!document.querySelector("wave-app")) return null;
        (window as { wavehostOld?: boolean }).wavehostOld = true;
        return document.body?.dataset.view ?? null;
      })
      .catch(() => null);
    if (view === "settings" || view === "chat") views.push(view);
  }
  return views;
}

/** After a restart: the host is ready and every marked page's view is there again, loaded anew. */
async function pagesLoadedAnew(views: ("settings" | "chat")[]): Promise<void> {
  await expect.poll(hostState, { timeout: 60_000 }).toBe("ready");
  const fresh = async (): Promise<string> => {
    const found = new Set<string>();
    for (const frame of page.frames()) {
      const view = await frame
        .evaluate(() =>
          document.querySelector("wave-app") && !(window as { wavehostOld?: boolean }).wavehostOld ? document.body?.dataset.view : null,
        )
        .catch(() => null);
      if (view) found.add(view);
    }
    return views.filter((v) => !found.has(v)).join(", ") || "all loaded anew";
  };
  await expect.poll(fresh, { timeout: 60_000, interval: 500 }).toBe("all loaded anew");
}

/** The host's state as the status bar item says it (starting, ready, crashed, failed). */
async function hostState(): Promise<string> {
  const label = await page.locator(".statusbar-item [aria-label^='wavehost ']").first().getAttribute("aria-label").catch(() => null);
  return label?.replace("wavehost ", "") ?? "";
}

async function projectTab(frame: Frame): Promise<void> {
  await frame.getByText("Project hooks").first().click();
}

/** The user tab (the page remembers the tab shown last: a test that needs this one says so). */
async function userTab(frame: Frame): Promise<void> {
  await frame.getByText("User hooks").first().click();
}

/**
 * The chat page that can send now. Looked up afresh until then: after a restart the view is
 * loaded anew, and a frame found a moment before may be the old page on its way out.
 */
async function liveChat(): Promise<Frame> {
  let found: Frame | undefined;
  const sendable = async (): Promise<boolean> => {
    const frame = await waveFrame(page, "chat");
    const disabled = await frame.locator("[data-action=send]").getAttribute("disabled", { timeout: 2000 }).catch(() => "?");
    found = disabled === null ? frame : undefined;
    return found !== undefined;
  };
  await expect.poll(sendable, { timeout: 60_000, interval: 500 }).toBe(true);
  return found!;
}

/** What the one scripted conversation showed (chat turn: a blocked Bash, then a permission). */
interface Conversation {
  blocked: string;
}
let conversation: Promise<Conversation> | undefined;

/** Has the scripted conversation in the chat view, once per file, by whichever test comes first. */
function converse(): Promise<Conversation> {
  conversation ??= (async () => {
    try {
      return await conversed();
    } catch (err) {
      throw await explainFailure(page, server, "10-chat", err);
    }
  })();
  return conversation;
}

/** The conversation itself (converse() has it once). */
async function conversed(): Promise<Conversation> {
  await runCommand(page, "Wave: Open Chat");
  const chat = await liveChat();
  await chat.locator("textarea").fill("Clean up the build output, then write a plan");
  await chat.locator("[data-action=send]").click();
  const failure = chat.getByTestId("tool-error").first();
  await failure.waitFor({ timeout: 60_000 });
  const blocked = await failure.innerText();
  // The next tool asks for permission: the server's question is relayed to this view.
  const allow = chat.locator("[data-testid=permission] [data-action=allow]");
  await allow.waitFor({ timeout: 60_000 });
  await screenshot(page, "10-chat-hook-blocked-permission-asked");
  await allow.click();
  await expect.poll(() => chat.locator(".log").innerText(), { timeout: 60_000 }).toContain("Stop hook ran");
  await screenshot(page, "11-chat-turn-done");
  // The "Hook settings" button sits above the conversation, never over it (also scrolled).
  const edges = await chat.evaluate(() => {
    const app = document.querySelector("wave-app")!.shadowRoot!;
    const button = app.querySelector("nav vscode-button")!.getBoundingClientRect();
    const panel = app.querySelector("wave-chat-panel")!.shadowRoot!;
    const log = panel.querySelector(".log")!.getBoundingClientRect();
    return { buttonBottom: button.bottom, logTop: log.top };
  });
  expect(edges.buttonBottom).toBeLessThan(edges.logTop);
  return { blocked };
}

describe("wavehost in a real VS Code", () => {
  beforeEach(async (context) => {
    onTestFailed(() => screenshot(page, `failed-${context.task.name.slice(0, 40).replace(/\W+/g, "-")}`));
    cpSync(join(DEMO, ".wave", "settings.json"), projectSettings);
    await runCommand(page, "View: Close All Editors");
    await expect.poll(() => page.locator(".tabs-container .tab").count(), { timeout: 15_000 }).toBe(0);
    for (const frame of page.frames()) {
      // The chat input emptied as a person would (an input event), visible or not.
      await frame
        .evaluate(() => {
          if (document.body?.dataset.view !== "chat") return;
          const input = document.querySelector("wave-app")?.shadowRoot?.querySelector("wave-chat-panel")?.shadowRoot?.querySelector("textarea");
          if (!input) return;
          input.value = "";
          input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
        })
        .catch(() => undefined);
    }
  });

  it("runs each command from the palette: settings lists the hooks by source, chat, log, restart", async () => {
    const settings = await openSettings();
    await expect.poll(() => settings.getByTestId("count-user").innerText()).toBe("1");
    await expect.poll(() => settings.getByTestId("count-project").innerText()).toBe("4");
    await expect.poll(() => settings.getByTestId("count-plugin").innerText()).toBe("0");
    await settings.getByText("Current project: demo-project").waitFor();
    await screenshot(page, "01-settings-user-hooks");
    const mcp = settings.getByTestId("mcp-server");
    await expect.poll(() => mcp.count()).toBe(1);
    await expect.poll(() => mcp.getAttribute("data-status")).toBe("invalid");
    await expect.poll(() => mcp.getByTestId("mcp-error").innerText()).toBe("missing environment variables: TICKETS_URL");
    await mcp.scrollIntoViewIfNeeded();
    await screenshot(page, "01b-settings-mcp-servers");
    await projectTab(settings);
    await expect.poll(() => settings.locator("li.hook:visible").count()).toBe(4);
    await screenshot(page, "02-settings-project-hooks");
    // The settings webview's own document: titled by its view, axe-clean in VS Code's theme.
    expect(await settings.evaluate(() => document.title)).toBe("Wave hook settings");
    const violations = await axeViolations(settings);
    expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);

    await runCommand(page, "Wave: Open Chat");
    await liveChat();
    await screenshot(page, "03-chat-view");

    await runCommand(page, "Wave: Show Log");
    await expect
      .poll(
        () =>
          page
            .locator(".part.panel .view-lines")
            .first()
            .innerText()
            .then((t) => t.replace(/\s+/g, " "))
            .catch(() => ""),
        { timeout: 20_000 },
      )
      // The panel shows the wavehost channel's last lines — which ones depends on what ran before
      // (the tests run in any order) and on what the server said (an MCP server's warning): lines
      // only this channel writes.
      .toMatch(/\[info\] (project: |wavehost ready: |(settings|chat) page: (ready|first answer) |timing: |\[server\] )/);
    await screenshot(page, "04-log");

    const shown = await markPages();
    await runCommand(page, "Wave: Restart Host");
    await pagesLoadedAnew(shown);
    const relisted = await waveFrame(page, "settings");
    await relisted.locator("li.hook").first().waitFor({ state: "attached", timeout: 60_000 });
    await screenshot(page, "05-restarted");
  });

  it("starts the server through the bundle's launcher, and its hooks inherit none of the bundle", async () => {
    await runCommand(page, "Wave: Open Chat");
    await liveChat(); // its session has started: the user's SessionStart hook ran
    await expect.poll(() => existsSync(join(home, HOOK_PATH)) && readFileSync(join(home, HOOK_PATH), "utf8").trim() !== "", { timeout: 60_000 }).toBe(true);
    const command = readFileSync(`/proc/${serverPid()}/cmdline`, "utf8").split("\0").filter(Boolean);
    expect(command.slice(1)).toEqual([expect.stringMatching(/\/server\/launch\.py$/), "serve", "--stdio"]);
    const bundle = dirname(command[1]!);
    const environment = readFileSync(join(home, HOOK_ENV), "utf8").split("\n");
    expect(environment.filter((line) => line.startsWith("PYTHONPATH=") && line.includes(bundle))).toEqual([]);
    expect(environment.some((line) => line.startsWith("CLAUDE_PROJECT_DIR="))).toBe(true); // a hook's environment
    const path = JSON.parse(readFileSync(join(home, HOOK_PATH), "utf8")) as string[];
    expect(path.filter((entry) => entry.includes(bundle))).toEqual([]);
  });

  it("a chat turn fires the PreToolUse hook that blocks, and the block is shown", async () => {
    const { blocked } = await converse();
    expect(blocked).toContain("PreToolUse:Bash hook error: Refusing a destructive command");
  });

  it("Show in settings on the blocked tool opens the settings panel at the hook that blocked it", async () => {
    await converse();
    const chat = await waveFrame(page, "chat");
    await chat.locator("[data-testid=blocked-by] [data-action=show-hook]").first().click();
    // The chat asked its shell (openSettings {hookId}); the panel opens and shows that row.
    const settings = await waveFrame(page, "settings");
    const revealed = settings.locator("li.hook[data-revealed]");
    await revealed.waitFor({ timeout: 60_000 });
    await expect.poll(() => revealed.innerText()).toContain("guard-bash.py");
    await expect.poll(() => revealed.getAttribute("data-event")).toBe("PreToolUse");
    await expect.poll(() => settings.locator("[role=tab][data-source=project]").getAttribute("aria-selected")).toBe("true");
    await screenshot(page, "12-show-in-settings");
  });

  it("deletes through the dialog exactly that entry from the file on disk", async () => {
    const before = JSON.parse(readFileSync(projectSettings, "utf8"));
    const settings = await openSettings();
    await projectTab(settings);
    const stop = settings.locator("li.hook", { hasText: "Stop hook ran" });
    await stop.locator("[data-action=delete]").click();
    await settings.getByTestId("delete-dialog").waitFor();
    await screenshot(page, "06-delete-dialog");
    await settings.locator("[data-action=confirm]").click();
    await expect.poll(() => settings.getByTestId("count-project").innerText(), { timeout: 30_000 }).toBe("3");
    const after = JSON.parse(readFileSync(projectSettings, "utf8"));
    const { Stop: _deleted, ...kept } = before.hooks;
    expect(after.hooks).toEqual(kept);
    await screenshot(page, "07-deleted");
  });

  it("Edit opens the config file in an editor tab at the hook's own entry, and only then closes the settings panel", async () => {
    // The guard's entry: from its opening brace to the start of the line after its closing one.
    const lines = readFileSync(projectSettings, "utf8").split("\n");
    const guard = lines.findIndex((l) => l.includes("guard-bash.py"));
    const first = lines.slice(0, guard).map((l) => l.trim()).lastIndexOf("{");
    const last = guard + lines.slice(guard).findIndex((l) => /^\s*}/.test(l));
    const selected = lines.slice(first, last + 1).join("\n").length + 1;
    const settings = await openSettings();
    await projectTab(settings);
    await settings.locator("li.hook", { hasText: "guard-bash.py" }).locator("[data-action=edit]").click();
    await expect
      .poll(() => page.locator(".tabs-container .tab.active").innerText().then((t) => t.replace(/\s+/g, "")).catch(() => ""), {
        timeout: 30_000,
      })
      .toBe("settings.json");
    // VS Code's own status bar: the selection is the entry (the cursor at its end).
    await expect
      .poll(() => page.locator('[id="status.editor.selection"]').innerText().catch(() => ""), { timeout: 30_000 })
      .toBe(`Ln ${last + 2}, Col 1 (${selected} selected)`);
    await expect.poll(() => hasWaveFrame(page, "settings"), { timeout: 30_000 }).toBe(false);
    await expect.poll(() => page.locator(".tabs-container .tab", { hasText: "Wave Hooks" }).count()).toBe(0);
    const chat = await waveFrame(page, "chat");
    await expect
      .poll(() => chat.locator("textarea").inputValue(), { timeout: 30_000 })
      .toContain(`config file ${projectSettings}`);
    await screenshot(page, "08-edit-file-open-chat-prefilled");
  });

  it("New focuses the chat with the prompt", async () => {
    const settings = await openSettings();
    await userTab(settings);
    await settings.locator("[data-action=new]:visible").click();
    await expect.poll(() => hasWaveFrame(page, "settings"), { timeout: 30_000 }).toBe(false);
    const chat = await waveFrame(page, "chat");
    await expect
      .poll(() => chat.locator("textarea").inputValue(), { timeout: 30_000 })
      .toContain("Help me set up a user-level hook");
    await expect.poll(() => chat.evaluate(() => document.hasFocus()), { timeout: 10_000 }).toBe(true);
    await screenshot(page, "09-new-chat-prefilled");
  });

  it("the settings schema flags a timeout given as text in an open .wave/settings.json", async () => {
    const text = readFileSync(projectSettings, "utf8").replace('"timeout": 10', '"timeout": "10"');
    writeFileSync(projectSettings, text);
    await page.keyboard.press("F1"); // the palette without ">" opens files
    await page.locator(".quick-input-widget input").fill(".wave/settings.json");
    await page.locator(".quick-input-list .monaco-list-row").first().waitFor();
    await page.keyboard.press("Enter");
    // VS Code shows schema violations as warnings.
    await page.locator(".monaco-editor .squiggly-warning, .monaco-editor .squiggly-error").first().waitFor({ timeout: 60_000 });
    await runCommand(page, "View: Focus Problems");
    await expect
      .poll(() => page.locator(".markers-panel").innerText().catch(() => ""), { timeout: 30_000 })
      .toContain('Incorrect type. Expected "number".');
    await screenshot(page, "12-schema-flags-timeout");
  });

  it("a killed server is restarted and the chat comes back with its conversation", async () => {
    await converse();
    await runCommand(page, "Wave: Open Chat");
    const before = await waveFrame(page, "chat");
    await expect.poll(() => before.locator(".log").innerText()).toContain("Clean up the build output");
    // Marks the page shown now: the one after the restart must be a page loaded anew.
    await before.evaluate(() => ((window as { wavehostOld?: boolean }).wavehostOld = true));
    process.kill(serverPid(), "SIGKILL");
    await page.locator(".notifications-toasts", { hasText: "Restarting it in" }).waitFor({ timeout: 30_000 });
    await expect.poll(() => hostState()).toMatch(/crashed|starting|ready/);
    await screenshot(page, "13-server-killed");
    await expect.poll(hostState, { timeout: 60_000 }).toBe("ready");
    // The new chat page (looked up anew each time: frames come and go while it loads) shows the
    // conversation and can send again.
    const freshChat = async (): Promise<string> => {
      for (const frame of page.frames()) {
        const fresh = await frame
          .evaluate(
            () =>
              document.body?.dataset.view === "chat" &&
              document.querySelector("wave-app") !== null &&
              !(window as { wavehostOld?: boolean }).wavehostOld,
          )
          .catch(() => false);
        if (!fresh) continue;
        const log = await frame.locator(".log").innerText({ timeout: 2000 }).catch(() => "");
        const disabled = await frame.locator("[data-action=send]").getAttribute("disabled", { timeout: 2000 }).catch(() => "?");
        const input = await frame.locator("textarea").inputValue({ timeout: 2000 }).catch(() => "?");
        return log.includes("Clean up the build output") && disabled === null && input === "" ? "kept" : "loading";
      }
      return "no new page";
    };
    await expect.poll(freshChat, { timeout: 90_000, interval: 500 }).toBe("kept");
    await screenshot(page, "14-chat-kept-after-restart");
  });

  it("a server that stopped: the settings page says so in plain words, its actions off, and its Restart lists again", async () => {
    const settings = await openSettings();
    await projectTab(settings);
    const pid = serverPid();
    // While the launcher is away the automatic restarts fail too: the page stays in "stopped"
    // however fast the machine, until its Restart (the launcher back by then).
    const launcher = execFileSync("find", [server.extensions, "-path", "*/server/launch.py"], { encoding: "utf8" }).trim();
    renameSync(launcher, `${launcher}.away`);
    try {
      process.kill(pid, "SIGKILL");
      const gone = settings.getByTestId("gone");
      await gone.waitFor({ timeout: 30_000 });
      const said = (await gone.innerText()).replace(/\s+/g, " ");
      expect(said).toContain("wavehost has stopped, so nothing on this page can be changed for now.");
      expect(said).toMatch(/Why: The wavehost server (was killed \(SIGKILL\)|stopped \(exit code 2\))/);
      const row = settings.locator("li.hook", { hasText: "guard-bash.py" });
      for (const action of ["edit", "delete", "test", "why"]) {
        expect(await row.locator(`[data-action=${action}]`).isDisabled(), action).toBe(true);
      }
      await expect.poll(() => settings.locator("[data-action=new]:visible").getAttribute("disabled")).not.toBeNull();
      await screenshot(page, "15-server-stopped-settings-says-so");
    } finally {
      renameSync(`${launcher}.away`, launcher);
    }
    const shown = await markPages();
    await settings.locator("[data-action=restart]").click();
    await pagesLoadedAnew(shown);
    // The page is loaded anew once the server runs again: the list is back, the notice gone.
    const listed = async (): Promise<string> => {
      const frame = await waveFrame(page, "settings");
      const rows = await frame.locator("li.hook").count();
      const stopped = await frame.getByTestId("gone").count();
      return rows > 0 && stopped === 0 ? "listed" : `rows ${rows}, stopped notice ${stopped}`;
    };
    await expect.poll(listed, { timeout: 60_000, interval: 500 }).toBe("listed");
    await screenshot(page, "16-restarted-from-the-page");
  });

  it("the chat says the project's hooks are not running while its settings file does not parse, and Open at line 3 opens it there", async () => {
    const good = readFileSync(projectSettings, "utf8");
    // Saved as an editor saves (a new file renamed over the old one).
    const save = (text: string) => {
      writeFileSync(`${projectSettings}.tmp`, text);
      renameSync(`${projectSettings}.tmp`, projectSettings);
    };
    try {
      await runCommand(page, "Wave: Open Chat");
      save('{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}\n');
      const line = async (): Promise<string> => {
        const chat = await waveFrame(page, "chat");
        return chat.getByTestId("hooks-off").innerText({ timeout: 2000 }).catch(() => "");
      };
      await expect.poll(line, { timeout: 60_000, interval: 500 }).toContain("The hooks in .wave/settings.json are not running: the file does not parse (line 3).");
      await screenshot(page, "17-chat-hooks-not-running");
      const chat = await waveFrame(page, "chat");
      // The webview's own document: titled by its view, and axe-clean after a whole chat turn
      // with the line shown, in VS Code's theme.
      expect(await chat.evaluate(() => document.title)).toBe("Wave chat");
      const violations = await axeViolations(chat);
      expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
      await chat.getByTestId("hooks-off").locator("[data-action=hooks-open]").click();
      await expect
        .poll(() => page.locator(".tabs-container .tab.active").innerText().then((t) => t.replace(/\s+/g, "")).catch(() => ""), { timeout: 30_000 })
        .toBe("settings.json");
      await expect.poll(() => page.locator('[id="status.editor.selection"]').innerText().catch(() => ""), { timeout: 30_000 }).toMatch(/^Ln 3, Col \d+/);
      await screenshot(page, "18-chat-open-at-the-line");
    } finally {
      save(good);
    }
    await expect.poll(line0, { timeout: 60_000, interval: 500 }).toBe(0);

    async function line0(): Promise<number> {
      const chat = await waveFrame(page, "chat");
      return chat.getByTestId("hooks-off").count();
    }
  });
});
