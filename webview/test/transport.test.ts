import { afterEach, describe, expect, it, vi } from "vitest";

import { JetBrainsTransport, detectTransport } from "../src/transport/adapters";
import { parseEnvelope } from "../src/transport/envelope";
import { RemoteError, RequestTimeoutError, RpcClient } from "../src/transport/rpc";
import { FakeVsCodeHost } from "./vscode-api-mock";

afterEach(() => {
  vi.useRealTimers();
});

describe("parseEnvelope", () => {
  it("accepts the four kinds as objects or JSON text", () => {
    expect(parseEnvelope({ kind: "request", id: 1, method: "m", params: {} })?.kind).toBe("request");
    expect(parseEnvelope('{"kind":"response","id":"a","result":1}')?.kind).toBe("response");
    expect(parseEnvelope({ kind: "notification", method: "n", params: {} })?.kind).toBe("notification");
    expect(parseEnvelope({ kind: "shell", command: "closeSettings" })?.kind).toBe("shell");
  });

  it("rejects what is not an envelope", () => {
    for (const bad of [null, 3, "not json", [], { kind: "request", method: "m" }, { kind: "x" }, { kind: "shell" }]) {
      expect(parseEnvelope(bad)).toBeNull();
    }
  });
});

describe("RpcClient over the VS Code adapter", () => {
  it("sends a request envelope and resolves with the response's result", async () => {
    const host = new FakeVsCodeHost();
    const rpc = host.rpc();
    const pending = rpc.request("wave/hooks/list", {});
    const request = await host.nextRequest("wave/hooks/list");
    expect(request).toMatchObject({ kind: "request", method: "wave/hooks/list", params: {} });
    host.deliver({ kind: "response", id: request.id, result: { hooks: [] } });
    await expect(pending).resolves.toEqual({ hooks: [] });
  });

  it("rejects with the server's error, keeping its data", async () => {
    const host = new FakeVsCodeHost();
    const pending = host.rpc().request("wave/hooks/delete", { id: "x" });
    const request = await host.nextRequest("wave/hooks/delete");
    host.deliver({
      kind: "response",
      id: request.id,
      error: { code: -32803, message: "read-only", data: { reason: "readOnly", message: "read-only" } },
    });
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).data).toEqual({ reason: "readOnly", message: "read-only" });
  });

  it("times out with a clear error instead of hanging, and ignores a late answer", async () => {
    vi.useFakeTimers();
    const host = new FakeVsCodeHost();
    const pending = host.rpc(2000).request("wave/hooks/list", {});
    const caught = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2001);
    const err = await caught;
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect((err as Error).message).toBe("wave/hooks/list: no answer from wavehost within 2 s");
    const request = await host.nextRequest("wave/hooks/list");
    expect(() => host.deliver({ kind: "response", id: request.id, result: {} })).not.toThrow();
  });

  it("dispatches notifications and shell commands to their handlers", () => {
    const host = new FakeVsCodeHost();
    const rpc = host.rpc();
    const changed = vi.fn();
    const prefill = vi.fn();
    const off = rpc.onNotification("wave/hooks/changed", changed);
    rpc.onShell("prefill", prefill);
    host.deliver({ kind: "notification", method: "wave/hooks/changed", params: {} });
    host.deliver({ kind: "shell", command: "prefill", args: { text: "hi" } });
    off();
    host.deliver({ kind: "notification", method: "wave/hooks/changed", params: {} });
    expect(changed).toHaveBeenCalledTimes(1);
    expect(prefill).toHaveBeenCalledWith({ text: "hi" });
  });

  it("answers server requests, and says so when it has no handler", async () => {
    const host = new FakeVsCodeHost();
    const rpc = host.rpc();
    rpc.onRequest("wave/chat/requestPermission", async (p) => ({ allow: p.toolName === "Bash", always: false, message: null }));
    host.deliver({ kind: "request", id: 7, method: "wave/chat/requestPermission", params: { toolName: "Bash" } });
    host.deliver({ kind: "request", id: 8, method: "wave/unknown", params: {} });
    await vi.waitFor(() => expect(host.posted.filter((e) => e.kind === "response")).toHaveLength(2));
    const responses = host.posted.filter((e) => e.kind === "response");
    expect(responses).toContainEqual({
      kind: "response",
      id: 7,
      result: { allow: true, always: false, message: null },
    });
    expect(responses).toContainEqual(
      expect.objectContaining({ id: 8, error: expect.objectContaining({ code: -32601 }) }),
    );
  });
});

describe("JetBrains adapter", () => {
  it("posts JSON text to the injected bridge and reads JSON text from message events", async () => {
    // The JCEF bridge object is the IntelliJ side: faked here, as the IDE cannot run.
    const sent: string[] = [];
    const target = new EventTarget() as unknown as Window;
    const rpc = new RpcClient(new JetBrainsTransport({ postMessage: (json) => sent.push(json) }, target));
    const pending = rpc.request("wave/hooks/prefill", { action: "new", source: "user" });
    expect(sent).toHaveLength(1);
    const request = JSON.parse(sent[0]!);
    expect(request).toMatchObject({ kind: "request", method: "wave/hooks/prefill" });
    target.dispatchEvent(
      new MessageEvent("message", {
        data: JSON.stringify({ kind: "response", id: request.id, result: { prompt: "p", configPath: null } }),
      }),
    );
    await expect(pending).resolves.toEqual({ prompt: "p", configPath: null });
  });
});

describe("detectTransport", () => {
  it("prefers acquireVsCodeApi, then the JetBrains bridge", () => {
    const host = new FakeVsCodeHost();
    const vscodeWindow = Object.assign(new EventTarget(), { acquireVsCodeApi: () => host.api });
    expect(detectTransport(vscodeWindow as unknown as Window).name).toBe("vscode");
    const jbWindow = Object.assign(new EventTarget(), { __waveJetBrainsBridge: { postMessage() {} } });
    expect(detectTransport(jbWindow as unknown as Window).name).toBe("jetbrains");
  });
});

describe("withdrawn server requests", () => {
  it("abort the handler's signal on $/cancelRequest and answer RequestCancelled", async () => {
    const host = new FakeVsCodeHost();
    const rpc = host.rpc();
    let aborted = false;
    rpc.onRequest(
      "wave/chat/requestPermission",
      (_params, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            reject(new Error("withdrawn"));
          });
        }),
    );
    host.deliver({ kind: "request", id: "srv-3", method: "wave/chat/requestPermission", params: { toolName: "Bash" } });
    host.deliver({ kind: "notification", method: "$/cancelRequest", params: { id: "srv-3" } });
    await vi.waitFor(() => expect(host.posted.filter((e) => e.kind === "response")).toHaveLength(1));
    expect(aborted).toBe(true);
    expect(host.posted.find((e) => e.kind === "response")).toEqual({
      kind: "response",
      id: "srv-3",
      error: { code: -32800, message: "the request was withdrawn" },
    });
  });
});
