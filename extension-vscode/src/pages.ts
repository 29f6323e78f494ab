/**
 * The two webviews, both loading the one shared page (webview/dist, copied to dist/webview):
 * the settings page as a WebviewPanel in the editor area, the chat as a WebviewView in the
 * "Wave" activity-bar container. Strict CSP with a fresh nonce, VS Code's own theme variables,
 * VS Code's display language.
 */

import { randomBytes } from "node:crypto";

import * as vscode from "vscode";

import { COMMANDS } from "./commands";
import type { ServerHost } from "./host";
import { METHODS, parseEnvelope, SHELL } from "./protocol";
import { type PageKind, PageRelay, type Router } from "./relay";
import { STEPS, type Timeline } from "./timeline";

export const SETTINGS_PANEL = "wavehost.settings";
export const CHAT_VIEW = "wavehost.chat";

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** The page's HTML around the two fixed assets (webview/README.md "Hosting the page"). */
export function pageHtml(
  webview: vscode.Webview,
  root: vscode.Uri,
  view: PageKind,
  extra: { sessionId?: string | undefined } = {},
): string {
  const nonce = randomBytes(16).toString("base64");
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(root, "assets", name)).toString();
  const source = webview.cspSource;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${source}`,
    `img-src ${source} data:`,
    `font-src ${source}`,
  ].join("; ");
  const session = extra.sessionId ? ` data-session-id="${escapeAttribute(extra.sessionId)}"` : "";
  return `<!doctype html>
<html data-locale="${escapeAttribute(vscode.env.language)}">
  <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="${csp}">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="stylesheet" href="${asset("webview.css")}">
    <script type="module" nonce="${nonce}" src="${asset("webview.js")}"></script>
  </head>
  <body data-view="${view}"${session}></body>
</html>`;
}

/** One webview's link to the server: its relay, registered with the router while it lives. */
class Page implements vscode.Disposable {
  readonly relay: PageRelay;
  private readonly disposables: vscode.Disposable[] = [];
  private ready!: Promise<void>;
  private markReady: () => void = () => {};
  /** When its HTML was set, and whether it got an answer since (for the start-up timings in the log). */
  private loadedAt = Date.now();
  private answered = false;

  constructor(
    kind: PageKind,
    private readonly webview: vscode.Webview,
    host: ServerHost,
    router: Router,
    shell: (command: string, args: Record<string, unknown>) => Promise<void> | void,
    log: vscode.LogOutputChannel,
    timeline: Timeline,
  ) {
    this.resetReady();
    const settings = kind === "settings";
    let listAsked: string | number | undefined;
    this.relay = new PageRelay(
      kind,
      () => host.connect(),
      {
        post: (message) => {
          if (settings && message.kind === "response" && message.id === listAsked) {
            timeline.mark(STEPS.settingsPageAnswered);
          }
          if (!this.answered && message.kind === "response") {
            this.answered = true;
            log.info(`${kind} page: first answer ${Date.now() - this.loadedAt} ms after its HTML was set`);
          }
          void this.webview.postMessage(message);
        },
      },
      (command, args) => {
        if (command === SHELL.READY) {
          if (settings) timeline.mark(STEPS.settingsPageReady);
          log.info(`${kind} page: ready ${Date.now() - this.loadedAt} ms after its HTML was set`);
          this.markReady();
          // A page loaded while the server is down hears it at once (and offers Restart).
          const down = host.down;
          if (down !== null) this.relay.tell(SHELL.SERVER_STATE, { running: false, reason: down });
        }
        if (command === SHELL.RESTART_SERVER) {
          // The page's Restart: the same path as "Wave: Restart Host". Once the new server is
          // ready, every page is loaded anew (the chat re-attaches to its session).
          return void vscode.commands.executeCommand(COMMANDS.restartServer);
        }
        if (command === SHELL.MANAGE_TRUST) {
          // The chat's way out when project hooks do not run: VS Code's own trust editor (the
          // page never changes trust itself; the extension hears the grant and tells the server).
          return void vscode.commands.executeCommand("workbench.trust.manage");
        }
        return shell(command, args);
      },
      (message) => log.warn(message),
    );
    const unregister = router.add(this.relay);
    this.disposables.push(
      { dispose: unregister },
      webview.onDidReceiveMessage((message: unknown) => {
        const request = settings ? parseEnvelope(message) : null;
        if (request?.kind === "request" && request.method === METHODS.HOOKS_LIST && listAsked === undefined) {
          listAsked = request.id;
          timeline.mark(STEPS.settingsPageAsked);
        }
        void this.relay.receive(message);
      }),
    );
  }

  /** Resolves once the page listens (its `ready`); VS Code drops messages posted before. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** The page is loaded anew (its HTML set again): wait for its next `ready`. */
  resetReady(): void {
    this.loadedAt = Date.now();
    this.answered = false;
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** The settings page: one WebviewPanel in the editor area, opened again by the command. */
export class SettingsPanel {
  private panel: vscode.WebviewPanel | undefined;
  private page: Page | undefined;
  /** Shell commands handled, in order (the extension-host tests read it). */
  readonly handled: string[] = [];

  constructor(
    private readonly root: vscode.Uri,
    private readonly host: ServerHost,
    private readonly router: Router,
    private readonly chat: ChatView,
    private readonly log: vscode.LogOutputChannel,
    private readonly timeline: Timeline,
  ) {}

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Opens (or reveals) the panel; with `hookId`, the page scrolls to that hook's row. */
  show(hookId?: string): vscode.WebviewPanel {
    const panel = this.open();
    if (hookId) {
      const page = this.page;
      void page?.whenReady().then(() => {
        if (this.page !== page) return; // closed meanwhile
        void panel.webview.postMessage({ kind: "shell", command: SHELL.SHOW_VIEW, args: { view: "settings", hookId } });
      });
    }
    return panel;
  }

  private open(): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(SETTINGS_PANEL, "Wave Hooks", vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [this.root],
      // Edit opens the config file in this editor group, which hides the panel; a hidden page
      // without this is unloaded before it can finish (open the chat, then closeSettings).
      retainContextWhenHidden: true,
    });
    panel.iconPath = vscode.Uri.joinPath(this.root, "..", "..", "media", "wave.svg");
    this.panel = panel;
    const shell = (c: string, a: Record<string, unknown>) => this.shell(c, a);
    this.page = new Page("settings", panel.webview, this.host, this.router, shell, this.log, this.timeline);
    panel.webview.html = pageHtml(panel.webview, this.root, "settings");
    this.timeline.mark(STEPS.settingsPanelCreated);
    panel.onDidDispose(() => {
      this.page?.dispose();
      this.page = undefined;
      this.panel = undefined;
    });
    return panel;
  }

  /** After a server restart: the page is loaded again and lists afresh. */
  reload(): void {
    if (!this.panel || !this.page) return;
    this.page.resetReady();
    this.panel.webview.html = pageHtml(this.panel.webview, this.root, "settings");
  }

  whenReady(): Promise<void> {
    return this.page?.whenReady() ?? Promise.resolve();
  }

  private async shell(command: string, args: Record<string, unknown>): Promise<void> {
    this.handled.push(command);
    if (command === SHELL.OPEN_CHAT) {
      await this.chat.show(typeof args.prefill === "string" ? args.prefill : undefined);
    } else if (command === SHELL.CLOSE_SETTINGS) {
      this.panel?.dispose(); // the relay ran it after every earlier message was done
    } else if (command === SHELL.OPEN_SETTINGS) {
      this.show(hookIdOf(args));
    }
  }
}

/** `openSettings`'s optional `hookId` (the row a chat's "Show in settings" asks for). */
function hookIdOf(args: Record<string, unknown>): string | undefined {
  return typeof args.hookId === "string" && args.hookId ? args.hookId : undefined;
}

/** The session a page saved in its state (`vscode.setState({sessionId})`), if any. */
function savedSession(state: unknown): string | undefined {
  const id = (state as { sessionId?: unknown } | null | undefined)?.sessionId;
  return typeof id === "string" ? id : undefined;
}

/**
 * The chat: a WebviewView in the "Wave" container of the activity bar. The page keeps its session
 * in its webview state, which VS Code keeps across the page being loaded anew (`reload`); a view
 * VS Code re-creates hands it back (`context.state`), and the page is told it (`data-session-id`).
 */
export class ChatView implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private page: Page | undefined;
  private resolved: Promise<void>;
  private markResolved: () => void = () => {};
  openSettings: (hookId?: string) => void = () => {};

  constructor(
    private readonly root: vscode.Uri,
    private readonly host: ServerHost,
    private readonly router: Router,
    private readonly log: vscode.LogOutputChannel,
    private readonly timeline: Timeline,
  ) {
    this.resolved = new Promise((resolve) => (this.markResolved = resolve));
  }

  resolveWebviewView(view: vscode.WebviewView, context?: vscode.WebviewViewResolveContext): void {
    this.view = view;
    view.webview.options = { enableScripts: true, localResourceRoots: [this.root] };
    const shell = (c: string, a: Record<string, unknown>) => this.shell(c, a);
    this.page = new Page("chat", view.webview, this.host, this.router, shell, this.log, this.timeline);
    view.webview.html = pageHtml(view.webview, this.root, "chat", { sessionId: savedSession(context?.state) });
    view.onDidDispose(() => {
      this.page?.dispose();
      this.page = undefined;
      this.view = undefined;
      this.resolved = new Promise((resolve) => (this.markResolved = resolve));
    });
    this.markResolved();
  }

  /** Shows the chat (focusing it), its input prefilled when `prefill` is given. */
  async show(prefill?: string): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW}.focus`);
    await this.resolved;
    await this.page?.whenReady();
    if (prefill !== undefined) {
      void this.view?.webview.postMessage({ kind: "shell", command: SHELL.PREFILL, args: { text: prefill } });
    }
  }

  /** After a server restart: the page is loaded again and re-attaches to its session (its state). */
  reload(): void {
    if (!this.view || !this.page) return;
    this.page.resetReady();
    this.view.webview.html = pageHtml(this.view.webview, this.root, "chat");
  }

  private shell(command: string, args: Record<string, unknown>): void {
    if (command === SHELL.OPEN_SETTINGS) this.openSettings(hookIdOf(args));
  }
}
