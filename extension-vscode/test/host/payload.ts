/**
 * Runs INSIDE the real extension host of code-server (the smoke-test driver loads it as
 * `extensionTestsPath`): the real `vscode` API, the installed wavehost extension, its real server.
 * It talks to the outer test (extension.host.test.ts) through files in $WAVEHOST_HOST_TEST_DIR:
 * it writes `step` ("trust": grant workspace trust now; "edit": click Edit on a project hook now)
 * and, at the end, `result.json` (what it saw; the outer test asserts on it).
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";

import * as vscode from "vscode";

import type { WavehostApi } from "../../src/extension";
import { METHODS } from "../../src/protocol";

const out = process.env.WAVEHOST_HOST_TEST_DIR ?? "";

interface HooksList {
  trusted: boolean;
  configFiles: { source: string; path: string; untrusted: boolean | null }[];
}

export interface HostResult {
  commands: string[];
  trust: {
    trustedAtStart: boolean;
    listedTrustedBefore: boolean;
    listedTrustedAfter: boolean;
    /** Host states seen from the grant until the server said trusted (a restart would show). */
    statesAfterGrant: string[];
  };
  /** A restart asked for at once, while the first start is under way, and a second one on top. */
  restart: {
    /** What a page's connect got while the restarts were under way: "connection" or the error. */
    connectDuring: string;
    /** Host states seen during the restarts. */
    states: string[];
    /** Whether the connection got then answered a hooks/list. */
    listed: boolean;
  };
  showDocument: { answer: unknown; activeEditor: string | null };
  edit: { events: string[]; handled: string[]; panelOpen: boolean };
  errors: string[];
}

function step(name: string): void {
  writeFileSync(join(out, "step"), name);
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function list(api: WavehostApi): Promise<HooksList> {
  const client = await api.host.connect();
  if (typeof client === "string") throw new Error(client);
  return (await client.sendRequest(METHODS.HOOKS_LIST, {})) as HooksList;
}

export async function run(): Promise<void> {
  const result: HostResult = {
    commands: [],
    trust: {
      trustedAtStart: vscode.workspace.isTrusted,
      listedTrustedBefore: true,
      listedTrustedAfter: false,
      statesAfterGrant: [],
    },
    restart: { connectDuring: "", states: [], listed: false },
    showDocument: { answer: null, activeEditor: null },
    edit: { events: [], handled: [], panelOpen: true },
    errors: [],
  };
  const attempt = async (name: string, body: () => Promise<void>) => {
    try {
      await body();
    } catch (err) {
      result.errors.push(`${name}: ${(err as Error).stack ?? String(err)}`);
    }
  };
  try {
    const extension = vscode.extensions.getExtension<WavehostApi>("wavehost.wavehost");
    if (!extension) throw new Error("the wavehost extension is not installed");
    const api = await extension.activate();

    // First, while the server the activation started may still be starting (as a user who runs
    // "Wave: Restart Host" at once, or a page that asks in the middle of a restart).
    await attempt("restart", async () => {
      const watch = api.host.onDidChangeState((s) => result.restart.states.push(s));
      const first = api.host.restart();
      await new Promise((done) => setTimeout(done, 50));
      const second = api.host.restart();
      const client = await api.host.connect();
      result.restart.connectDuring = typeof client === "string" ? client : "connection";
      await Promise.all([first, second]);
      watch.dispose();
      if (typeof client !== "string") {
        const answer = (await client.sendRequest(METHODS.HOOKS_LIST, {})) as HooksList;
        result.restart.listed = Array.isArray(answer.configFiles);
      }
    });

    await attempt("commands", async () => {
      const all = await vscode.commands.getCommands(true);
      result.commands = all.filter((c) => c.startsWith("wavehost."));
    });

    await attempt("trust", async () => {
      result.trust.listedTrustedBefore = (await list(api)).trusted;
      const states: string[] = [];
      const watch = api.host.onDidChangeState((s) => states.push(s));
      const granted = new Promise<void>((done) => vscode.workspace.onDidGrantWorkspaceTrust(() => done()));
      step("trust");
      await Promise.race([granted, until("the trust grant", () => (vscode.workspace.isTrusted ? true : undefined))]);
      await until("the server to apply trust", async () => ((await list(api)).trusted ? true : undefined), 30_000);
      result.trust.listedTrustedAfter = true;
      watch.dispose();
      result.trust.statesAfterGrant = states;
    });

    await attempt("showDocument", async () => {
      const file = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, ".wave", "settings.json");
      const client = await api.host.connect();
      if (typeof client === "string") throw new Error(client);
      result.showDocument.answer = await client.sendRequest(METHODS.OPEN_CONFIG_FILE, { path: file });
      result.showDocument.activeEditor = await until("an editor of the file", () => {
        const path = vscode.window.activeTextEditor?.document.uri.fsPath;
        return path === file ? path : undefined;
      });
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    });

    await attempt("edit", async () => {
      const events = result.edit.events;
      const subscriptions = [
        vscode.window.onDidChangeActiveTextEditor((editor) => {
          if (editor) events.push(`editor ${vscode.workspace.asRelativePath(editor.document.uri)}`);
        }),
        vscode.window.tabGroups.onDidChangeTabs((change) => {
          for (const tab of change.closed) {
            if (tab.input instanceof vscode.TabInputWebview) events.push(`closed ${tab.label}`);
          }
        }),
      ];
      const panel = api.settings.show();
      panel.onDidDispose(() => events.push("panel disposed"));
      await api.settings.whenReady();
      step("edit");
      await until("the settings panel to close", () => (api.settings.isOpen ? undefined : true));
      for (const s of subscriptions) s.dispose();
      result.edit.handled = [...api.settings.handled];
      result.edit.panelOpen = api.settings.isOpen;
    });
  } catch (err) {
    result.errors.push((err as Error).stack ?? String(err));
  }
  writeFileSync(join(out, "result.json"), JSON.stringify(result, null, 2));
}
