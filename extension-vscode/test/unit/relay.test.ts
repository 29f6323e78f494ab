/**
 * The relay and the activation logic without VS Code, against a real `wavehost serve` subprocess
 * spoken to over vscode-jsonrpc (the library vscode-languageclient is built on).
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import {
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  createMessageConnection,
} from "vscode-jsonrpc/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { chooseLaunch, chooseProject, failureSentence, restartDelay, startServer, UNUSABLE } from "../../src/activation";
import { LAUNCH_POLICY, METHODS, PAGE_REQUESTS, SERVER_NOTIFICATIONS, SHELL, SHELL_ONLY } from "../../src/protocol";
import { PROTOCOL_METHODS } from "../../../webview/src/protocol/generated";
import { type Envelope } from "../../src/protocol";
import { PageRelay, Router } from "../../src/relay";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const PYTHON = join(REPO, ".venv", "bin", "python");

function temp(name: string): string {
  return mkdtempSync(join(tmpdir(), `wavehost-unit-${name}-`));
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
}

const home = temp("home");
const project = temp("project");
const projectSettings = join(project, ".wave", "settings.json");
let child: ChildProcess;
let connection: MessageConnection;

beforeAll(async () => {
  writeJson(projectSettings, {
    hooks: {
      Stop: [{ hooks: [{ type: "command", command: "echo one" }, { type: "command", command: "echo two" }] }],
    },
  });
  const script = join(home, "turns.json");
  writeJson(script, { turns: [{ text: "Hello from the script." }] });
  child = spawn(PYTHON, ["-m", "wavehost", "serve", "--stdio"], {
    env: { ...process.env, HOME: home, WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script },
    stdio: ["pipe", "pipe", "inherit"],
  });
  connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.onRequest(() => null); // workDoneProgress/create and the like
  connection.listen();
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: null,
    capabilities: { window: { showDocument: { support: true } } },
    initializationOptions: { projectDir: project, trusted: true },
  });
  await connection.sendNotification("initialized", {});
});

afterAll(async () => {
  await connection.sendRequest("shutdown").catch(() => undefined);
  await connection.sendNotification("exit").catch(() => undefined);
  connection.dispose();
  child.kill();
});

/** A page that records what the shell posted to it. */
function page(kind: "settings" | "chat", shell: (c: string, a: Record<string, unknown>) => Promise<void> | void = () => {}) {
  const posted: Envelope[] = [];
  const trail: string[] = [];
  const relay = new PageRelay(
    kind,
    async () => connection,
    { post: (m) => posted.push(m) },
    async (command, args) => {
      trail.push(`shell:${command}`);
      await shell(command, args);
    },
  );
  return { relay, posted, trail };
}

function responses(posted: Envelope[]) {
  return posted.filter((m) => m.kind === "response") as { id: string; result?: any; error?: any }[];
}

describe("the relay against a real wavehost serve", () => {
  it("relays a table method and hands back the server's answer", async () => {
    const { relay, posted } = page("settings");
    await relay.receive({ kind: "request", id: "p1", method: METHODS.HOOKS_LIST, params: {} });
    await expect.poll(() => responses(posted).length, { timeout: 30_000 }).toBe(1);
    const [answer] = responses(posted);
    expect(answer!.id).toBe("p1");
    expect(answer!.result.hooks.map((h: { command: string }) => h.command)).toEqual(["echo one", "echo two"]);
  });

  it("refuses what is not a page method, and every shell-only method of the table, without asking the server", async () => {
    const { relay, posted } = page("settings");
    await relay.receive({ kind: "request", id: "x", method: "initialize", params: {} });
    const shellOnly = Object.entries(PROTOCOL_METHODS).filter(([, row]) => row.shellOnly).map(([name]) => name);
    expect(shellOnly).toContain(METHODS.WORKSPACE_SET_TRUSTED); // the table says so, not this extension
    expect([...SHELL_ONLY].sort()).toEqual([...shellOnly].sort());
    for (const [index, method] of shellOnly.entries()) {
      await relay.receive({ kind: "request", id: `s${index}`, method, params: { trusted: true } });
    }
    await expect.poll(() => responses(posted).length).toBe(1 + shellOnly.length);
    expect(responses(posted).map((r) => r.error?.code)).toEqual([-32601, ...shellOnly.map(() => -32601)]);
    const pageRows = Object.entries(PROTOCOL_METHODS).filter(([, r]) => r.direction === "clientToServer" && !r.shellOnly);
    expect([...PAGE_REQUESTS].sort()).toEqual(pageRows.map(([name]) => name).sort());
  });

  it("passes the server's error through unchanged, data.reason included", async () => {
    const { relay, posted } = page("settings");
    await relay.receive({ kind: "request", id: "d", method: METHODS.HOOKS_DELETE, params: { id: "no-such-hook" } });
    await expect.poll(() => responses(posted).length, { timeout: 30_000 }).toBe(1);
    expect(responses(posted)[0]!.error.data.reason).toBe("notFound");
  });

  it("closes the settings page only after every earlier request was answered", async () => {
    let answeredBeforeClose = -1;
    const settings = page("settings", (command) => {
      if (command === SHELL.CLOSE_SETTINGS) answeredBeforeClose = responses(settings.posted).length;
    });
    const listed = await connection.sendRequest<{ hooks: { id: string }[] }>(METHODS.HOOKS_LIST, {});
    void settings.relay.receive({ kind: "request", id: "del", method: METHODS.HOOKS_DELETE, params: { id: listed.hooks[0]!.id } });
    void settings.relay.receive({ kind: "shell", command: SHELL.OPEN_CHAT, args: { prefill: "hi" } });
    await settings.relay.receive({ kind: "shell", command: SHELL.CLOSE_SETTINGS, args: {} });
    expect(settings.trail).toEqual([`shell:${SHELL.OPEN_CHAT}`, `shell:${SHELL.CLOSE_SETTINGS}`]);
    expect(answeredBeforeClose).toBe(1);
    expect(responses(settings.posted)[0]!.result.deleted.command).toBe("echo one");
    expect(readFileSync(projectSettings, "utf8")).not.toContain("echo one");
  });

  it("sends a session's notifications only to the page attached to it, others to every page", async () => {
    const router = new Router();
    const chat = page("chat");
    const settings = page("settings");
    router.add(chat.relay);
    router.add(settings.relay);
    const updated = [...SERVER_NOTIFICATIONS].find((m) => m === METHODS.CHAT_UPDATED)!;
    const changed = [...SERVER_NOTIFICATIONS].find((m) => m === METHODS.HOOKS_CHANGED)!;
    connection.onNotification(updated, (params) => router.notify(updated, params));
    connection.onNotification(changed, (params) => router.notify(changed, params));
    // A real session opens through the relay: its id attaches the chat page.
    await chat.relay.receive({ kind: "request", id: "o", method: METHODS.CHAT_OPEN, params: { provider: "scripted" } });
    await expect.poll(() => responses(chat.posted).length, { timeout: 30_000 }).toBe(1);
    const opened = responses(chat.posted)[0]!;
    if (opened.error) throw new Error(opened.error.message);
    expect(chat.relay.sessions.has(opened.result.sessionId)).toBe(true);
    router.notify(updated, { sessionId: opened.result.sessionId, deltas: [] });
    router.notify(updated, { sessionId: "someone-else", deltas: [] });
    writeJson(projectSettings, { hooks: {} }); // the server watches the file: hooks/changed to all
    const notes = (p: { posted: Envelope[] }, m: string) => p.posted.filter((e) => e.kind === "notification" && e.method === m);
    await expect.poll(() => notes(settings, changed).length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(notes(chat, changed).length).toBeGreaterThan(0);
    expect(notes(chat, updated).map((n) => (n as { params: { sessionId: string } }).params.sessionId)).not.toContain("someone-else");
    expect(notes(settings, updated)).toEqual([]);
  });

  it("tells every open page that the server stopped (serverState), a closed page nothing", async () => {
    const router = new Router();
    const chat = page("chat");
    const settings = page("settings");
    const closed = page("settings");
    router.add(chat.relay);
    router.add(settings.relay);
    router.add(closed.relay)(); // added, then its page went away
    router.tell(SHELL.SERVER_STATE, { running: false, reason: "The wavehost server was killed (SIGKILL)." });
    const told = { kind: "shell", command: SHELL.SERVER_STATE, args: { running: false, reason: "The wavehost server was killed (SIGKILL)." } };
    expect(chat.posted).toEqual([told]);
    expect(settings.posted).toEqual([told]);
    expect(closed.posted).toEqual([]);
  });

  it("asks a server question of the chat page and withdraws it when the server cancels", async () => {
    const router = new Router();
    const chat = page("chat");
    router.add(chat.relay);
    let cancel: () => void = () => {};
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (listener: () => void) => ((cancel = listener), { dispose() {} }),
    };
    const asked = router.ask(METHODS.CHAT_REQUEST_PERMISSION, { sessionId: "s", toolName: "Bash" }, token);
    const question = chat.posted.find((m) => m.kind === "request") as { id: string };
    expect(question).toBeDefined();
    cancel();
    await expect(asked).rejects.toMatchObject({ error: { code: -32800 } });
    expect(chat.posted.at(-1)).toEqual({ kind: "notification", method: "$/cancelRequest", params: { id: question.id } });
    const answered = router.ask(METHODS.CHAT_REQUEST_PERMISSION, { sessionId: "s" });
    const second = chat.posted.filter((m) => m.kind === "request").at(-1) as { id: string };
    await chat.relay.receive({ kind: "response", id: second.id, result: { allow: true } });
    await expect(answered).resolves.toEqual({ allow: true });
  });
});

describe("activation logic", () => {
  it("chooses serverCommand, then the interpreter setting, then the Python extension, then python3", () => {
    const ext = "/ext";
    expect(chooseLaunch({ serverCommand: ["/v/bin/wavehost", "serve"], interpreter: "/py" }, ext)).toMatchObject({
      command: "/v/bin/wavehost",
      args: ["serve"],
      bundled: false,
    });
    expect(chooseLaunch({ serverCommand: [], interpreter: "/py", pythonExtension: "/pe" }, ext)).toMatchObject({
      command: "/py",
      args: ["/ext/server/launch.py", "serve", "--stdio"], // the bundle's launcher, as the JetBrains plugin starts it
    });
    expect(chooseLaunch({ serverCommand: [], interpreter: " ", pythonExtension: "/pe" }, ext).command).toBe("/pe");
    expect(chooseLaunch({ serverCommand: [], interpreter: "" }, ext).command).toBe("python3");
  });

  it("takes the active editor's folder, else the first, and says when no folder is open", () => {
    const folders = [
      { name: "a", path: "/w/a" },
      { name: "b", path: "/w/b" },
    ];
    expect(chooseProject(folders, "/w/b").dir).toBe("/w/b");
    expect(chooseProject(folders, undefined)).toEqual({ dir: "/w/a", why: "a: the first of 2 folders" });
    expect(chooseProject([], undefined)).toEqual({ dir: null, why: "no folder is open: only user hooks are listed" });
  });

  it("backs off 1, 2, 4, 8, 16 s, then gives up: the one policy, as the server exports it", () => {
    expect([1, 2, 3, 4, 5, 6].map(restartDelay)).toEqual([1000, 2000, 4000, 8000, 16000, null]);
    const exported = JSON.parse(
      execFileSync(join(REPO, ".venv", "bin", "python"), ["-m", "wavehost", "protocol-schema"], { encoding: "utf8" }),
    ).launch;
    expect(LAUNCH_POLICY).toEqual(exported); // generated from the server's policy, not a copy
  });

  it("explains a missing interpreter in one sentence", async () => {
    const launch = chooseLaunch({ serverCommand: [], interpreter: "/no/such/python3" }, "/ext");
    const exit = await startServer(launch, { cwd: undefined, env: process.env }, () => {}).exited;
    expect(failureSentence(launch, exit)).toBe(
      'wavehost could not start: "/no/such/python3" (from wavehost.interpreter) was not found; ' +
        'install Python 3.11 or newer, or set "wavehost.interpreter" to one.',
    );
  });

  it("passes on the bundled launcher's sentence for a Python that cannot run it", async () => {
    const bundle = process.env.WAVEHOST_BUNDLE ?? join(REPO, "extension-vscode", "server");
    const old = ["2.7.18/bin/python2.7", "3.10.13/bin/python3.10"]
      .map((p) => join(process.env.HOME ?? "", ".pyenv", "versions", p))
      .find(existsSync);
    if (!existsSync(join(bundle, "launch.py")) || !old) return; // needs the bundle and an old Python
    const launch = { ...chooseLaunch({ serverCommand: [], interpreter: old }, dirname(bundle)), args: [join(bundle, "launch.py"), "serve"] };
    const exit = await startServer(launch, { cwd: undefined, env: process.env }, () => {}).exited;
    expect(exit.code).toBe(UNUSABLE);
    expect(failureSentence(launch, exit)).toMatch(/^wavehost needs CPython 3\.11 to 3\.14; .* too old: choose a CPython/);
  });
});
