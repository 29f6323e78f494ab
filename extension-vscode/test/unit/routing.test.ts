/**
 * The routing scenarios (tests/routing/scenarios.json, the file every shell's tests run) against
 * the VS Code relay: the extension's Router and PageRelay in front of a real `wavehost serve`,
 * each page a relay whose posts the test reads (VS Code's webview.postMessage).
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";

import { ResponseError } from "vscode-jsonrpc/node";
import { afterEach, describe, expect, it } from "vitest";

import { type Envelope, METHODS, ROUTING } from "../../src/protocol";
import { listen, PageRelay, Router, type ServerPort } from "../../src/relay";
import { REPO, type Served, serve, temp, writeJson } from "./server";

interface Step {
  page?: string;
  [verb: string]: unknown;
}
interface Scenario {
  name: string;
  steps: Step[];
}
const FILE = JSON.parse(readFileSync(join(REPO, "tests", "routing", "scenarios.json"), "utf8")) as {
  script: unknown;
  scenarios: Scenario[];
};
const WAIT_MS = 30_000;

type Params = Record<string, unknown> & { sessionId?: string; id?: unknown; status?: string };

class Page {
  readonly inbox: Envelope[] = [];
  readonly taken = new Set<number>();
  mark = 0;
  question: { id: string | number } | null = null;
  readonly snapshots = new Map<string, { pendingPermissions: { toolUseId: string }[] }>();
  private ids = 0;
  readonly relay: PageRelay;
  readonly remove: () => void;

  constructor(router: Router, server: ServerPort) {
    this.relay = new PageRelay("chat", async () => server, { post: (m) => this.inbox.push(m) }, () => {});
    this.remove = router.add(this.relay);
  }

  /** The first envelope no earlier wait took that `wanted` accepts (waiting for it). */
  async wait(what: string, wanted: (e: Envelope & { params?: Params; id?: unknown }) => boolean): Promise<Envelope> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const index = this.inbox.findIndex((e, i) => !this.taken.has(i) && wanted(e as never));
      if (index >= 0) {
        this.taken.add(index);
        return this.inbox[index]!;
      }
      if (Date.now() > deadline) throw new Error(`no ${what} within ${WAIT_MS / 1000} s; the page got ${JSON.stringify(this.inbox)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = `r${++this.ids}`;
    await this.relay.receive({ kind: "request", id, method, params });
    const response = (await this.wait(`answer to ${method}`, (e) => e.kind === "response" && e.id === id)) as {
      result?: Record<string, unknown>;
      error?: unknown;
    };
    expect(response.error).toBeUndefined();
    return response.result!;
  }
}

class Run {
  readonly sessions = new Map<string, string>();
  readonly pages = new Map<string, Page>();
  readonly router: Router;

  constructor(
    private readonly served: Served,
    private readonly project: string,
  ) {
    this.router = new Router(() => this.server);
    listen(this.router, served.connection, (e) => new ResponseError(e.code, e.message, e.data));
  }

  get server(): ServerPort {
    return this.served.connection;
  }

  session(name: string): string {
    if (!this.sessions.has(name)) this.sessions.set(name, randomUUID());
    return this.sessions.get(name)!;
  }

  page(name: string): Page {
    if (!this.pages.has(name)) this.pages.set(name, new Page(this.router, this.server));
    return this.pages.get(name)!;
  }

  about(e: { params?: unknown }, name: string): boolean {
    return (e.params as Params | undefined)?.sessionId === this.session(name);
  }

  async step(step: Step): Promise<void> {
    if (typeof step.file === "string") {
      const target = join(this.project, step.file);
      if (step.absent) expect(existsSync(target)).toBe(false);
      else expect(readFileSync(target, "utf8")).toBe(step.content);
      return;
    }
    const page = this.page(step.page!);
    const s = (verb: string) => this.session(step[verb] as string);
    if ("open" in step) {
      const params: Record<string, unknown> = { sessionId: s("open"), create: true };
      if ("pageId" in step) params[ROUTING.pageId] = step.pageId;
      const snapshot = await page.request(METHODS.CHAT_OPEN, params);
      expect(snapshot.sessionId).toBe(params.sessionId);
      page.snapshots.set(step.open as string, snapshot as never);
    } else if ("send" in step) {
      await page.request(METHODS.CHAT_SEND, { sessionId: s("send"), text: "go" });
    } else if ("cancel" in step) {
      await page.request(METHODS.CHAT_CANCEL, { sessionId: s("cancel") });
    } else if ("close" in step) {
      await page.request(METHODS.CHAT_CLOSE, { sessionId: s("close") });
    } else if ("asked" in step) {
      const asked = await page.wait(
        "permission question",
        (e) => e.kind === "request" && e.method === METHODS.CHAT_REQUEST_PERMISSION && this.about(e, step.asked as string),
      );
      expect(ROUTING.pageIds in ((asked as { params: object }).params ?? {})).toBe(false);
      page.question = asked as { id: string };
    } else if ("allow" in step) {
      await page.relay.receive({ kind: "response", id: page.question!.id, result: { allow: true } });
    } else if ("withdrawn" in step) {
      const id = page.question!.id;
      await page.wait("withdrawal", (e) => e.kind === "notification" && e.method === METHODS.CANCEL_REQUEST && e.params?.id === id);
    } else if ("idle" in step) {
      await page.wait(
        "idle update",
        (e) => e.kind === "notification" && e.method === METHODS.CHAT_UPDATED && this.about(e, step.idle as string) && e.params?.status === "idle",
      );
    } else if ("pending" in step) {
      expect(page.snapshots.get(step.pending as string)!.pendingPermissions).toHaveLength(1);
    } else if ("answer" in step) {
      const [question] = page.snapshots.get(step.answer as string)!.pendingPermissions;
      const params = { sessionId: s("answer"), toolUseId: question!.toolUseId, allow: true };
      expect((await page.request(METHODS.CHAT_ANSWER_PERMISSION, params)).answered).toBe(true);
    } else if ("quiet" in step) {
      await page.request(METHODS.HOOKS_LIST, {});
      const heard = page.inbox.slice(page.mark).filter((e) => this.about(e as never, step.quiet as string));
      expect(heard, `the page heard of ${String(step.quiet)}`).toEqual([]);
    } else if ("gone" in step) {
      page.remove();
      this.pages.delete(step.page!);
      return;
    } else {
      throw new Error(`unknown step ${JSON.stringify(step)}`);
    }
    page.mark = page.inbox.length;
  }
}

let served: Served | undefined;

afterEach(async () => {
  await served?.stop();
  served = undefined;
});

describe("the routing scenarios against the VS Code relay and a real wavehost serve", () => {
  for (const scenario of FILE.scenarios) {
    it(scenario.name, async () => {
      const home = temp("routing-home");
      const project = temp("routing-project");
      const script = join(home, "script.json");
      writeJson(script, JSON.parse(JSON.stringify(FILE.script).replaceAll("{project}", project)));
      served = await serve(home, project, { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });
      const run = new Run(served, project);
      for (const [number, step] of scenario.steps.entries()) {
        try {
          await run.step(step);
        } catch (err) {
          throw new Error(`step ${number + 1} ${JSON.stringify(step)}: ${(err as Error).message}`);
        }
      }
    });
  }
});
