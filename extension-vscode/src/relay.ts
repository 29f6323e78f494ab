/**
 * The relay between the pages (webviews) and the server: the page's envelope ↔ LSP requests and
 * notifications. Generic — what may pass comes from the method table (protocol.ts) — and free of
 * the `vscode` module, so it is tested against a real `wavehost serve` without VS Code.
 *
 * A multiplexer with no session state: each page has an id, its requests reach the server with
 * it (`pageId`), and what the server sends goes to the pages it names (`pageIds`), or to every
 * page when it names none. Which page shows which chat session is the server's to decide. A page
 * that goes away is reported to the server (`wave/page/closed`).
 *
 * Each page's messages are handled one at a time in arrival order: a request is written to the
 * server before the next message is looked at (its answer is awaited separately); a shell command
 * is done before the next message; `closeSettings` waits until every earlier request has been
 * answered, because closing destroys the page.
 */

import {
  type Envelope,
  METHODS,
  type ErrorObject,
  PAGE_REQUESTS,
  parseEnvelope,
  type RequestId,
  ROUTING,
  SERVER_NOTIFICATIONS,
  SERVER_REQUESTS,
  SHELL,
} from "./protocol";

/** What the relay needs of an LSP connection (vscode-languageclient's client, or vscode-jsonrpc's). */
export interface ServerPort {
  sendRequest(method: string, params: unknown): Promise<unknown>;
  sendNotification(method: string, params: unknown): Promise<void> | void;
}

/**
 * The connection to relay to: at once when the server is ready, after it (re)started when it is
 * starting, or why there is none (a sentence) when it is not running.
 */
export type Connect = () => Promise<ServerPort | string>;

/** A cancellation token as vscode-jsonrpc hands one to a request handler. */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** The page side: a webview's `postMessage`. */
export interface PagePort {
  post(message: Envelope): void;
}

export type PageKind = "settings" | "chat";
export type ShellAction = (command: string, args: Record<string, unknown>) => Promise<void> | void;

export const METHOD_NOT_FOUND = -32601;
export const INTERNAL_ERROR = -32603;
/** LSP's RequestCancelled: the answer to a server→client request that the server withdrew. */
export const REQUEST_CANCELLED = -32800;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON-RPC error object of a failed request, `data.reason` included, as the page expects it. */
export function errorObject(err: unknown): ErrorObject {
  if (isObject(err) && typeof err.code === "number" && typeof err.message === "string") {
    return err.data === undefined
      ? { code: err.code, message: err.message }
      : { code: err.code, message: err.message, data: err.data };
  }
  return { code: INTERNAL_ERROR, message: err instanceof Error ? err.message : String(err) };
}

/** The session a message is about (`params.sessionId`), if any. */
export function sessionOf(params: unknown): string | null {
  return isObject(params) && typeof params.sessionId === "string" ? params.sessionId : null;
}

/**
 * The pages a server message names (`pageIds`; null: every page), and its params as the pages get
 * them (without the names).
 */
export function addressed(params: unknown): { pages: ReadonlySet<string> | null; params: unknown } {
  if (!isObject(params) || !(ROUTING.pageIds in params)) return { pages: null, params };
  const { [ROUTING.pageIds]: named, ...rest } = params;
  const ids = Array.isArray(named) ? named.filter((id): id is string => typeof id === "string") : [];
  return { pages: new Set(ids), params: rest };
}

export class PageAnswerError extends Error {
  constructor(readonly error: ErrorObject) {
    super(error.message);
  }
}

interface Ask {
  resolve(value: unknown): void;
  reject(error: PageAnswerError): void;
}

let asked = 0;
let pages = 0;

export class PageRelay {
  /** What the server calls this page (its requests carry it as `pageId`). */
  readonly id: string;
  private queue: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly asks = new Map<RequestId, Ask>();
  private closed = false;

  constructor(
    readonly kind: PageKind,
    private readonly connect: Connect,
    private readonly page: PagePort,
    private readonly shell: ShellAction,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.id = `${kind}-${++pages}`;
  }

  /** A message from the page. Resolves once it (and everything before it) has been handled. */
  receive(raw: unknown): Promise<void> {
    const message = parseEnvelope(raw);
    if (message === null) {
      this.log("a page sent something that is not an envelope");
      return this.queue;
    }
    this.queue = this.queue
      .then(() => this.handle(message))
      .catch((err: unknown) => this.log(`a page message failed: ${errorObject(err).message}`));
    return this.queue;
  }

  /** Sends a server notification to the page. */
  notify(method: string, params: unknown): void {
    this.post({ kind: "notification", method, params: params ?? {} });
  }

  /** Sends the page a shell command (the table's shellToPage ones, e.g. `serverState`). */
  tell(command: string, args: Record<string, unknown>): void {
    this.post({ kind: "shell", command, args });
  }

  /**
   * Asks the page a server→client request and resolves with its answer; withdrawn from the page
   * when the server cancels it (`$/cancelRequest`).
   */
  ask(method: string, params: unknown, token?: Cancellation): Promise<unknown> {
    if (this.closed) {
      return Promise.reject(new PageAnswerError({ code: INTERNAL_ERROR, message: "the page was closed" }));
    }
    const id = `shell-${++asked}`;
    return new Promise<unknown>((resolve, reject) => {
      this.asks.set(id, { resolve, reject });
      this.post({ kind: "request", id, method, params: params ?? {} });
      token?.onCancellationRequested(() => {
        const ask = this.asks.get(id);
        if (!ask) return;
        this.asks.delete(id);
        this.post({ kind: "notification", method: METHODS.CANCEL_REQUEST, params: { id } });
        ask.reject(new PageAnswerError({ code: REQUEST_CANCELLED, message: "withdrawn by the server" }));
      });
    });
  }

  /** The page is gone: questions only it could answer are answered now (with an error), not never. */
  close(): void {
    this.closed = true;
    for (const [id, ask] of this.asks) {
      this.asks.delete(id);
      ask.reject(new PageAnswerError({ code: INTERNAL_ERROR, message: "the page was closed" }));
    }
  }

  get pendingQuestions(): number {
    return this.asks.size;
  }

  private post(message: Envelope): void {
    if (!this.closed) this.page.post(message);
  }

  private async handle(message: Envelope): Promise<void> {
    switch (message.kind) {
      case "request": {
        const answered = this.relay(message.id, message.method, message.params);
        this.inFlight.add(answered);
        void answered.finally(() => this.inFlight.delete(answered));
        return;
      }
      case "response": {
        const ask = this.asks.get(message.id);
        if (!ask) return; // withdrawn meanwhile
        this.asks.delete(message.id);
        if (message.error) ask.reject(new PageAnswerError(message.error));
        else ask.resolve(message.result ?? null);
        return;
      }
      case "shell":
        if (message.command === SHELL.CLOSE_SETTINGS) await Promise.allSettled([...this.inFlight]);
        await this.shell(message.command, message.args ?? {});
        return;
      case "notification":
        return; // pages send none
    }
  }

  private async relay(id: RequestId, method: string, params: unknown): Promise<void> {
    if (!PAGE_REQUESTS.has(method)) {
      const error = { code: METHOD_NOT_FOUND, message: `${method} is not a wavehost method` };
      this.post({ kind: "response", id, error });
      return;
    }
    const server = await this.connect();
    if (typeof server === "string") {
      this.post({ kind: "response", id, error: { code: INTERNAL_ERROR, message: server } });
      return;
    }
    // The page is named by the shell, never by itself: a page cannot pose as another.
    const named = { ...(isObject(params) ? params : {}), [ROUTING.pageId]: this.id };
    try {
      const result = await server.sendRequest(method, named);
      this.post({ kind: "response", id, result: result ?? null });
    } catch (err) {
      this.post({ kind: "response", id, error: errorObject(err) });
    }
  }
}

/** Every open page; server messages go to the pages they name. */
export class Router {
  private readonly pages = new Map<string, PageRelay>();
  private readonly observers: ((method: string, params: unknown) => void)[] = [];

  /** `server`: the connection while there is one (a page that goes away is reported on it). */
  constructor(private readonly server: () => ServerPort | undefined = () => undefined) {}

  /** Sees every server notification (the extension's progress indicator does). */
  observe(observer: (method: string, params: unknown) => void): void {
    this.observers.push(observer);
  }

  add(page: PageRelay): () => void {
    this.pages.set(page.id, page);
    return () => {
      if (!this.pages.delete(page.id)) return;
      page.close();
      void Promise.resolve(this.server()?.sendNotification(METHODS.PAGE_CLOSED, { [ROUTING.pageId]: page.id })).catch(
        () => undefined, // the server is gone too: it knows no page any more
      );
    };
  }

  get size(): number {
    return this.pages.size;
  }

  /** A shell command for every page (`serverState`: the server stopped, and why). */
  tell(command: string, args: Record<string, unknown>): void {
    for (const page of this.pages.values()) page.tell(command, args);
  }

  /** A notification goes to the pages it names, else to every page. */
  notify(method: string, raw: unknown): void {
    const { pages, params } = addressed(raw);
    for (const observer of this.observers) observer(method, params);
    for (const page of this.pages.values()) {
      if (pages === null || pages.has(page.id)) page.notify(method, params);
    }
  }

  /** A server→client request, asked of the page it names. Rejects when that page is not there. */
  ask(method: string, raw: unknown, token?: Cancellation): Promise<unknown> {
    const { pages, params } = addressed(raw);
    const page = pages?.size === 1 ? this.pages.get([...pages][0]!) : undefined;
    if (!page) {
      return Promise.reject(new PageAnswerError({ code: INTERNAL_ERROR, message: "the page asked is not open" }));
    }
    return page.ask(method, params, token);
  }
}

/** Where the server's messages come in: vscode-languageclient's client, or a vscode-jsonrpc connection. */
export interface ServerEvents {
  onNotification(method: string, handler: (params: unknown) => void): unknown;
  onRequest(method: string, handler: (params: unknown, token: Cancellation) => Promise<unknown>): unknown;
}

/**
 * Delivers the table's server→client messages to the pages they name; a page's error answer is
 * returned as `toError` makes it (the connection's ResponseError).
 */
export function listen(router: Router, server: ServerEvents, toError: (error: ErrorObject) => unknown): void {
  for (const method of SERVER_NOTIFICATIONS) {
    server.onNotification(method, (params) => router.notify(method, params));
  }
  for (const method of SERVER_REQUESTS) {
    server.onRequest(method, async (params, token) => {
      try {
        return await router.ask(method, params, token);
      } catch (err) {
        if (err instanceof PageAnswerError) return toError(err.error);
        throw err;
      }
    });
  }
}
