/**
 * The wavehost server process and its LSP client: start, stop, restart (by the user, or after a
 * crash with back-off), its state for the status bar, and the relay of server messages to pages.
 */

import type { ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  type LanguageClientOptions,
  ResponseError,
  RevealOutputChannelOn,
  type StreamInfo,
} from "vscode-languageclient/node";

import {
  chooseLaunch,
  chooseProject,
  type Exit,
  failureSentence,
  isPermanent,
  type Launch,
  type Project,
  restartDelay,
  startServer,
} from "./activation";
import { LAUNCH_POLICY, METHODS } from "./protocol";
import { listen, type Router, type ServerPort } from "./relay";
import { interpreterOfPythonExtension } from "./python";
import { shellText, type ShellTextKey } from "./texts";
import { STEPS, type Timeline } from "./timeline";

export type HostState = "starting" | "ready" | "crashed" | "failed" | "stopped";

/** How long a page's request waits for a starting server (ms; the page gives up after 15 s). */
const CONNECT_WAIT_MS = LAUNCH_POLICY.startTimeoutMs;
/** How long a stop waits for a start under way to finish (ms). */
const START_WAIT_MS = LAUNCH_POLICY.startTimeoutMs;
/** How long a stopped server may take to exit before it is killed (ms). */
const EXIT_GRACE_MS = LAUNCH_POLICY.stopGraceMs;

export class ServerHost implements vscode.Disposable {
  state: HostState = "stopped";
  project: Project = { dir: null, why: "not started" };
  /** Why the server is not running, in one sentence (state crashed/failed). */
  problem: string | null = null;
  private client: LanguageClient | undefined;
  private child: ChildProcess | undefined;
  private generation = 0;
  private crashes = 0;
  private readyAt = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  /** The client's start while it is under way (a stop waits for it). */
  private starting: Promise<void> | undefined;
  /**
   * The hooks list asked for as soon as the server is ready, while the settings page is still
   * loading: the page's first `hooks/list` is answered with it. Dropped when the hooks change.
   */
  private firstList: Promise<unknown> | undefined;
  /**
   * The file of the editor the user last had active: a focused webview (the settings panel, the
   * chat) or the command palette leaves no active editor, yet the user's project is that file's.
   * Followed through the tabs as well as the text editors: a tab is active, and the extension host
   * told, as soon as its editor opens; its text editor only once the document has loaded (later
   * for a large or remote file, after activation for the editors a window restores, never for an
   * image, a notebook or a custom editor).
   */
  private lastEditor: vscode.Uri | undefined = activeTabFile() ?? vscode.window.activeTextEditor?.document.uri;
  private readonly editorWatch = vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (editor) this.lastEditor = editor.document.uri;
    }),
    vscode.window.tabGroups.onDidChangeTabs(() => this.rememberActiveTab()),
    vscode.window.tabGroups.onDidChangeTabGroups(() => this.rememberActiveTab()),
  );
  private readonly stateEmitter = new vscode.EventEmitter<HostState>();
  /** Fires each time a (re)started server is ready: pages re-attach then. */
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  /** Fires with why, in one sentence, when the server stopped without being asked to. */
  private readonly stopEmitter = new vscode.EventEmitter<string>();
  readonly onDidChangeState = this.stateEmitter.event;
  readonly onDidBecomeReady = this.readyEmitter.event;
  readonly onDidStop = this.stopEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly router: Router,
    private readonly timeline: Timeline,
  ) {
    router.observe((method) => {
      if (method === METHODS.HOOKS_CHANGED) this.firstList = undefined; // the first list is stale
    });
  }

  /** Why the server is not running, when it stopped without being asked to (until it runs again). */
  get down(): string | null {
    return this.state === "ready" || this.state === "stopped" ? null : this.problem;
  }

  /** The connection, while the server is ready. */
  connection(): ServerPort | undefined {
    const client = this.state === "ready" ? this.client : undefined;
    if (!client) return undefined;
    return {
      sendRequest: (method, params) => {
        const first = method === METHODS.HOOKS_LIST ? this.firstList : undefined;
        if (first) this.firstList = undefined; // answers one page, once
        return first ?? client.sendRequest(method, params);
      },
      sendNotification: (method, params) => client.sendNotification(method, params),
    };
  }

  /** The connection pages relay to: waits (bounded) while the server is starting or restarting. */
  async connect(): Promise<ServerPort | string> {
    const deadline = Date.now() + CONNECT_WAIT_MS;
    while (this.state === "starting" || this.state === "crashed") {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const done = this.onDidChangeState(() => {
          done.dispose();
          clearTimeout(timer);
          resolve();
        });
        const timer = setTimeout(() => {
          done.dispose();
          resolve();
        }, left);
      });
    }
    const client = this.connection();
    if (client) return client;
    if (this.state === "failed" && this.problem) return this.problem;
    return this.text(this.state === "stopped" ? "stopped" : "notReady");
  }

  async start(): Promise<void> {
    const generation = ++this.generation;
    this.clearRestart();
    this.setState("starting");
    const launch = chooseLaunch(await this.launchSettings(), this.context.extensionPath);
    if (generation !== this.generation) return; // stopped or restarted while reading the settings
    this.project = chooseProject(
      (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, path: f.uri.fsPath })),
      this.activeEditorFolder(),
    );
    this.log.info(`starting ${[launch.command, ...launch.args].join(" ")} (interpreter from ${launch.origin})`);
    this.log.info(`project: ${this.project.why}`);
    let exited: Promise<Exit> = new Promise(() => {});
    const client = new LanguageClient(
      "wavehost",
      "wavehost",
      async (): Promise<StreamInfo> => {
        const started = startServer(launch, { cwd: this.projectDir(), env: process.env }, (line) =>
          this.log.info(`[server] ${line}`),
        );
        this.child = started.child;
        this.timeline.mark(STEPS.serverSpawned);
        exited = started.exited;
        void exited.then((exit) => this.onExit(generation, launch, exit));
        if (!started.child.stdout || !started.child.stdin) throw new Error("no stdio to the server");
        return { reader: started.child.stdout, writer: started.child.stdin, detached: false };
      },
      this.clientOptions(generation),
    );
    this.client = client;
    listen(this.router, client, (error) => new ResponseError(error.code, error.message, error.data));
    const startedAt = Date.now();
    const starting = client.start();
    this.starting = starting;
    try {
      await starting;
    } catch (err) {
      if (generation !== this.generation) return;
      // The process may have died before the handshake: explain with its exit, not the LSP error.
      const exit = await Promise.race([exited, delay(2000).then(() => null)]);
      if (exit === null) this.fail(this.text("didNotStart", { error: (err as Error).message }), false);
      return;
    }
    if (generation !== this.generation) return;
    // A process that died during the handshake can leave the start resolved with its connection
    // closed: not ready (its exit, onExit, says why and restarts it), and the pages keep theirs.
    const child = this.child;
    if (!client.isRunning() || !child || child.exitCode !== null || child.signalCode !== null) {
      this.log.warn("wavehost ended during its start");
      return;
    }
    this.readyAt = Date.now();
    this.timeline.mark(STEPS.serverInitialized, this.readyAt);
    this.log.info(`wavehost ready: ${this.readyAt - startedAt} ms from the start to the LSP handshake`);
    this.firstList = client.sendRequest(METHODS.HOOKS_LIST, {});
    this.firstList.then(
      () => this.timeline.mark(STEPS.firstListAnswered),
      () => (this.firstList = undefined), // the page asks for itself, and hears why
    );
    this.problem = null;
    this.setState("ready");
    this.readyEmitter.fire();
  }

  /**
   * Tells the running server that workspace trust changed (the table's setTrusted): project hooks
   * may run from now on, without a restart. A server started later is told at initialize.
   */
  async sendTrust(trusted: boolean): Promise<void> {
    const client = this.connection();
    if (!client) return;
    try {
      const answer = await client.sendRequest(METHODS.WORKSPACE_SET_TRUSTED, { trusted });
      this.log.info(`workspace trust sent: ${JSON.stringify(answer)}`);
    } catch (err) {
      this.log.error(`workspace trust could not be sent: ${(err as Error).message}; restarting wavehost`);
      await this.restart();
    }
  }

  async restart(): Promise<void> {
    this.crashes = 0;
    await this.stop({ restarting: true });
    await this.start();
  }

  /**
   * Stops the server. `restarting`: a start follows, so the state is "starting" from the first
   * moment — a page asking meanwhile waits for the new server (connect) instead of hearing
   * "stopped", and no one starts a second server beside the restart.
   */
  async stop({ restarting = false }: { restarting?: boolean } = {}): Promise<void> {
    this.generation++;
    this.clearRestart();
    if (restarting) this.setState("starting");
    const client = this.client;
    const child = this.child;
    const starting = this.starting;
    this.client = undefined;
    this.child = undefined;
    this.starting = undefined;
    this.firstList = undefined;
    // A client still starting cannot be stopped (vscode-languageclient throws, and killing its
    // process makes it tell the user "couldn't create connection"): let the start finish first.
    if (starting) await Promise.race([starting.catch(() => undefined), delay(START_WAIT_MS)]);
    if (client?.isRunning()) {
      await Promise.race([client.stop(EXIT_GRACE_MS).catch(() => undefined), delay(EXIT_GRACE_MS)]);
    }
    if (child && child.exitCode === null && child.signalCode === null) child.kill();
    if (!restarting) this.setState("stopped");
  }

  dispose(): void {
    void this.stop();
    this.editorWatch.dispose();
    this.stateEmitter.dispose();
    this.readyEmitter.dispose();
    this.stopEmitter.dispose();
  }

  private onExit(generation: number, launch: Launch, exit: Exit): void {
    if (generation !== this.generation) return; // a stop or restart we asked for
    const sentence = failureSentence(launch, exit);
    this.log.error(sentence);
    if (isPermanent(launch, exit)) {
      this.fail(sentence, true);
      return;
    }
    if (Date.now() - this.readyAt >= LAUNCH_POLICY.stableMs) this.crashes = 0;
    this.crashes++;
    this.client = undefined;
    this.child = undefined;
    this.firstList = undefined;
    const wait = restartDelay(this.crashes);
    if (wait === null) {
      this.fail(this.text("gaveUp", { reason: sentence, count: this.crashes }), true);
      return;
    }
    this.problem = sentence;
    this.setState("crashed");
    this.stopEmitter.fire(sentence);
    void vscode.window
      .showWarningMessage(this.text("restarting", { reason: sentence, seconds: wait / 1000 }), this.text("showLog"))
      .then((choice) => choice && this.log.show());
    this.restartTimer = setTimeout(() => void this.start(), wait);
  }

  private fail(sentence: string, tell: boolean): void {
    this.generation++;
    this.client = undefined;
    this.problem = sentence;
    this.setState("failed");
    this.stopEmitter.fire(sentence);
    if (tell) {
      const [settings, log] = [this.text("openSettings"), this.text("showLog")];
      void vscode.window.showErrorMessage(sentence, settings, log).then((choice) => {
        if (choice === log) this.log.show();
        if (choice === settings) void vscode.commands.executeCommand("workbench.action.openSettings", "wavehost");
      });
    }
  }

  /** The extension's own text `key`, in the pages' language (VS Code's display language, by the rule). */
  private text(key: ShellTextKey, values?: Record<string, string | number>): string {
    return shellText(vscode.env.language, key, values);
  }

  /** The client's options; `generation`: the start they are for (a stopped client's events are old news). */
  private clientOptions(generation: number): LanguageClientOptions {
    return {
      documentSelector: [], // no language features: the client carries wavehost's own methods
      outputChannel: this.log,
      traceOutputChannel: this.log,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: {
        projectDir: this.projectDir(),
        locale: vscode.env.language,
        trusted: vscode.workspace.isTrusted,
      },
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue, handled: true }),
        // Restarts are ours (with back-off and a plain message), not the client's. A connection
        // that closes while its process lives on ends that process: the exit says why (onExit).
        closed: () => {
          const child = this.child;
          const current = generation === this.generation && this.state === "ready";
          if (current && child && child.exitCode === null && child.signalCode === null) {
            this.log.warn("the connection to the wavehost server closed: ending its process");
            child.kill();
          }
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
      connectionOptions: { maxRestartCount: 0 },
    };
  }

  /** The project folder; with no folder open, an empty folder of the extension's own. */
  projectDir(): string {
    if (this.project.dir !== null) return this.project.dir;
    const none = join(this.context.globalStorageUri.fsPath, "no folder open");
    mkdirSync(none, { recursive: true });
    return none;
  }

  private rememberActiveTab(): void {
    const file = activeTabFile();
    if (file) this.lastEditor = file;
  }

  /**
   * The folder of the file the user is on: the active tab's (what the window shows, even before
   * its text editor has loaded), else the active text editor's, else the last one's.
   */
  private activeEditorFolder(): string | undefined {
    for (const uri of [activeTabFile(), vscode.window.activeTextEditor?.document.uri, this.lastEditor]) {
      const folder = uri && vscode.workspace.getWorkspaceFolder(uri);
      if (folder) return folder.uri.fsPath;
    }
    return undefined;
  }

  private async launchSettings() {
    const config = vscode.workspace.getConfiguration("wavehost");
    const interpreter = config.get<string>("interpreter", "");
    const serverCommand = config.get<string[]>("serverCommand", []);
    const pythonExtension =
      interpreter || serverCommand.length ? undefined : await interpreterOfPythonExtension(this.log);
    return { interpreter, serverCommand, pythonExtension };
  }

  private setState(state: HostState): void {
    this.state = state;
    this.stateEmitter.fire(state);
  }

  private clearRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }
}

/** The file of the active tab of the active editor group, if it shows one (the modified side of a diff). */
function activeTabFile(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (
    input instanceof vscode.TabInputText ||
    input instanceof vscode.TabInputCustom ||
    input instanceof vscode.TabInputNotebook
  ) {
    return input.uri;
  }
  if (input instanceof vscode.TabInputTextDiff || input instanceof vscode.TabInputNotebookDiff) return input.modified;
  return undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
