/**
 * The page as the IDE shells host it, in real Chromium. The only fakes are the IDE APIs, which
 * exist only inside the IDEs: VS Code's `acquireVsCodeApi` and the JetBrains plugin's JCEF bridge
 * object, played by this test as the extension / plugin. The HTML is what a shell writes (a CSP
 * that allows only its own resources, no inline script), and the bundle is the real build.
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { FakeShell } from "../test/fake-shell";
import { DIST, SCREENSHOTS, collectProblems, e2eSuite } from "./harness";

const ORIGIN = "https://vscode-webview.test";
const CSP = `default-src 'none'; script-src ${ORIGIN}; style-src ${ORIGIN}; img-src ${ORIGIN} data:; font-src ${ORIGIN}`;

/** The IDE side, played by the shared fake shell: it delivers into the real page. */
class FakeExtension extends FakeShell {
  constructor(
    readonly page: Page,
    readonly ide: "vscode" | "jetbrains",
  ) {
    super(true); // a request it was not told to answer gets "not handled", as a relay would
  }

  static async open(
    browser: Browser,
    view: "chat" | "settings",
    colorScheme: "light" | "dark" = "light",
    ide: "vscode" | "jetbrains" = "vscode",
  ) {
    const page = await browser.newPage({ viewport: { width: 900, height: 760 }, colorScheme });
    const host = new FakeExtension(page, ide);
    const problems = collectProblems(page);
    await page.exposeBinding("__fakeIdePost", (_source, message: unknown) => host.receive(message));
    // The mocked IDE API, installed before the page's own script runs.
    if (ide === "vscode") {
      await page.addInitScript(() => {
        const w = window as unknown as Record<string, unknown>;
        w.acquireVsCodeApi = () => ({
          postMessage: (m: unknown) => (w.__fakeIdePost as (m: unknown) => void)(m),
          // VS Code keeps a webview's state across its being destroyed and re-created; this fake
          // keeps it in the tab's storage, which survives the reload that plays that part.
          getState: () => JSON.parse(sessionStorage.getItem("fake-vscode-state") ?? "null") ?? undefined,
          setState: (state: unknown) => sessionStorage.setItem("fake-vscode-state", JSON.stringify(state)),
        });
      });
    } else {
      await page.addInitScript(() => {
        const w = window as unknown as Record<string, unknown>;
        // What the plugin injects: a JBCefJSQuery-backed object taking JSON text.
        w.__waveJetBrainsBridge = {
          postMessage: (json: string) => (w.__fakeIdePost as (m: unknown) => void)(JSON.parse(json)),
        };
      });
    }
    await page.route(`${ORIGIN}/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === "/index.html") {
        const html =
          `<!doctype html><html data-locale="zh-CN"><head><meta charset="utf-8">` +
          `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
          `<link rel="stylesheet" href="${ORIGIN}/assets/webview.css">` +
          `<script type="module" src="${ORIGIN}/assets/webview.js"></script></head>` +
          `<body data-view="${view}"></body></html>`;
        return route.fulfill({ body: html, contentType: "text/html" });
      }
      const file = join(DIST, path);
      if (!existsSync(file)) return route.fulfill({ status: 404, body: "" });
      const type = path.endsWith(".js") ? "text/javascript" : path.endsWith(".css") ? "text/css" : "application/octet-stream";
      return route.fulfill({ body: readFileSync(file), contentType: type });
    });
    return { host, page, problems };
  }

  /** VS Code's `webview.postMessage(...)`, or the plugin's executeJavaScript with JSON text. */
  protected async dispatch(message: unknown): Promise<void> {
    const data = this.ide === "vscode" ? message : JSON.stringify(message);
    await this.page.evaluate((m) => window.dispatchEvent(new MessageEvent("message", { data: m })), data);
  }
}

const SESSION = "s-1";
const CONVERSATION = [
  { role: "user", id: "u1", content: "删除 build 目录" },
  { role: "user", id: "m1", content: "<system-reminder>项目约定：使用 pnpm</system-reminder>", isMeta: true },
  {
    role: "assistant",
    id: "a1",
    blocks: [
      { type: "text", text: "我来**删除** `build`：<script>window.__pwned = true</script><img src=\"data:,\" onerror=\"window.__pwned=true\">" },
      {
        type: "tool",
        id: "t1",
        name: "Bash",
        input: { command: "rm -rf build" },
        status: "error",
        error: "PreToolUse:Bash hook error: Refusing to run rm -rf",
      },
      { type: "tool", id: "t2", name: "Read", input: { file_path: "README.md" }, status: "success", result: "# demo" },
      { type: "text", text: "钩子阻止了这条命令。\n\n- 可以改用 `git clean`" },
      { type: "notice", level: "info", text: "Stop hook ran: reply finished", event: "Stop" },
      { type: "notice", level: "warning", text: "PostToolUse hook exited 1: lint failed", event: "PostToolUse" },
      { type: "notice", level: "error", text: "UserPromptSubmit blocked: secrets in prompt", event: "UserPromptSubmit" },
    ],
  },
];

function opened(messages: unknown[]) {
  return {
    sessionId: SESSION,
    transcriptPath: "/home/u/.wave/sessions/session_s-1.json",
    status: "idle",
    queued: 0,
    queuedTexts: [],
    queuedMessages: [],
    queueHeld: false,
    runningHooks: [],
    liveHooks: { hooks: [], more: 0 },
    pendingPermissions: [],
    pendingQuestions: [],
    permissionMode: "default",
    provider: "scripted",
    model: "scripted",
    messages,
  };
}

function updated(over: Record<string, unknown>) {
  const state = { status: "running", queued: 0, queuedTexts: [], queuedMessages: [], queueHeld: false, runningHooks: [], liveHooks: { hooks: [], more: 0 }, pendingPermissions: [], pendingQuestions: [] };
  const params = { sessionId: SESSION, deltas: [], ...state, ...over };
  return { kind: "notification", method: "wave/chat/updated", params };
}

const e2e = e2eSuite();

describe("chat panel (VS Code shell)", () => {
  it("renders the conversation: Markdown sanitised, tool blocks, notices by level, isMeta hidden", async () => {
    const { host, page, problems } = await FakeExtension.open(e2e.browser, "chat");
    host.on("wave/chat/open", () => opened(CONVERSATION));
    await page.goto(`${ORIGIN}/index.html`);
    const panel = page.locator("wave-chat-panel");
    await panel.locator("[data-role=assistant]").waitFor();

    const users = () => panel.locator("[data-role=user]").allInnerTexts();
    await expect.poll(users).toEqual([expect.stringContaining("删除 build 目录")]);
    await expect.poll(() => panel.locator(".log").innerText()).toContain("删除 build 目录");
    await expect.poll(() => panel.locator(".log").innerText()).not.toContain("system-reminder");

    const markdown = panel.locator(".markdown").first();
    await expect.poll(() => markdown.locator("strong").innerText()).toBe("删除");
    await expect.poll(() => markdown.locator("code").innerText()).toBe("build");
    await expect.poll(() => panel.locator("script, img[onerror]").count()).toBe(0);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();

    const bash = panel.locator(".tool[data-tool=Bash]");
    await expect.poll(() => bash.getAttribute("data-status")).toBe("error");
    await expect.poll(() => bash.getByTestId("tool-error").innerText()).toBe("PreToolUse:Bash hook error: Refusing to run rm -rf");
    await expect.poll(() => panel.locator(".tool[data-tool=Read]").innerText()).toContain("成功");

    const notices = panel.locator(".notice");
    await expect.poll(() => notices.evaluateAll((els) => els.map((e) => e.getAttribute("data-level")))).toEqual([
      "info",
      "warning",
      "error",
    ]);
    await expect.poll(() => notices.first().innerText()).toContain("Stop hook ran: reply finished");
    await expect.poll(() => panel.locator(".notice[role=alert]").count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, "chat-panel.png"), fullPage: true });
    // Chromium reports the attacker's onerror when DOMPurify parses the text in an inert document
    // (and the CSP blocks it there too); it never reaches the page, as the checks above show.
    const inlineHandler = /^Executing inline event handler violates the following Content Security Policy/;
    expect(problems.filter((p) => !inlineHandler.test(p))).toEqual([]);
  });

  it("a streamed reply grows in place: its finished paragraphs keep their nodes, and so does the message before it", async () => {
    const { host, page, problems } = await FakeExtension.open(e2e.browser, "chat");
    const question = { role: "user", id: "u1", content: "写一份长回复", isMeta: false, isCompactSummary: false, modelContent: null };
    host.on("wave/chat/open", () => opened([question, { role: "assistant", id: "a1", blocks: [] }]));
    await page.goto(`${ORIGIN}/index.html`);
    const panel = page.locator("wave-chat-panel");
    await panel.locator("[data-role=user]").waitFor();
    const text = (deltas: unknown[]) => host.deliver(updated({ deltas, status: null, queued: null, queuedTexts: null, queuedMessages: null, queueHeld: null, runningHooks: null, liveHooks: null, pendingPermissions: null, pendingQuestions: null }));
    await text([{ op: "block", index: 1, block: 0, value: { type: "text", text: "第 0 段，**开头**。\n\n" } }]);
    await panel.locator(".markdown p").first().waitFor();
    // Mark what is on screen now: nodes rendered again would lose the marks.
    const mark = () =>
      page.evaluate(() => {
        const root = document.querySelector("wave-app")!.shadowRoot!.querySelector("wave-chat-panel")!.shadowRoot!;
        (root.querySelector("[data-role=user]") as unknown as { __kept: boolean }).__kept = true;
        (root.querySelector(".markdown p") as unknown as { __kept: boolean }).__kept = true;
      });
    await mark();
    for (let i = 1; i <= 60; i++) await text([{ op: "text", index: 1, block: 0, text: `第 ${i} 段，说到第 ${i} 件事。\n\n` }]);
    await expect.poll(() => panel.locator(".markdown p").count()).toBe(61);
    const kept = await page.evaluate(() => {
      const root = document.querySelector("wave-app")!.shadowRoot!.querySelector("wave-chat-panel")!.shadowRoot!;
      const user = root.querySelector("[data-role=user]") as unknown as { __kept?: boolean };
      const first = root.querySelector(".markdown p") as unknown as { __kept?: boolean };
      return { user: user.__kept === true, first: first.__kept === true };
    });
    expect(kept).toEqual({ user: true, first: true });
    expect(await panel.locator(".markdown p").first().innerHTML()).toBe("第 0 段，<strong>开头</strong>。");
    expect(await panel.locator(".markdown p").last().innerText()).toBe("第 60 段，说到第 60 件事。");
    expect(problems).toEqual([]);
  });

  it("sends, queues while running, shows hook status messages, cancels and asks for permission", async () => {
    const { host, page, problems } = await FakeExtension.open(e2e.browser, "chat", "dark");
    host.on("wave/chat/open", () => opened([]));
    let running = false;
    host.on("wave/chat/send", () => ({ queued: running }));
    host.on("wave/chat/cancel", () => ({ cancelled: true }));
    await page.goto(`${ORIGIN}/index.html`);
    const panel = page.locator("wave-chat-panel");
    const input = panel.locator("textarea");
    await expect.poll(() => panel.locator("[data-action=send]").getAttribute("disabled")).toBeNull();

    // A prefill from the shell lands in the input, editable; Enter sends it as a user message.
    await host.deliver({ kind: "shell", command: "prefill", args: { text: "帮我配一个用户级钩子" } });
    await expect.poll(() => input.inputValue()).toBe("帮我配一个用户级钩子");
    await input.press("End");
    await input.pressSequentially("：Stop 时提醒我");
    await input.press("Enter");
    await expect.poll(() => host.posted.filter((m) => m.method === "wave/chat/send").length).toBe(1);
    expect(host.posted.find((m) => m.method === "wave/chat/send")!.params).toEqual({
      sessionId: SESSION,
      text: "帮我配一个用户级钩子：Stop 时提醒我",
    });
    await expect.poll(() => input.inputValue()).toBe("");

    running = true;
    await host.deliver(updated({ status: "running", runningHooks: ["正在检查命令…"] }));
    await expect.poll(() => panel.getByTestId("running").innerText()).toContain("正在检查命令…");

    await input.fill("再帮我看看 README");
    await panel.locator("[data-action=send]").click();
    await host.deliver(
      updated({ status: "running", queued: 1, queuedTexts: ["再帮我看看 README"], queuedMessages: [{ id: "q1", text: "再帮我看看 README" }], runningHooks: ["正在检查命令…"] }),
    );
    await expect.poll(() => panel.getByTestId("queued").innerText()).toContain("再帮我看看 README");

    // The server asks; the user answers "always allow".
    await host.deliver({
      kind: "request",
      id: "srv-1",
      method: "wave/chat/requestPermission",
      params: { sessionId: SESSION, toolUseId: "t9", toolName: "Write", toolInput: { file_path: "a.txt" }, mode: "default" },
    });
    const prompt = panel.getByTestId("permission");
    await expect.poll(() => prompt.innerText()).toContain("允许 Write 吗？");
    await page.screenshot({ path: join(SCREENSHOTS, "chat-panel-dark-running.png"), fullPage: true });
    await prompt.locator("[data-action=always]").click();
    await expect
      .poll(() => host.posted.find((m) => m.kind === "response" && m.id === "srv-1"))
      .toEqual({ kind: "response", id: "srv-1", result: { allow: true, always: true, message: null } });
    await expect.poll(() => prompt.count()).toBe(0); // gone with the next frame

    await panel.locator("[data-action=cancel]").click();
    await expect.poll(() => host.posted.some((m) => m.method === "wave/chat/cancel")).toBe(true);
    expect(problems).toEqual([]);
  });
});

describe("chat panel re-created by VS Code", () => {
  it("re-attaches to its session by the id it kept, shows the pending question and answers it", async () => {
    const { host, page, problems } = await FakeExtension.open(e2e.browser, "chat");
    const question = {
      sessionId: SESSION,
      toolUseId: "t7",
      toolName: "Write",
      toolInput: { file_path: "a.txt" },
      mode: "default",
      reason: null,
    };
    let pending: unknown[] = [];
    host.on("wave/chat/open", (params) => ({
      ...opened([]),
      sessionId: (params as { sessionId: string }).sessionId,
      pendingPermissions: pending.map((q) => ({ ...(q as object), sessionId: (params as { sessionId: string }).sessionId })),
    }));
    host.on("wave/chat/answerPermission", () => ({ answered: true }));
    await page.goto(`${ORIGIN}/index.html`);
    const opens = () => host.posted.filter((m) => m.method === "wave/chat/open");
    await expect.poll(() => opens().length).toBe(1);
    const first = opens()[0]!.params as { sessionId: string; create: boolean };
    expect(first.create).toBe(true);
    const send = page.locator("wave-chat-panel").locator("[data-action=send]");
    await expect.poll(() => send.getAttribute("disabled"), { timeout: 30_000 }).toBeNull(); // open

    pending = [question]; // a question came while the panel was hidden
    await page.reload(); // VS Code destroyed the webview and made it again
    await expect.poll(() => opens().length, { timeout: 30_000 }).toBe(2);
    expect(opens()[1]!.params).toEqual(first); // the same session, by the id it kept
    const prompt = page.locator("wave-chat-panel").getByTestId("permission");
    await expect.poll(() => prompt.count(), { timeout: 30_000 }).toBe(1);
    await prompt.locator("[data-action=deny]").click();
    await expect.poll(() => host.posted.find((m) => m.method === "wave/chat/answerPermission")?.params).toEqual({
      sessionId: first.sessionId,
      toolUseId: "t7",
      allow: false,
      always: false,
      message: null,
    });
    await expect.poll(() => prompt.count()).toBe(0);
    expect(problems).toEqual([]);
  });
});

describe("settings page (VS Code shell)", () => {
  it("says clearly that wavehost did not answer instead of loading forever", async () => {
    const { host, page, problems } = await FakeExtension.open(e2e.browser, "settings");
    host.silence("wave/hooks/list"); // the extension never relays it (e.g. a server restarting)
    await page.goto(`${ORIGIN}/index.html`);
    await expect.poll(() => host.posted.some((m) => m.method === "wave/hooks/list")).toBe(true);
    expect(host.posted[0]).toMatchObject({ kind: "shell", command: "ready", args: { view: "settings" } });
    // Loading, and a screen reader hears it once (the ring and the line are only seen).
    await expect.poll(() => page.getByTestId("loading-status").innerText()).toBe("正在加载钩子…");
    const heard = (await page.locator("wave-app").ariaSnapshot()).match(/正在加载钩子/g) ?? [];
    expect(heard).toHaveLength(1);
    expect(await page.title()).toBe("Wave 钩子设置");
    const error = page.getByTestId("load-error");
    await expect.poll(() => error.isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => error.innerText()).toContain("无法加载钩子列表：wavehost 没有及时响应");
    expect(problems).toEqual([]);
  });
});

describe("Show in settings (IDE shells: the chat and the settings page are two pages)", () => {
  const HOOK = { id: "p-guard", event: "PreToolUse", matcher: "Bash", source: "project", plugin: null, command: "./guard.sh" };
  const row = (id: string, event: string, command: string, index = 0) => ({
    id,
    source: "project",
    path: "/p/my-app/.wave/settings.json",
    pointer: `/hooks/${event}/${index}/hooks/0`,
    readOnly: false,
    event,
    catalogueEvent: event,
    matcher: event === "PreToolUse" ? "Bash" : null,
    type: "command",
    command,
    dialect: "wave",
  });

  for (const ide of ["vscode", "jetbrains"] as const) {
    it(`the chat asks its shell for the hook's row; the settings page shows the row the shell names (${ide})`, async () => {
      const chat = await FakeExtension.open(e2e.browser, "chat", "light", ide);
      const blocked = { type: "tool", id: "t1", name: "Bash", input: { command: "rm -rf build" }, status: "blocked", error: "no", blockedBy: HOOK };
      chat.host.on("wave/chat/open", () => opened([{ role: "assistant", id: "a1", blocks: [blocked] }]));
      await chat.page.goto(`${ORIGIN}/index.html`);
      await chat.page.locator("[data-testid=blocked-by] [data-action=show-hook]").click();
      await expect.poll(() => chat.host.posted.filter((m) => m.kind === "shell").map((m) => m.command)).toEqual(["ready", "openSettings"]);
      expect(chat.host.posted.at(-1)).toEqual({ kind: "shell", command: "openSettings", args: { hookId: "p-guard" } });
      await expect.poll(() => chat.page.locator("wave-hooks-page").count()).toBe(0); // the chat page stays the chat
      expect(chat.problems).toEqual([]);

      // The settings page (its own webview), opened on the user tab, hears showView with the id.
      const settings = await FakeExtension.open(e2e.browser, "settings", "light", ide);
      // The row is the 61st of its tab, far below the first screen.
      const many = Array.from({ length: 60 }, (_, i) => row(`p-${i}`, "PreToolUse", `./check-${i}.sh`, i));
      settings.host.on("wave/hooks/list", () => ({
        project: { dir: "/p/my-app", name: "my-app", home: "/h" },
        configFiles: [{ source: "project", path: "/p/my-app/.wave/settings.json", exists: true, readOnly: false }],
        hooks: [{ ...row("u-1", "SessionStart", "./hello.sh"), source: "user", path: "/h/.wave/settings.json" }, ...many, row("p-guard", "PreToolUse", "./guard.sh", 60)],
        diagnostics: [],
        overlaps: [],
        dialectsOff: [],
        trusted: true,
      }));
      await settings.page.goto(`${ORIGIN}/index.html`);
      await expect.poll(() => settings.page.getByTestId("count-project").innerText()).toBe("61");
      await expect.poll(() => settings.page.locator("[role=tab][data-source=user]").getAttribute("aria-selected")).toBe("true");
      await settings.host.deliver({ kind: "shell", command: "showView", args: { view: "settings", hookId: "p-guard" } });
      const revealed = settings.page.locator("li.hook[data-revealed]");
      await expect.poll(() => revealed.getAttribute("data-hook-id")).toBe("p-guard");
      await expect.poll(() => settings.page.locator("[role=tab][data-source=project]").getAttribute("aria-selected")).toBe("true");
      await expect.poll(() => revealed.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
      const box = (await revealed.boundingBox())!; // scrolled into view
      expect(box.y >= 0 && box.y + box.height <= 760, `row at y=${box.y}`).toBe(true);
      await expect.poll(() => revealed.innerText()).toContain("./guard.sh");
      await settings.page.screenshot({ path: join(SCREENSHOTS, `ide-show-in-settings-${ide}.png`) });
      expect(settings.problems).toEqual([]);
      await chat.page.close();
      await settings.page.close();
    });
  }
});

describe("JetBrains shell", () => {
  it("talks through the injected bridge: the settings page lists, New hands over to the chat", async () => {
    const { host, page, problems } = await FakeExtension.open(e2e.browser, "settings", "light", "jetbrains");
    host.on("wave/hooks/list", () => ({
      project: { dir: "/p/my-app", name: "my-app" },
      configFiles: [{ source: "user", path: "/h/.wave/settings.json", exists: true, readOnly: false }],
      hooks: [
        {
          id: "h1",
          source: "user",
          path: "/h/.wave/settings.json",
          readOnly: false,
          event: "SessionStart",
          catalogueEvent: "SessionStart",
          matcher: "startup",
          type: "command",
          command: "./hello.sh",
          dialect: "wave",
        },
      ],
      diagnostics: [],
      overlaps: [],
      dialectsOff: [],
    }));
    host.on("wave/hooks/prefill", () => ({ prompt: "帮我配一个用户级钩子：…", configPath: null }));
    await page.goto(`${ORIGIN}/index.html`);
    await expect.poll(() => page.getByTestId("count-user").innerText()).toBe("1");
    // The event's summary heads its group; the row shows matcher and command.
    await expect.poll(() => page.getByTestId("group").innerText()).toContain("会话开始或恢复时");
    await expect.poll(() => page.locator("li.hook").innerText()).toContain("./hello.sh");
    await page.locator("[data-action=new]").first().click();
    await expect
      .poll(() => host.posted.filter((m) => m.kind === "shell").map((m) => m.command))
      .toEqual(["ready", "openChat", "closeSettings"]);
    expect(host.posted.at(-2)).toEqual({ kind: "shell", command: "openChat", args: { prefill: "帮我配一个用户级钩子：…" } });
    expect(problems).toEqual([]);
  });

  it("re-renders in the IDE's new language on setLocale", async () => {
    const { host, page, problems } = await FakeExtension.open(e2e.browser, "settings", "light", "jetbrains");
    host.on("wave/hooks/list", () => ({
      project: { dir: "/p/my-app", name: "my-app" },
      configFiles: [],
      hooks: [],
      diagnostics: [],
      overlaps: [],
      dialectsOff: [],
      trusted: true,
    }));
    await page.goto(`${ORIGIN}/index.html`);
    const empty = page.getByTestId("empty-user");
    await expect.poll(() => empty.innerText()).toContain("还没有用户级钩子");
    await host.deliver({ kind: "shell", command: "setLocale", args: { locale: "fr-FR" } });
    await expect.poll(() => empty.innerText()).toContain("No user hooks yet");
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("en");
    await host.deliver({ kind: "shell", command: "setLocale", args: { locale: "zh-TW" } });
    await expect.poll(() => empty.innerText()).toContain("还没有用户级钩子");
    expect(problems).toEqual([]);
  });
});
