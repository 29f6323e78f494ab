import { afterEach, describe, expect, it, vi } from "vitest";

import { setLang } from "../src/i18n";
import { HooksActions } from "../src/settings/actions";
import { RequestTimeoutError } from "../src/transport/rpc";
import { hook, listing } from "./fixtures";
import { FakeVsCodeHost } from "./vscode-api-mock";

afterEach(() => vi.useRealTimers());

const PROMPT = "帮我编辑钩子：把<事件/匹配/命令/超时>改成<新内容>";

describe("New", () => {
  it("asks the server for the prompt, then closes settings and prefills the chat", async () => {
    setLang("zh");
    const host = new FakeVsCodeHost();
    const actions = new HooksActions(host.rpc());
    const done = actions.newHook("project");
    const request = await host.nextRequest("wave/hooks/prefill");
    expect(request.params).toEqual({ action: "new", source: "project", locale: "zh" });
    expect(host.trail()).toEqual(["request:wave/hooks/prefill"]);
    host.deliver({ kind: "response", id: request.id, result: { prompt: "帮我在【demo】新建钩子：…", configPath: null } });
    await done;
    expect(host.trail()).toEqual(["request:wave/hooks/prefill", "shell:openChat", "shell:closeSettings"]);
    expect(host.posted.at(-2)).toEqual({ kind: "shell", command: "openChat", args: { prefill: "帮我在【demo】新建钩子：…" } });
    expect(host.posted.at(-1)).toEqual({ kind: "shell", command: "closeSettings", args: {} });
  });
});

describe("Edit", () => {
  const target = hook({ id: "h1", source: "user", path: "/home/u/.wave/settings.json" });

  it("opens the config file and waits for its answer before closing the settings page", async () => {
    const host = new FakeVsCodeHost();
    const done = new HooksActions(host.rpc()).editHook(target);
    await host.answer("wave/hooks/prefill", { prompt: PROMPT, configPath: "/home/u/.wave/settings.json" });
    const open = await host.nextRequest("wave/openConfigFile");
    expect(open.params).toEqual({ path: "/home/u/.wave/settings.json", pointer: target.pointer }); // at the hook's own entry
    await Promise.resolve();
    // Not answered yet: nothing that would destroy the page may have been sent.
    expect(host.trail()).toEqual(["request:wave/hooks/prefill", "request:wave/openConfigFile"]);
    host.deliver({ kind: "response", id: open.id, result: { opened: true } });
    const outcome = await done;
    expect(host.trail()).toEqual([
      "request:wave/hooks/prefill",
      "request:wave/openConfigFile",
      "shell:openChat",
      "shell:closeSettings",
    ]);
    expect(outcome.opened).toEqual({ opened: true });
    expect(host.posted.at(-2)).toMatchObject({ args: { prefill: PROMPT } });
  });

  it("bounds the wait: a file that never opens still leads to the chat, with the reason kept", async () => {
    vi.useFakeTimers();
    const host = new FakeVsCodeHost();
    const done = new HooksActions(host.rpc(60_000), 3000).editHook(target);
    await host.answer("wave/hooks/prefill", { prompt: PROMPT, configPath: target.path });
    await host.nextRequest("wave/openConfigFile");
    await vi.advanceTimersByTimeAsync(2999);
    expect(host.trail()).not.toContain("shell:openChat");
    await vi.advanceTimersByTimeAsync(2);
    const outcome = await done;
    expect(outcome.openError).toBeInstanceOf(RequestTimeoutError);
    expect(host.trail().slice(-2)).toEqual(["shell:openChat", "shell:closeSettings"]);
  });

  it("asks for the prompt in the language the page renders in (not the workspace's)", async () => {
    setLang("en"); // e.g. browser mode's ?locale=en with a Chinese workspace
    const host = new FakeVsCodeHost();
    const done = new HooksActions(host.rpc()).editHook({ ...target, path: "" });
    const request = await host.nextRequest("wave/hooks/prefill");
    expect(request.params).toEqual({ action: "edit", source: "user", id: "h1", locale: "en" });
    host.deliver({ kind: "response", id: request.id, result: { prompt: PROMPT, configPath: null } });
    await done;
  });

  it("only prefills when there is no config path", async () => {
    const host = new FakeVsCodeHost();
    const done = new HooksActions(host.rpc()).editHook({ ...target, path: "" });
    await host.answer("wave/hooks/prefill", { prompt: PROMPT, configPath: null });
    await done;
    expect(host.trail()).toEqual(["request:wave/hooks/prefill", "shell:openChat", "shell:closeSettings"]);
  });
});

describe("Delete", () => {
  it("sends the hook's id; the answer's rows come filled in from their files", async () => {
    const host = new FakeVsCodeHost();
    const done = new HooksActions(host.rpc()).deleteHook(hook({ id: "abc", source: "project" }));
    const request = await host.nextRequest("wave/hooks/delete");
    expect(request.params).toEqual({ id: "abc" });
    const { configFiles, ...rest } = listing();
    const row = { id: "p2", file: 1, pointer: "/hooks/Stop/0/hooks/0", event: "Stop", command: "./after.sh" };
    const lastRuns = [{ hookId: "p2" }];
    const wire = { ...rest, configFiles, hooks: [row] };
    host.deliver({ kind: "response", id: request.id, result: { deleted: { ...row, id: "abc" }, listing: wire, lastRuns } });
    const answer = await done;
    expect(answer.lastRuns).toEqual(lastRuns);
    expect(answer.deleted).toMatchObject({ id: "abc", source: "project", path: "/work/demo/.wave/settings.json" });
    expect(answer.listing.hooks).toEqual([
      hook({ id: "p2", source: "project", path: "/work/demo/.wave/settings.json", pointer: "/hooks/Stop/0/hooks/0", event: "Stop", matcher: null, command: "./after.sh" }),
    ]);
  });
});
