/**
 * The one fake shell of the webview's tests: it plays the VS Code extension (or the JetBrains
 * plugin) around the page. It records what the page posts, answers requests by method, and
 * delivers envelopes to the page. Only the delivery differs between the two places it runs: a
 * window `message` event in the unit tests (jsdom), `page.evaluate` in real Chromium (e2e).
 */

import type { Envelope, RequestEnvelope } from "../src/transport/envelope";

/** An envelope the page posted, open to any field a test looks at (`method`, `command`, …). */
export type Posted = Envelope & { [field: string]: unknown };

export abstract class FakeShell {
  readonly posted: Posted[] = [];
  private readonly answers = new Map<string, (params: unknown) => unknown>();
  private readonly silenced = new Set<string>();
  private waiters: { match: (e: Envelope) => boolean; resolve: (e: Envelope) => void }[] = [];

  /** @param refuseUnknown answer requests no `on` covers with "not handled" (else leave them) */
  constructor(private readonly refuseUnknown = false) {}

  /** How an envelope reaches the page (VS Code's `webview.postMessage`, the plugin's JS call). */
  protected abstract dispatch(message: unknown): void | Promise<void>;

  /** Answer `method` requests with `answer(params)`. */
  on(method: string, answer: (params: unknown) => unknown): void {
    this.answers.set(method, answer);
  }

  /** Never answer `method` (a shell that does not relay it, a server restarting). */
  silence(method: string): void {
    this.silenced.add(method);
  }

  /** What the page posted; requests are answered as `on` says. */
  receive(message: unknown): void {
    const envelope = structuredClone(message) as Posted;
    this.posted.push(envelope);
    for (const waiter of this.waiters.filter((w) => w.match(envelope))) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(envelope);
    }
    if (envelope.kind !== "request" || this.silenced.has(envelope.method)) return;
    const answer = this.answers.get(envelope.method);
    if (answer) void this.deliver({ kind: "response", id: envelope.id, result: answer(envelope.params) });
    else if (this.refuseUnknown) {
      void this.deliver({ kind: "response", id: envelope.id, error: { code: -32601, message: "not handled" } });
    }
  }

  deliver(message: unknown): void | Promise<void> {
    return this.dispatch(message);
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
    await this.deliver({ kind: "response", id: request.id, result });
  }

  /** The sequence of what the page sent: `request:<method>` or `shell:<command>`. */
  trail(): string[] {
    return this.posted.map((e) =>
      e.kind === "request" ? `request:${e.method}` : e.kind === "shell" ? `shell:${e.command}` : e.kind,
    );
  }
}
