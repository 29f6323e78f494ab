/**
 * A hook that runs long shows VS Code's window progress with its `statusMessage`: users expect to
 * see what holds the agent up. Read from the chat updates' `runningHooks` (the state after each
 * update); shown once hooks have been running for a moment, gone when none runs.
 */

import * as vscode from "vscode";

import { sessionOf } from "./relay";

/** Hooks shorter than this (ms) do not flash a progress indicator. */
export const PROGRESS_AFTER_MS = 1_000;

export class HookProgress implements vscode.Disposable {
  private readonly running = new Map<string, string[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private shown: { report(text: string): void; end(): void } | undefined;

  /** A server notification; only those that carry `runningHooks` matter. */
  observe(_method: string, params: unknown): void {
    const hooks = (params as { runningHooks?: unknown } | null)?.runningHooks;
    if (!Array.isArray(hooks)) return;
    const session = sessionOf(params) ?? "";
    const messages = hooks.filter((h): h is string => typeof h === "string");
    if (messages.length > 0) this.running.set(session, messages);
    else this.running.delete(session);
    this.update();
  }

  private get text(): string {
    return [...this.running.values()].flat().join(" · ");
  }

  private update(): void {
    if (this.running.size === 0) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.shown?.end();
      this.shown = undefined;
      return;
    }
    if (this.shown) this.shown.report(this.text);
    else if (!this.timer) this.timer = setTimeout(() => this.show(), PROGRESS_AFTER_MS);
  }

  private show(): void {
    this.timer = undefined;
    if (this.running.size === 0) return;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: "Wave" },
      (progress) =>
        new Promise<void>((resolve) => {
          this.shown = { report: (message) => progress.report({ message }), end: resolve };
          progress.report({ message: this.text });
        }),
    );
  }

  dispose(): void {
    this.running.clear();
    this.update();
  }
}
