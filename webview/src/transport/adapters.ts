/**
 * Three ways one page talks to its shell, all carrying the same envelope (envelope.ts):
 *
 * - VS Code: `acquireVsCodeApi().postMessage(envelope)`; the extension answers with
 *   `webview.postMessage(envelope)`, which arrives as a window `message` event.
 * - JetBrains (JCEF): before the page's script runs, the plugin injects
 *   `window.__waveJetBrainsBridge = { postMessage(json: string) }` (a JBCefJSQuery). It answers by
 *   running `window.dispatchEvent(new MessageEvent("message", {data: <envelope JSON text>}))`.
 * - Browser mode: a WebSocket to `/ws` on the page's own origin (`wavehost web`).
 */

import { type Envelope, parseEnvelope } from "./envelope";

/** What a page keeps across being destroyed and re-created by its shell. */
export interface PageState {
  /** The chat session this page shows: a re-created page re-attaches to it. */
  sessionId?: string;
}

/** Where the page keeps its state: VS Code's getState/setState, else the tab's sessionStorage. */
export interface PageStore {
  load(): PageState;
  save(state: PageState): void;
}

export interface Transport {
  readonly name: "vscode" | "jetbrains" | "websocket";
  readonly store: PageStore;
  send(message: Envelope): void;
  /** Registers the one receiver; messages that are not envelopes are ignored. */
  onMessage(receiver: (message: Envelope) => void): void;
  /** Called when the link to the shell is gone for good (browser mode: the socket closed). */
  onClose(listener: (reason: string) => void): void;
}

export interface JetBrainsBridge {
  postMessage(json: string): void;
  /** Optional: the plugin keeps the page's state (JSON text) across re-created pages. */
  getState?(): string | null;
  setState?(json: string): void;
}

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState?(): unknown;
  setState?(state: unknown): void;
}

function asState(value: unknown): PageState {
  if (typeof value !== "object" || value === null) return {};
  const id = (value as { sessionId?: unknown }).sessionId;
  return typeof id === "string" ? { sessionId: id } : {};
}

/** The tab's sessionStorage (survives a reload, not a closed tab); nothing if there is none. */
export function sessionStore(target: Window = window, key = "wavehost.page"): PageStore {
  return {
    load() {
      try {
        return asState(JSON.parse(target.sessionStorage.getItem(key) ?? "null"));
      } catch {
        return {};
      }
    },
    save(state) {
      try {
        target.sessionStorage.setItem(key, JSON.stringify(state));
      } catch {
        /* storage refused (private mode, quota): the page just will not re-attach */
      }
    },
  };
}

declare global {
  interface Window {
    __waveJetBrainsBridge?: JetBrainsBridge;
  }
}

function listenToWindow(target: Window, receiver: (message: Envelope) => void): void {
  target.addEventListener("message", (event: MessageEvent) => {
    const message = parseEnvelope(event.data);
    if (message) receiver(message);
  });
}

export class VsCodeTransport implements Transport {
  readonly name = "vscode";
  readonly store: PageStore;
  constructor(
    private readonly api: VsCodeApi,
    private readonly target: Window = window,
  ) {
    const { getState, setState } = api;
    this.store =
      getState && setState
        ? { load: () => asState(getState.call(api)), save: (state) => setState.call(api, state) }
        : sessionStore(target);
  }
  send(message: Envelope): void {
    this.api.postMessage(message);
  }
  onMessage(receiver: (message: Envelope) => void): void {
    listenToWindow(this.target, receiver);
  }
  onClose(): void {
    // A VS Code webview is torn down with its page: nothing outlives it to be told.
  }
}

export class JetBrainsTransport implements Transport {
  readonly name = "jetbrains";
  readonly store: PageStore;
  constructor(
    private readonly bridge: JetBrainsBridge,
    private readonly target: Window = window,
  ) {
    const { getState, setState } = bridge;
    this.store =
      getState && setState
        ? {
            load: () => {
              try {
                return asState(JSON.parse(getState.call(bridge) ?? "null"));
              } catch {
                return {};
              }
            },
            save: (state) => setState.call(bridge, JSON.stringify(state)),
          }
        : sessionStore(target);
  }
  send(message: Envelope): void {
    this.bridge.postMessage(JSON.stringify(message));
  }
  onMessage(receiver: (message: Envelope) => void): void {
    listenToWindow(this.target, receiver);
  }
  onClose(): void {
    // Like VS Code: the editor tab and its bridge are disposed together with the page.
  }
}

/** Browser mode. Messages sent before the socket opens are queued and sent in order. */
export class WebSocketTransport implements Transport {
  readonly name = "websocket";
  readonly store: PageStore = sessionStore();
  private readonly socket: WebSocket;
  private readonly pending: string[] = [];
  private receiver: ((message: Envelope) => void) | null = null;
  private closeListeners: ((reason: string) => void)[] = [];

  constructor(url: string, socketFactory: (url: string) => WebSocket = (u) => new WebSocket(u)) {
    this.socket = socketFactory(url);
    this.socket.addEventListener("open", () => {
      for (const text of this.pending.splice(0)) this.socket.send(text);
    });
    this.socket.addEventListener("message", (event: MessageEvent) => {
      const message = parseEnvelope(event.data);
      if (message && this.receiver) this.receiver(message);
    });
    this.socket.addEventListener("close", (event: CloseEvent) => {
      const reason = event.reason || `connection closed (code ${event.code})`;
      for (const listener of this.closeListeners) listener(reason);
    });
  }
  send(message: Envelope): void {
    const text = JSON.stringify(message);
    if (this.socket.readyState === WebSocket.CONNECTING) this.pending.push(text);
    else if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
    // CLOSING/CLOSED: the request times out with a clear error (rpc.ts).
  }
  onMessage(receiver: (message: Envelope) => void): void {
    this.receiver = receiver;
  }
  onClose(listener: (reason: string) => void): void {
    this.closeListeners.push(listener);
  }
}

/** The shell this page runs in: VS Code, then JetBrains, else browser mode. */
export function detectTransport(target: Window = window): Transport {
  const acquire = (target as unknown as { acquireVsCodeApi?: () => VsCodeApi }).acquireVsCodeApi;
  if (typeof acquire === "function") return new VsCodeTransport(acquire(), target);
  if (target.__waveJetBrainsBridge) return new JetBrainsTransport(target.__waveJetBrainsBridge, target);
  const scheme = target.location.protocol === "https:" ? "wss:" : "ws:";
  return new WebSocketTransport(`${scheme}//${target.location.host}/ws`);
}
