/**
 * Requests, notifications and shell commands over one Transport, typed by the method table
 * (generated.ts): a method's params and result, a shell command's args.
 *
 * Every request is bounded: if no answer arrives in time it fails with a `RequestTimeoutError`
 * that says which request and how long it waited, instead of leaving the UI hanging.
 */

import {
  METHODS,
  type PageRequests,
  type PageShellCommands,
  type ServerNotifications,
  type ServerRequests,
  type ShellPageCommands,
} from "../protocol/generated";
import type { Transport } from "./adapters";
import type { Envelope, ErrorObject, RequestId } from "./envelope";

export const DEFAULT_TIMEOUT_MS = 15_000;
const REQUEST_CANCELLED = -32800; // LSP ErrorCodes.RequestCancelled

export class RequestTimeoutError extends Error {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`${method}: no answer from wavehost within ${Math.round(timeoutMs / 1000)} s`);
    this.name = "RequestTimeoutError";
  }
}

/** A JSON-RPC error the server (or the shell) answered with. */
export class RemoteError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(
    readonly method: string,
    error: ErrorObject,
  ) {
    super(error.message);
    this.name = "RemoteError";
    this.code = error.code;
    this.data = error.data;
  }
}

export class ConnectionClosedError extends Error {
  constructor(
    readonly method: string,
    reason: string,
  ) {
    super(`${method}: the connection to wavehost is closed (${reason})`);
    this.name = "ConnectionClosedError";
  }
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

type RequestHandler = (params: never, signal: AbortSignal) => Promise<unknown> | unknown;
type Handler = (value: never) => void;

export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly notificationHandlers = new Map<string, Set<Handler>>();
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly shellHandlers = new Map<string, Set<Handler>>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  /** The server's requests this page is answering now, by id (so that they can be withdrawn). */
  private readonly answering = new Map<RequestId, AbortController>();
  private closedReason: string | null = null;

  constructor(
    private readonly transport: Transport,
    private readonly defaultTimeoutMs = DEFAULT_TIMEOUT_MS,
  ) {
    transport.onMessage((message) => this.receive(message));
    transport.onClose((reason) => {
      this.closedReason = reason;
      for (const [id, entry] of this.pending) {
        this.pending.delete(id);
        clearTimeout(entry.timer);
        entry.reject(new ConnectionClosedError(entry.method, reason));
      }
      for (const listener of this.closeListeners) listener(reason);
    });
  }

  get transportName(): Transport["name"] {
    return this.transport.name;
  }

  /** Where the page keeps what must outlive it (its chat session), as its shell allows. */
  get store(): Transport["store"] {
    return this.transport.store;
  }

  request<M extends keyof ServerRequests>(
    method: M,
    params: ServerRequests[M]["params"],
    timeoutMs?: number,
  ): Promise<ServerRequests[M]["result"]> {
    type R = ServerRequests[M]["result"];
    if (this.closedReason !== null) {
      return Promise.reject(new ConnectionClosedError(method, this.closedReason));
    }
    const id = `page-${this.nextId++}`;
    const limit = timeoutMs ?? this.defaultTimeoutMs;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RequestTimeoutError(method, limit));
      }, limit);
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject, timer });
      this.transport.send({ kind: "request", id, method, params });
    });
  }

  shell<C extends keyof PageShellCommands>(command: C, args: PageShellCommands[C]): void {
    this.transport.send({ kind: "shell", command, args: args as Record<string, unknown> });
  }

  onNotification<M extends keyof ServerNotifications>(
    method: M,
    handler: (params: ServerNotifications[M]) => void,
  ): () => void {
    return subscribe(this.notificationHandlers, method, handler);
  }

  /**
   * Answers server→client requests (e.g. a permission prompt); one handler per method. When the
   * server withdraws the request (`$/cancelRequest`), `signal` aborts: the handler should then
   * reject, and the answer sent is a RequestCancelled error.
   */
  onRequest<M extends keyof PageRequests>(
    method: M,
    handler: (
      params: PageRequests[M]["params"],
      signal: AbortSignal,
    ) => Promise<PageRequests[M]["result"]> | PageRequests[M]["result"],
  ): void {
    this.requestHandlers.set(method, handler);
  }

  onShell<C extends keyof ShellPageCommands>(command: C, handler: (args: ShellPageCommands[C]) => void): () => void {
    return subscribe(this.shellHandlers, command, handler);
  }

  /** Called once the link to the shell is gone for good, with the reason. */
  onClose(listener: (reason: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  private receive(message: Envelope): void {
    switch (message.kind) {
      case "response": {
        const entry = this.pending.get(message.id);
        if (!entry) return; // late answer to a request that already timed out
        this.pending.delete(message.id);
        clearTimeout(entry.timer);
        if (message.error) entry.reject(new RemoteError(entry.method, message.error));
        else entry.resolve(message.result);
        return;
      }
      case "notification":
        if (message.method === METHODS.CANCEL_REQUEST) {
          // The server withdrew a request it asked this page: its handler learns by its signal.
          const id = (message.params as { id?: RequestId } | null)?.id;
          if (id !== undefined) this.answering.get(id)?.abort();
          return;
        }
        for (const handler of this.notificationHandlers.get(message.method) ?? []) {
          (handler as (params: unknown) => void)(message.params);
        }
        return;
      case "request":
        void this.answer(message.id, message.method, message.params);
        return;
      case "shell":
        for (const handler of this.shellHandlers.get(message.command) ?? []) {
          (handler as (args: unknown) => void)(message.args ?? {});
        }
        return;
    }
  }

  private async answer(id: RequestId, method: string, params: unknown): Promise<void> {
    const handler = this.requestHandlers.get(method);
    if (!handler) {
      const error = { code: -32601, message: `the page does not handle ${method}` };
      this.transport.send({ kind: "response", id, error });
      return;
    }
    const abort = new AbortController();
    this.answering.set(id, abort);
    try {
      const result = await (handler as (params: unknown, signal: AbortSignal) => unknown)(params, abort.signal);
      this.transport.send({ kind: "response", id, result: result ?? null });
    } catch (err) {
      const error = abort.signal.aborted
        ? { code: REQUEST_CANCELLED, message: "the request was withdrawn" }
        : { code: -32603, message: err instanceof Error ? err.message : String(err) };
      this.transport.send({ kind: "response", id, error });
    } finally {
      this.answering.delete(id);
    }
  }
}

function subscribe(handlers: Map<string, Set<Handler>>, key: string, handler: Handler): () => void {
  let set = handlers.get(key);
  if (!set) handlers.set(key, (set = new Set()));
  set.add(handler);
  return () => set.delete(handler);
}
