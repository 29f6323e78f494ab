/**
 * The e2e harness: a workspace of real files, a real `wavehost web` (which starts a real
 * `wavehost serve`), and Debian's Chromium driven by playwright-core. Nothing is mocked.
 */

import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { type Browser, type Page, type WebSocket, chromium } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, "../..");
export const DIST = resolve(here, "../dist");
export const SCREENSHOTS = resolve(here, "../build/screenshots");
const WAVEHOST = process.env.WAVEHOST_BIN ?? join(REPO, ".venv/bin/wavehost");
const PYTHON = join(REPO, ".venv/bin/python");
export const CHROMIUM = process.env.CHROMIUM_BIN ?? "/usr/bin/chromium";

/** As root, file permissions deny nothing: the language server then runs as `nobody`. */
const NOBODY = 65534;
export const AS_ROOT = process.getuid?.() === 0;

/**
 * Where the server keeps settings files, asked of the server's own `wavehost.paths` (once), so the
 * tests never spell a location the server owns.
 */
const LAYOUT: {
  userSettings: string;
  projectSettings: string;
  pluginHooks: string;
  claudeUserSettings: string;
  claudeProjectSettings: string;
} = JSON.parse(
  execFileSync(
    PYTHON,
    [
      "-c",
      [
        "import json",
        "from pathlib import Path",
        "from wavehost import paths",
        'home, project = Path("/HOME"), Path("/PROJECT")',
        "print(json.dumps({",
        '  "userSettings": str(paths.user_settings(home)),',
        '  "projectSettings": str(paths.project_settings(project)),',
        '  "pluginHooks": str(paths.plugin_hooks_file(paths.plugins_dir(home) / "NAME")),',
        '  "claudeUserSettings": str(paths.claude_user_settings(home)),',
        '  "claudeProjectSettings": str(paths.claude_project_settings(project)),',
        "}))",
      ].join("\n"),
    ],
    { encoding: "utf8" },
  ),
);

export class Workspace {
  readonly root = mkdtempSync(join(tmpdir(), "wavehost-e2e-"));
  readonly home = join(this.root, "home");
  readonly project = join(this.root, "my-app");

  constructor() {
    chmodSync(this.root, 0o755);
    mkdirSync(this.home);
    mkdirSync(this.project);
  }

  get userSettings(): string {
    return this.home + LAYOUT.userSettings.slice("/HOME".length);
  }
  get projectSettings(): string {
    return this.project + LAYOUT.projectSettings.slice("/PROJECT".length);
  }
  /** Claude Code's own settings files, which wavehost runs too. */
  get claudeUserSettings(): string {
    return this.home + LAYOUT.claudeUserSettings.slice("/HOME".length);
  }
  get claudeProjectSettings(): string {
    return this.project + LAYOUT.claudeProjectSettings.slice("/PROJECT".length);
  }
  pluginHooks(name: string): string {
    return this.home + LAYOUT.pluginHooks.slice("/HOME".length).replace("/NAME/", `/${name}/`);
  }

  write(path: string, content: unknown): string {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2) + "\n");
    if (AS_ROOT) this.chownAll();
    return path;
  }

  private chownAll(): void {
    const walk = (path: string): void => {
      chownSync(path, NOBODY, NOBODY);
      if (statSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    };
    walk(this.root);
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export function hooksFile(events: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>, extra = {}) {
  return { ...extra, hooks: events };
}

export function command(cmd: string, extra: Record<string, unknown> = {}) {
  return { type: "command", command: cmd, ...extra };
}

export interface WebServer {
  /** The printed address with its token (`http://127.0.0.1:PORT/?token=…`): the way in. */
  url: string;
  /** The address without the token (`http://127.0.0.1:PORT/`): where the page lands. */
  address: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** `wavehost web` on the workspace; `locale` null: no --locale (the environment's, by the rule). */
export async function startWeb(
  ws: Workspace,
  locale: string | null = "zh-CN",
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<WebServer> {
  const argv = ["web", "--project", ws.project, "--port", "0", ...(locale === null ? [] : ["--locale", locale]), ...args];
  if (AS_ROOT) {
    const drop = `setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups`;
    argv.push("--serve-command", `${drop} ${PYTHON} -m wavehost serve`);
  }
  const child = spawn(WAVEHOST, argv, {
    cwd: ws.project,
    env: { ...process.env, HOME: ws.home, WAVEHOST_WEBVIEW_DIST: DIST, PYTHONUNBUFFERED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`wavehost web did not start in 30 s:\n${output}`)), 30_000);
    const check = () => {
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout!.on("data", check);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`wavehost web exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    address: url.split("?")[0]!,
    process: child,
    output: () => output,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}

/** Debian's Chromium; Playwright gives every launch a fresh temporary profile (user data dir). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** What crossed the page's WebSocket, in order, as `sent:`/`received:` + kind and name. */
export class FrameLog {
  readonly frames: { dir: "sent" | "received"; data: Record<string, unknown> }[] = [];
  constructor(page: Page) {
    page.on("websocket", (socket: WebSocket) => {
      socket.on("framesent", (f) => this.push("sent", f.payload));
      socket.on("framereceived", (f) => this.push("received", f.payload));
    });
  }
  private push(dir: "sent" | "received", payload: string | Buffer): void {
    try {
      this.frames.push({ dir, data: JSON.parse(payload.toString()) });
    } catch {
      /* not an envelope */
    }
  }
  index(pred: (f: { dir: string; data: Record<string, unknown> }) => boolean): number {
    return this.frames.findIndex(pred);
  }
}

/** Console errors and CSP violations: a strict-CSP page must produce none. */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

export function chromiumAvailable(): boolean {
  return spawnSync(CHROMIUM, ["--version"]).status === 0;
}

/**
 * What every e2e file shares: one Chromium for the file, and per test the workspaces and the
 * `wavehost web` processes it made, stopped and removed after the test. Call once, at the top.
 */
export function e2eSuite() {
  const servers: WebServer[] = [];
  const workspaces: Workspace[] = [];
  const suite = {
    browser: undefined as unknown as Browser,
    workspace(): Workspace {
      const made = new Workspace();
      workspaces.push(made);
      return made;
    },
    async web(...args: Parameters<typeof startWeb>): Promise<WebServer> {
      const started = await startWeb(...args);
      servers.push(started);
      return started;
    },
  };
  beforeAll(async () => {
    suite.browser = await launchBrowser();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await suite.browser?.close();
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
    for (const made of workspaces.splice(0)) made.remove();
  });
  return suite;
}
