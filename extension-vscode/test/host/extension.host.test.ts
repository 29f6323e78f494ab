/**
 * Tests inside the real extension host: code-server started with the smoke-test driver runs
 * test/host/payload.ts (built here) next to the installed vsix, with the real `vscode` API. The
 * payload checks what only the extension host can see (registered commands, trust re-sent to the
 * running server, showDocument's editor, the settings panel's disposal order); this side does what
 * a person does when it asks (grants workspace trust, clicks Edit) and reads its result file.
 */

import { cpSync, existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { HostResult } from "./payload";
import {
  CodeServer,
  EXTENSION,
  REPO,
  launchBrowser,
  runCommand,
  screenshot,
  sleep,
  tempDir,
  waveFrame,
  writeJson,
} from "../e2e/harness";

const out = tempDir("host-test");
const home = tempDir("host-home");
const project = join(tempDir("host-project"), "demo-project");
const projectSettings = join(project, ".wave", "settings.json");

let server: CodeServer;
let browser: Browser;
let page: Page;
let result: HostResult;

async function grantTrust(): Promise<void> {
  await runCommand(page, "Workspaces: Manage Workspace Trust");
  const trust = page.locator(".workspace-trust-editor .monaco-button", { hasText: /^Trust/ }).first();
  await trust.waitFor({ timeout: 30_000 });
  await screenshot(page, "host-01-restricted-mode");
  await trust.click();
}

async function clickEdit(): Promise<void> {
  const settings = await waveFrame(page, "settings", 60_000);
  await settings.getByText("Project hooks").first().click();
  const hook = settings.locator("li.hook", { hasText: "guard-bash.py" });
  await hook.waitFor({ timeout: 30_000 });
  await screenshot(page, "host-02-settings-before-edit");
  await hook.locator("[data-action=edit]").click();
}

beforeAll(async () => {
  const payload = join(EXTENSION, "build", "host-tests", "payload.js");
  await build({
    entryPoints: [join(EXTENSION, "test", "host", "payload.ts")],
    outfile: payload,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    logLevel: "warning",
  });
  cpSync(join(REPO, "examples", "demo-project"), project, { recursive: true });
  writeJson(join(home, ".wave", "settings.json"), { hooks: {} });
  server = await CodeServer.start({
    home,
    smokeTestDriver: true,
    env: { WAVEHOST_HOST_TEST_DIR: out },
    settings: { "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never" },
  });
  const installed = readdirSync(server.extensions).find((name) => name.startsWith("wavehost.wavehost-"));
  if (!installed) throw new Error(`the vsix was not installed into ${server.extensions}`);
  const remote = (path: string) => `vscode-remote://${new URL(server.origin).host}${path}`;
  const parameters = JSON.stringify([
    ["extensionDevelopmentPath", remote(join(server.extensions, installed))],
    ["extensionTestsPath", remote(payload)],
  ]);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const url = `${server.origin}/?folder=${encodeURIComponent(project)}&payload=${encodeURIComponent(parameters)}`;
  await page.goto(url, { waitUntil: "domcontentloaded", timeout: 120_000 });
  const done = new Set<string>();
  const deadline = Date.now() + 200_000;
  while (!existsSync(join(out, "result.json"))) {
    if (Date.now() > deadline) throw new Error("the extension-host payload wrote no result");
    const step = existsSync(join(out, "step")) ? readFileSync(join(out, "step"), "utf8") : "";
    if (step && !done.has(step)) {
      done.add(step);
      if (step === "trust") await grantTrust();
      if (step === "edit") await clickEdit();
    }
    await sleep(200);
  }
  result = JSON.parse(readFileSync(join(out, "result.json"), "utf8")) as HostResult;
  await screenshot(page, "host-03-after-edit");
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(out, { recursive: true, force: true });
});

describe("inside the real extension host", () => {
  it("ran without errors", () => {
    expect(result.errors).toEqual([]);
  });

  it("a page asking in the middle of a restart waits for the new server instead of hearing it stopped", () => {
    expect(result.restart.connectDuring).toBe("connection");
    expect(result.restart.states).not.toContain("stopped");
    expect(result.restart.states.at(-1)).toBe("ready");
    expect(result.restart.listed).toBe(true);
  });

  it("registers the four public commands", () => {
    // VS Code adds `wavehost.chat.*` (focus, open, …) for the contributed chat view by itself.
    const ours = result.commands.filter((c) => !c.startsWith("wavehost.chat."));
    expect(ours.sort()).toEqual(
      ["wavehost.openChat", "wavehost.openSettings", "wavehost.restartServer", "wavehost.showLog"].sort(),
    );
  });

  it("re-sends a granted workspace trust to the running server, without a restart", () => {
    expect(result.trust.trustedAtStart).toBe(false);
    expect(result.trust.listedTrustedBefore).toBe(false);
    expect(result.trust.listedTrustedAfter).toBe(true);
    expect(result.trust.statesAfterGrant).toEqual([]);
  });

  it("the server's window/showDocument opens the config file in an editor", () => {
    expect(result.showDocument.answer).toMatchObject({ opened: true });
    expect(result.showDocument.activeEditor).toBe(projectSettings);
  });

  it("Edit: the file's editor comes first, the chat next, and the panel is disposed last", () => {
    expect(result.edit.panelOpen).toBe(false);
    expect(result.edit.handled.filter((c) => c !== "ready")).toEqual(["openChat", "closeSettings"]);
    const editor = result.edit.events.indexOf("editor .wave/settings.json");
    const disposed = result.edit.events.indexOf("panel disposed");
    expect(editor).toBeGreaterThanOrEqual(0);
    expect(disposed).toBeGreaterThan(editor);
    expect(result.edit.events.at(-1)).toMatch(/panel disposed|closed Wave Hooks/);
  });
});
