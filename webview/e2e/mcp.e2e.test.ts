/**
 * The settings page's MCP servers list in real Chromium against a real `wavehost web`: a real MCP
 * server (the SDK server of tests/mcp/server.py) listed before any session started it, connected
 * with its tools once a chat turn has called one (the permission prompt names server and tool),
 * a wrong entry saying why, and Open config file showing `.mcp.json` at the server's line.
 */

import { execFileSync } from "node:child_process";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { AS_ROOT, REPO, SCREENSHOTS, collectProblems, e2eSuite } from "./harness";

const e2e = e2eSuite();
const VENV_PYTHON = join(REPO, ".venv/bin/python");
const SITE = execFileSync(VENV_PYTHON, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], { encoding: "utf8" }).trim();
/** The server runs as `nobody` when the tests run as root, and nobody may not reach the venv's
 * interpreter behind its symlink (pyenv under /root): then Debian's python3, the venv's packages. */
const MEMORY = AS_ROOT
  ? { command: "/usr/bin/python3", args: ["-m", "tests.mcp.server"], env: { PYTHONPATH: `${REPO}:${SITE}` } }
  : { command: VENV_PYTHON, args: ["-m", "tests.mcp.server"], env: { PYTHONPATH: REPO } };

const servers = (page: Page) => page.getByTestId("mcp-server");
const server = (page: Page, name: string) => page.locator(`[data-testid=mcp-server][data-name=${name}]`);

describe("settings page: MCP servers", () => {
  it("lists each server, then shows the one a chat started as connected with its tools", async () => {
    const ws = e2e.workspace();
    ws.write(join(ws.project, ".mcp.json"), {
      mcpServers: { memory: MEMORY },
    });
    ws.write(ws.userSettings, { mcpServers: { tickets: { type: "http", url: "${TICKETS_URL}/mcp" } } });
    const turns = [{ text: "", tool_calls: [{ name: "mcp__memory__remember", input: { key: "k", value: "v" } }] }, { text: "记好了。" }];
    const script = ws.write(join(ws.root, "turns.json"), { turns });
    const web = await e2e.web(ws, "zh-CN", [], { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });

    const settings = await e2e.browser.newPage({ viewport: { width: 1000, height: 900 } });
    const problems = collectProblems(settings);
    await settings.goto(web.url);
    await expect.poll(() => servers(settings).count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => server(settings, "memory").getAttribute("data-status")).toBe("notStarted");
    await expect.poll(() => server(settings, "memory").getByTestId("mcp-status").innerText()).toBe("尚未启动（聊天会话启动它）");
    await expect.poll(() => server(settings, "tickets").getAttribute("data-status")).toBe("invalid");
    await expect.poll(() => server(settings, "tickets").getByTestId("mcp-error").innerText()).toBe("missing environment variables: TICKETS_URL");
    await settings.getByTestId("mcp-servers").scrollIntoViewIfNeeded();
    await settings.screenshot({ path: join(SCREENSHOTS, "settings-mcp-servers-before.png"), fullPage: true });

    // A chat turn calls the server's tool: the permission prompt names server and tool.
    const chat = await e2e.browser.newPage({ viewport: { width: 1000, height: 900 } });
    await chat.goto(`${web.url}&view=chat`);
    const panel = chat.locator("wave-chat-panel");
    const send = panel.locator("[data-action=send]");
    await expect.poll(() => send.getAttribute("disabled"), { timeout: 30_000 }).toBeNull();
    await panel.locator("textarea").fill("记下来");
    await panel.locator("textarea").press("Enter");
    const prompt = panel.getByTestId("permission");
    await expect.poll(() => prompt.isVisible(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => prompt.innerText()).toContain("允许 MCP 服务 memory 的工具 remember 吗？");
    await chat.screenshot({ path: join(SCREENSHOTS, "chat-mcp-permission.png"), fullPage: true });
    await prompt.locator("[data-action=allow]").click();
    await expect.poll(() => panel.locator(".log").innerText(), { timeout: 30_000 }).toContain("记好了。");
    await expect.poll(() => panel.locator(".tool[data-tool=mcp__memory__remember]").getAttribute("data-status")).toBe("success");

    // The settings page heard of it (wave/mcp/changed) and lists the server as connected.
    await expect.poll(() => server(settings, "memory").getAttribute("data-status"), { timeout: 30_000 }).toBe("connected");
    await expect.poll(() => server(settings, "memory").getByTestId("mcp-status").innerText()).toBe("已连接 · 10 个工具");
    await server(settings, "memory").locator("summary").click();
    await expect.poll(() => server(settings, "memory").locator("details li").first().innerText()).toBe("mcp__memory__remember");
    await settings.getByTestId("mcp-servers").scrollIntoViewIfNeeded();
    await settings.screenshot({ path: join(SCREENSHOTS, "settings-mcp-servers-connected.png"), fullPage: true });

    // Open config file: browser mode shows .mcp.json beside the page.
    await server(settings, "memory").locator("[data-action=open-mcp]").click();
    const viewer = settings.locator("wave-file-viewer");
    await viewer.waitFor({ timeout: 30_000 });
    await expect.poll(() => settings.getByTestId("viewer-path").innerText()).toContain(".mcp.json");
    expect(problems).toEqual([]);
  });
});
