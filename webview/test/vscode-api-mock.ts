/**
 * A mocked VS Code webview API (`acquireVsCodeApi`): the one thing these unit tests fake, because
 * VS Code itself cannot run here. It records what the page posts and lets a test play the
 * extension's part by dispatching `message` events, exactly as `webview.postMessage` does.
 */

import { VsCodeTransport } from "../src/transport/adapters";
import type { Envelope, RequestEnvelope } from "../src/transport/envelope";
import { RpcClient } from "../src/transport/rpc";

export class FakeVsCodeHost {
  readonly window = new EventTarget() as unknown as Window;
  readonly posted: Envelope[] = [];
  private waiters: { match: (e: Envelope) => boolean; resolve: (e: Envelope) => void }[] = [];

  /** What `acquireVsCodeApi()` returns inside a VS Code webview. */
  readonly api = {
    postMessage: (message: unknown) => {
      const envelope = structuredClone(message) as Envelope;
      this.posted.push(envelope);
      for (const w of this.waiters.filter((w) => w.match(envelope))) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(envelope);
      }
    },
    getState: () => undefined,
    setState: (s: unknown) => s,
  };

  rpc(timeoutMs?: number): RpcClient {
    return new RpcClient(new VsCodeTransport(this.api, this.window), timeoutMs);
  }

  deliver(message: unknown): void {
    this.window.dispatchEvent(new MessageEvent("message", { data: message }));
  }

  nextRequest(method: string): Promise<RequestEnvelope> {
    const found = this.posted.find((e) => e.kind === "request" && e.method === method);
    if (found) return Promise.resolve(found as RequestEnvelope);
    return new Promise((resolve) => {
      this.waiters.push({
        match: (e) => e.kind === "request" && e.method === method,
        resolve: (e) => resolve(e as RequestEnvelope),
      });
    });
  }

  async answer(method: string, result: unknown): Promise<void> {
    const request = await this.nextRequest(method);
    this.deliver({ kind: "response", id: request.id, result });
  }

  /** The sequence of what the page sent: `request:<method>` or `shell:<command>`. */
  trail(): string[] {
    return this.posted.map((e) =>
      e.kind === "request" ? `request:${e.method}` : e.kind === "shell" ? `shell:${e.command}` : e.kind,
    );
  }
}
