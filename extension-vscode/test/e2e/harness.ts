/**
 * A real VS Code for the tests: code-server 4.139.1 (Node 24), the built vsix installed into it,
 * Debian's Chromium driven by Playwright. code-server runs in its own process group (setsid) and
 * the whole group is killed at the end: extension hosts would otherwise outlive it.
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { type Browser, type Frame, type Page, chromium } from "playwright-core";

export const EXTENSION = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const REPO = resolve(EXTENSION, "..");
export const SCREENSHOTS = join(EXTENSION, "build", "screenshots");

function tool(script: string, env: string): string {
  const given = process.env[env];
  if (given) return given;
  return execFileSync("bash", [join(REPO, "scripts", script)], { encoding: "utf8" }).trim();
}

/** The vsix under test (scripts/package-vscode builds it). */
export function vsixPath(): string {
  if (process.env.WAVEHOST_VSIX) return process.env.WAVEHOST_VSIX;
  const version = JSON.parse(readFileSync(join(EXTENSION, "package.json"), "utf8")).version as string;
  const path = join(EXTENSION, "dist", `wavehost-${version}.vsix`);
  if (!existsSync(path)) throw new Error(`${path} is missing: run bash scripts/package-vscode first`);
  return path;
}

export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `wavehost-vscode-${name}-`));
}

export function writeJson(path: string, value: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2) + "\n");
  return path;
}

export interface CodeServerOptions {
  home: string;
  /** Extra environment for code-server and so for the extension host and wavehost. */
  env?: Record<string, string>;
  /** VS Code user settings. */
  settings?: Record<string, unknown>;
  /** `--vscode-option enable-smoke-test-driver`: the payload's extension tests run. */
  smokeTestDriver?: boolean;
  /** Install the vsix (default); false: a VS Code without the extension, for a baseline. */
  install?: boolean;
  /** More extensions to install beside it (vsix files), e.g. a language pack. */
  alsoInstall?: string[];
  /** `--locale`: the display language (one needs its language pack installed to take effect). */
  locale?: string;
}

export class CodeServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly origin: string,
    readonly userData: string,
    readonly extensions: string,
  ) {}

  static async start(options: CodeServerOptions): Promise<CodeServer> {
    const bin = tool("setup-code-server", "WAVEHOST_CODE_SERVER");
    const node24 = tool("node24", "WAVEHOST_NODE24");
    const root = tempDir("code-server");
    const userData = join(root, "user-data");
    const extensions = join(root, "extensions");
    writeJson(join(userData, "User", "settings.json"), {
      "workbench.startupEditor": "none",
      "workbench.tips.enabled": false,
      "telemetry.telemetryLevel": "off",
      "extensions.autoCheckUpdates": false,
      "extensions.autoUpdate": false,
      "update.mode": "none",
      "security.workspace.trust.enabled": false,
      "chat.disableAIFeatures": true,
      ...options.settings,
    });
    const env = { ...process.env, PATH: `${node24}:${process.env.PATH}`, HOME: options.home, ...options.env };
    if (options.install !== false) {
      execFileSync(bin, ["--extensions-dir", extensions, "--install-extension", vsixPath()], { env, stdio: "pipe" });
    }
    for (const vsix of options.alsoInstall ?? []) {
      // A language pack is recorded in the user data (languagepacks.json): that of this VS Code.
      const into = ["--user-data-dir", userData, "--extensions-dir", extensions];
      execFileSync(bin, [...into, "--install-extension", vsix], { env, stdio: "pipe" });
    }
    const args = ["--auth", "none", "--bind-addr", "127.0.0.1:0", "--user-data-dir", userData, "--extensions-dir", extensions];
    args.push("--disable-telemetry", "--disable-update-check");
    if (options.locale) {
      args.push("--locale", options.locale);
      recordLanguagePacks(userData, extensions);
    }
    if (options.smokeTestDriver) args.push("--vscode-option", "enable-smoke-test-driver");
    const child = spawn(bin, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] }); // detached: setsid
    const origin = await new Promise<string>((resolveOrigin, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`code-server did not start:\n${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolveOrigin(match[1]!);
        }
      };
      child.stdout?.on("data", read);
      child.stderr?.on("data", read);
      child.once("exit", (code) => reject(new Error(`code-server exited (${code}):\n${output}`)));
    });
    return new CodeServer(child, origin, userData, extensions);
  }

  /**
   * The extension's "wavehost" output channel, one file per extension host (a window each), in
   * the order the extension hosts started: the newest window's last. What a failed test prints.
   */
  wavehostLogs(): { path: string; text: string }[] {
    const logs = join(this.userData, "logs");
    const found: { path: string; order: [string, number] }[] = [];
    for (const session of existsSync(logs) ? readdirSync(logs) : []) {
      for (const host of readdirSync(join(logs, session))) {
        const path = join(logs, session, host, "wavehost.wavehost", "wavehost.log");
        if (existsSync(path)) found.push({ path, order: [session, Number(/\d+$/.exec(host)?.[0] ?? 0)] });
      }
    }
    found.sort((a, b) => a.order[0].localeCompare(b.order[0]) || a.order[1] - b.order[1]);
    return found.map(({ path }) => ({ path, text: readFileSync(path, "utf8") }));
  }

  /** The process id of the one wavehost server the installed extension runs. */
  wavehostPid(): number {
    const pids = execFileSync("pgrep", ["-f", `${this.extensions}/.*/server/launch.py serve`], { encoding: "utf8" })
      .trim()
      .split("\n");
    if (pids.length !== 1) throw new Error(`expected one wavehost server, found: ${pids.join(" ")}`);
    return Number(pids[0]);
  }

  /** code-server's process id (its process group's too). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Kills code-server's whole process group (extension hosts and wavehost included). */
  async stop(): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined || this.child.exitCode !== null) return;
    const exited = new Promise((done) => this.child.once("exit", done));
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      return;
    }
    const killed = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
    if (!killed) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
}

/**
 * Writes the user data's list of installed language packs (languagepacks.json), which VS Code
 * reads at start to resolve `--locale`: it writes the list itself only later (when its language
 * service first runs), so a first start would fall back to English.
 */
function recordLanguagePacks(userData: string, extensions: string): void {
  const packs: Record<string, unknown> = {};
  for (const dir of readdirSync(extensions)) {
    const manifest = join(extensions, dir, "package.json");
    if (!existsSync(manifest)) continue;
    const json = JSON.parse(readFileSync(manifest, "utf8"));
    for (const l of json.contributes?.localizations ?? []) {
      packs[l.languageId] = {
        hash: `${json.publisher}.${json.name}-${json.version}`.replace(/\W/g, ""),
        label: l.localizedLanguageName,
        extensions: [{ extensionIdentifier: { id: `${json.publisher}.${json.name}` }, version: json.version }],
        translations: Object.fromEntries(l.translations.map((t: { id: string; path: string }) => [t.id, join(extensions, dir, t.path)])),
      };
    }
  }
  writeJson(join(userData, "languagepacks.json"), packs);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
}

/**
 * Opens the workbench on `folder`, on a multi-root workspace of these folders (its
 * .code-workspace file is returned), or on no folder, and waits until it is usable.
 */
export async function openWorkbench(page: Page, origin: string, folder?: string | string[]): Promise<string | undefined> {
  let url = `${origin}/?ew=true`; // no folder: an empty window (code-server would reopen the last one)
  const workspace = Array.isArray(folder) ? multiRoot(folder) : undefined;
  if (typeof folder === "string") url = `${origin}/?folder=${encodeURIComponent(folder)}`;
  else if (workspace) url = `${origin}/?workspace=${encodeURIComponent(workspace)}`;
  await loadWorkbench(page, url);
  if (folder === undefined) return undefined;
  // The title names the folder or the workspace once the window has opened it. A loaded machine
  // can take long for that (the workbench loads, then reads the .code-workspace file over its
  // remote connection): waited for as long as it takes, never loaded again.
  const root = typeof folder === "string" ? basename(folder) : "(Workspace)";
  try {
    await page.waitForFunction((name) => document.title.includes(name), root, { timeout: 120_000 });
  } catch {
    throw new Error(`code-server did not open ${root} in 120 s: the window is "${await page.title()}"`);
  }
  // A multi-root window knows its folders only once it has read the .code-workspace file (over
  // the remote connection, after the title): until then it shows "No Folder Opened", and the
  // quick open finds none of their files. Each folder's row in the Explorer says it is there.
  for (const path of Array.isArray(folder) ? folder : []) {
    const row = page.locator(".explorer-folders-view .monaco-list-row", { hasText: new RegExp(basename(path), "i") });
    await row.first().waitFor({ timeout: 120_000 });
  }
  return workspace;
}

/** What each workbench page said on its console (errors and warnings), for explainFailure. */
const consoles = new WeakMap<Page, string[]>();

async function loadWorkbench(page: Page, url: string): Promise<void> {
  if (!consoles.has(page)) {
    const said: string[] = [];
    consoles.set(page, said);
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") said.push(`${m.type()}: ${m.text().slice(0, 500)}`);
    });
  }
  await page.goto(url, { waitUntil: "domcontentloaded", timeout: 120_000 });
  await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  await page.locator(".statusbar").waitFor({ timeout: 60_000 });
}

export function multiRoot(folders: string[]): string {
  const file = join(tempDir("workspace"), "two.code-workspace");
  writeJson(file, { folders: folders.map((path) => ({ path })) });
  return file;
}

/** Waits until the workbench has loaded the extension (its "Wave" activity-bar entry is there). */
export async function waitForExtension(page: Page): Promise<void> {
  await page.locator(".activitybar [aria-label^='Wave']").first().waitFor({ timeout: 60_000 });
}

/** Runs a command from the command palette (F1), by its title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await chooseCommand(page, title);
  await page.keyboard.press("Enter");
}

/** Types the command into the palette until it is the first row: Enter then runs it. */
export async function chooseCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor();
  await input.fill(`>${title}`);
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
  await row.waitFor({ timeout: 15_000 });
}

/** The frame of a wavehost page (settings or chat), once its `wave-app` is there. */
export async function waveFrame(page: Page, view: "settings" | "chat", timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      try {
        const found = await frame.evaluate(
          (v) => document.body?.dataset.view === v && document.querySelector("wave-app") !== null,
          view,
        );
        if (found) return frame;
      } catch {
        // a frame that went away or is cross-origin and not ours
      }
    }
    await sleep(200);
  }
  throw new Error(`no wavehost ${view} page appeared`);
}

/** Whether a wavehost page of this view is loaded anywhere in the workbench now. */
export async function hasWaveFrame(page: Page, view: "settings" | "chat"): Promise<boolean> {
  for (const frame of page.frames()) {
    try {
      if (await frame.evaluate((v) => document.body?.dataset.view === v && !!document.querySelector("wave-app"), view)) {
        return true;
      }
    } catch {
      // gone
    }
  }
  return false;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/**
 * A failed test's error, with what it knew: a screenshot (`${name}-failed`), the "Current project"
 * header of each wavehost page loaded now, the active editor tab, and the newest extension host's
 * wavehost output channel (its "project: …" line says which folder the server was given, and why).
 */
export async function explainFailure(page: Page, server: CodeServer, name: string, err: unknown): Promise<Error> {
  const lines: string[] = [`workbench: ${page.url()}`];
  try {
    await screenshot(page, `${name}-failed`);
    lines.push(`screenshot: ${join(SCREENSHOTS, `${name}-failed.png`)}`);
  } catch (shot) {
    lines.push(`no screenshot: ${(shot as Error).message}`);
  }
  const headers: string[] = [];
  for (const frame of page.frames()) {
    try {
      const header = frame.evaluate(() => {
        const view = document.body?.dataset.view;
        if (!view || !document.querySelector("wave-app")) return null;
        const text = document.body.innerText ?? "";
        if (view !== "chat") return `${view} page: ${/Current project: [^\n]*/.exec(text)?.[0] ?? "(no project header)"}`;
        // The chat: its words (deep, through the shadow roots) and its input's state.
        const app = document.querySelector("wave-app")?.shadowRoot;
        const panel = app?.querySelector("wave-chat-panel")?.shadowRoot;
        const input = panel?.querySelector("textarea");
        const send = panel?.querySelector("[data-action=send]");
        const words = (panel?.textContent ?? "").replace(/\s+/g, " ").slice(0, 400);
        return `chat page: input ${JSON.stringify(input?.value ?? null)}, send ${send?.hasAttribute("disabled") ? "disabled" : "enabled"}, session ${panel?.host.getAttribute("data-session-id") ?? "none"}: ${words}`;
      });
      // A frame that hangs tells nothing: no waiting for it.
      const found = await Promise.race([header.catch(() => null), sleep(5000).then(() => null)]);
      if (found) headers.push(found);
    } catch {
      // gone, or not ours
    }
  }
  lines.push(`wavehost pages now: ${headers.length ? headers.join("; ") : "none"}`);
  const tab = await page.locator(".tabs-container .tab.active").allInnerTexts().catch(() => []);
  lines.push(`active editor tabs: ${tab.map((t) => t.replace(/\s+/g, "")).join(", ") || "none"}`);
  const said = consoles.get(page) ?? [];
  lines.push(`the workbench's console (errors, warnings; the last 40 of ${said.length}):\n${said.slice(-40).join("\n")}`);
  const log = server.wavehostLogs().at(-1);
  lines.push(log ? `wavehost output channel (${log.path}):\n${log.text}` : "no wavehost output channel was written");
  const message = err instanceof Error ? err.message : String(err);
  return new Error(`${message}\n\n${lines.join("\n")}`, { cause: err });
}
