/**
 * The relay and the activation logic without VS Code, against a real `wavehost serve` subprocess
 * spoken to over vscode-jsonrpc (the library vscode-languageclient is built on).
 */

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

import { type MessageConnection } from "vscode-jsonrpc/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { chooseLaunch, chooseProject, failureSentence, restartDelay, startServer, UNUSABLE } from "../../src/activation";
import { LAUNCH_POLICY, METHODS, PAGE_REQUESTS, ROUTING, SERVER_NOTIFICATIONS, SHELL, SHELL_ONLY } from "../../src/protocol";
import { PROTOCOL_METHODS } from "../../../webview/src/protocol/generated";
import { type Envelope } from "../../src/protocol";
import { PageRelay, Router } from "../../src/relay";
import { REPO, type Served, serve, temp, writeJson } from "./server";

const home = temp("home");
const project = temp("project");
const projectSettings = join(project, ".wave", "settings.json");
let served: Served;
let connection: MessageConnection;

beforeAll(async () => {
  writeJson(projectSettings, {
    hooks: {
      Stop: [{ hooks: [{ type: "command", command: "echo one" }, { type: "command", command: "echo two" }] }],
    },
  });
  const script = join(home, "turns.json");
  writeJson(script, { turns: [{ text: "Hello from the script." }] });
  served = await serve(home, project, { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });
  connection = served.connection;
});

afterAll(async () => {
  await served.stop();
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

  it("names its page in every request it relays, whatever the page put there", async () => {
    const seen: unknown[] = [];
    const chat = new PageRelay("chat", async () => ({
      sendRequest: async (_method: string, params: unknown) => (seen.push(params), {}),
      sendNotification: () => {},
    }), { post: () => {} }, () => {});
    await chat.receive({ kind: "request", id: "a", method: METHODS.HOOKS_LIST, params: { [ROUTING.pageId]: "someone-else" } });
    await chat.receive({ kind: "request", id: "b", method: METHODS.HOOKS_LIST, params: null });
    await expect.poll(() => seen.length).toBe(2);
    expect(seen).toEqual([{ [ROUTING.pageId]: chat.id }, { [ROUTING.pageId]: chat.id }]);
  });

  it("delivers a notification to the pages it names (without the names), one that names none to every page", async () => {
    const router = new Router();
    const chat = page("chat");
    const settings = page("settings");
    router.add(chat.relay);
    router.add(settings.relay);
    const changed = [...SERVER_NOTIFICATIONS].find((m) => m === METHODS.HOOKS_CHANGED)!;
    connection.onNotification(changed, (params) => router.notify(changed, params));
    router.notify(METHODS.CHAT_UPDATED, { sessionId: "s", deltas: [], [ROUTING.pageIds]: [chat.relay.id] });
    router.notify(METHODS.CHAT_UPDATED, { sessionId: "t", deltas: [], [ROUTING.pageIds]: ["gone-1"] });
    writeJson(projectSettings, { hooks: {} }); // the server watches the file: hooks/changed to all
    const notes = (p: { posted: Envelope[] }, m: string) => p.posted.filter((e) => e.kind === "notification" && e.method === m);
    await expect.poll(() => notes(settings, changed).length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(notes(chat, changed).length).toBeGreaterThan(0);
    expect(notes(chat, METHODS.CHAT_UPDATED)).toEqual([
      { kind: "notification", method: METHODS.CHAT_UPDATED, params: { sessionId: "s", deltas: [] } },
    ]);
    expect(notes(settings, METHODS.CHAT_UPDATED)).toEqual([]);
  });

  it("tells the server when a page goes away", async () => {
    const told: [string, unknown][] = [];
    const router = new Router(() => ({ sendRequest: async () => null, sendNotification: (m, p) => void told.push([m, p]) }));
    const chat = page("chat");
    const remove = router.add(chat.relay);
    remove();
    remove(); // once
    expect(told).toEqual([[METHODS.PAGE_CLOSED, { [ROUTING.pageId]: chat.relay.id }]]);
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

  it("asks a server question of the page it names, withdraws it when the server cancels, refuses one for a page not there", async () => {
    const router = new Router();
    const chat = page("chat");
    const other = page("chat");
    router.add(chat.relay);
    router.add(other.relay);
    let cancel: () => void = () => {};
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (listener: () => void) => ((cancel = listener), { dispose() {} }),
    };
    const to = { [ROUTING.pageIds]: [chat.relay.id] };
    const asked = router.ask(METHODS.CHAT_REQUEST_PERMISSION, { sessionId: "s", toolName: "Bash", ...to }, token);
    const question = chat.posted.find((m) => m.kind === "request") as { id: string; params: unknown };
    expect(question.params).toEqual({ sessionId: "s", toolName: "Bash" });
    expect(other.posted).toEqual([]);
    cancel();
    await expect(asked).rejects.toMatchObject({ error: { code: -32800 } });
    expect(chat.posted.at(-1)).toEqual({ kind: "notification", method: METHODS.CANCEL_REQUEST, params: { id: question.id } });
    const answered = router.ask(METHODS.CHAT_REQUEST_PERMISSION, { sessionId: "s", ...to });
    const second = chat.posted.filter((m) => m.kind === "request").at(-1) as { id: string };
    await chat.relay.receive({ kind: "response", id: second.id, result: { allow: true } });
    await expect(answered).resolves.toEqual({ allow: true });
    const nobody = router.ask(METHODS.CHAT_REQUEST_PERMISSION, { sessionId: "s", [ROUTING.pageIds]: ["chat-0"] });
    await expect(nobody).rejects.toMatchObject({ error: { message: "the page asked is not open" } });
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
