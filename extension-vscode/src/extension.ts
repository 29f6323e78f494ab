/**
 * The wavehost VS Code extension: starts `wavehost serve` (bundled, or the user's own), hosts the
 * shared webview twice (settings page, chat view) and relays between them (relay.ts).
 */

import * as vscode from "vscode";

import { COMMANDS } from "./commands";
import { type HostState, ServerHost } from "./host";
import { CHAT_VIEW, ChatView, SettingsPanel } from "./pages";
import { HookProgress } from "./progress";
import { SHELL } from "./protocol";
import { Router } from "./relay";
import { STEPS, Timeline } from "./timeline";

export { COMMANDS };

/** What `activate` returns: the parts, for the tests that run inside the extension host. */
export interface WavehostApi {
  host: ServerHost;
  settings: SettingsPanel;
  chat: ChatView;
  router: Router;
  log: vscode.LogOutputChannel;
}

const STATUS: Record<HostState, { icon: string; words: string }> = {
  starting: { icon: "$(loading~spin)", words: "starting" },
  ready: { icon: "$(check)", words: "ready" },
  crashed: { icon: "$(error)", words: "crashed — restarting" },
  failed: { icon: "$(error)", words: "not running — click to restart" },
  stopped: { icon: "$(circle-slash)", words: "stopped — click to start" },
};

let running: ServerHost | undefined;

export function activate(context: vscode.ExtensionContext): WavehostApi {
  const log = vscode.window.createOutputChannel("wavehost", { log: true });
  const timeline = new Timeline((line) => log.info(line));
  timeline.mark(STEPS.extensionHostStarted, Date.now() - process.uptime() * 1000);
  timeline.mark(STEPS.activated);
  let host: ServerHost | undefined = undefined;
  const router = new Router(() => host?.connection());
  host = new ServerHost(context, log, router, timeline);
  running = host;
  const root = vscode.Uri.joinPath(context.extensionUri, "dist", "webview");
  const chat = new ChatView(root, host, router, log, timeline);
  const settings = new SettingsPanel(root, host, router, chat, log, timeline);
  chat.openSettings = (hookId) => settings.show(hookId);
  const progress = new HookProgress();
  router.observe((method, params) => progress.observe(method, params));

  const status = vscode.window.createStatusBarItem("wavehost.status", vscode.StatusBarAlignment.Left, 10);
  status.name = "Wave host";
  const showState = (state: HostState) => {
    const { icon, words } = STATUS[state];
    status.text = `${icon} Wave`;
    status.accessibilityInformation = { label: `wavehost ${state}` };
    const details = [`wavehost: ${words}`, `project: ${host.project.why}`];
    if (host.problem && state !== "ready") details.push(host.problem);
    status.tooltip = details.join("\n");
    status.command = state === "ready" || state === "starting" ? COMMANDS.showLog : COMMANDS.restartServer;
    status.backgroundColor =
      state === "crashed" || state === "failed" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    status.show();
  };
  showState(host.state);

  let started = false;
  const ensureStarted = () => {
    if (host.state === "stopped" || host.state === "failed") void host.start();
  };

  context.subscriptions.push(
    log,
    host,
    status,
    progress,
    host.onDidChangeState(showState),
    // The pages say so in plain words, disable their actions and offer Restart (restartServer).
    host.onDidStop((reason) => router.tell(SHELL.SERVER_STATE, { running: false, reason })),
    host.onDidBecomeReady(() => {
      // A restarted server knows no page: the pages are loaded again and re-attach.
      if (started) {
        settings.reload();
        chat.reload();
      }
      started = true;
    }),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW, chat, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.commands.registerCommand(COMMANDS.openSettings, () => {
      timeline.mark(STEPS.settingsCommand);
      ensureStarted();
      settings.show();
    }),
    vscode.commands.registerCommand(COMMANDS.openChat, async () => {
      ensureStarted();
      await chat.show();
    }),
    vscode.commands.registerCommand(COMMANDS.restartServer, () => host.restart()),
    vscode.commands.registerCommand(COMMANDS.showLog, () => log.show()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void host.sendTrust(true)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("wavehost.interpreter") || event.affectsConfiguration("wavehost.serverCommand")) {
        void host.restart();
      }
    }),
  );
  void host.start();
  return { host, settings, chat, router, log };
}

/** VS Code waits for this: the server gets its shutdown (SessionEnd hooks run) before the exit. */
export function deactivate(): Promise<void> | undefined {
  return running?.stop();
}
