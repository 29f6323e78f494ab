/**
 * A mocked VS Code webview API (`acquireVsCodeApi`): the one thing these unit tests fake, because
 * VS Code itself cannot run here. The extension's part is the shared fake shell, delivering by
 * dispatching `message` events, exactly as `webview.postMessage` does.
 */

import { VsCodeTransport } from "../src/transport/adapters";
import { RpcClient } from "../src/transport/rpc";
import { FakeShell } from "./fake-shell";

export class FakeVsCodeHost extends FakeShell {
  readonly window = new EventTarget() as unknown as Window;
  private state: unknown = undefined;

  /** What `acquireVsCodeApi()` returns inside a VS Code webview. */
  readonly api = {
    postMessage: (message: unknown) => this.receive(message),
    getState: () => this.state,
    setState: (state: unknown) => {
      this.state = structuredClone(state);
      return state;
    },
  };

  rpc(timeoutMs?: number): RpcClient {
    return new RpcClient(new VsCodeTransport(this.api, this.window), timeoutMs);
  }

  protected dispatch(message: unknown): void {
    this.window.dispatchEvent(new MessageEvent("message", { data: message }));
  }
}
