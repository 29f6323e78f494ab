import "@vscode-elements/elements/dist/vscode-button/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";

import { type Key, t } from "../i18n";
import {
  type HookEntry,
  type HookRunEntry,
  type HooksExplainResult,
  type HooksTestResult,
  METHODS,
} from "../protocol/generated";
import { base, controls } from "../styles";
import type { RpcClient } from "../transport/rpc";
import { plainReason, serverMessage, whatToDo } from "./model";
import { caseText, outcomeLines, stepText } from "./words";

export type InspectorTab = "history" | "test" | "why";
const TABS: InspectorTab[] = ["history", "test", "why"];
const TAB_LABEL: Record<InspectorTab, Key> = { history: "row.history", test: "row.test", why: "row.why" };

export function when(at: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round(now / 1000 - at));
  const lang = document.documentElement.lang || "en";
  const format = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  if (seconds < 60) return format.format(-seconds, "second");
  if (seconds < 3600) return format.format(-Math.round(seconds / 60), "minute");
  if (seconds < 86400) return format.format(-Math.round(seconds / 3600), "hour");
  return new Date(at * 1000).toLocaleString(lang);
}

/**
 * One hook, looked into: its run history, a real test run with an editable sample payload, and
 * why it fires or not. A modal dialog; the settings page opens it on one of the three tabs.
 */
@customElement("wave-hook-inspector")
export class WaveHookInspector extends LitElement {
  static override styles = [
    base,
    controls,
    css`
      dialog {
        width: min(760px, calc(100vw - 24px));
        max-height: calc(100vh - 24px);
        padding: 12px 16px;
      }
      h2 {
        margin: 0 0 4px;
        font-size: 1.1em;
        overflow-wrap: anywhere;
      }
      [role="tablist"] {
        display: flex;
        gap: 4px;
        border-bottom: 1px solid var(--vscode-widget-border);
        margin: 8px 0;
        flex-wrap: wrap;
      }
      [role="tab"] {
        background: none;
        color: inherit;
        font: inherit;
        border: none;
        border-bottom: 2px solid transparent;
        padding: 4px 8px;
        cursor: pointer;
      }
      [role="tab"][aria-selected="true"] {
        border-bottom-color: var(--vscode-panelTitle-activeBorder);
        font-weight: 600;
      }
      table {
        border-collapse: collapse;
        width: 100%;
      }
      th,
      td {
        text-align: left;
        padding: 3px 6px;
        border-bottom: 1px solid var(--vscode-widget-border);
        vertical-align: top;
      }
      pre {
        margin: 2px 0;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        max-height: 200px;
        overflow: auto;
        background: var(--vscode-textCodeBlock-background);
        padding: 4px 6px;
      }
      textarea {
        width: 100%;
        box-sizing: border-box;
        min-height: 10em;
        font-family: var(--vscode-editor-font-family);
        font-size: var(--vscode-editor-font-size);
        color: var(--vscode-input-foreground);
        background: var(--vscode-input-background);
        border: 1px solid var(--vscode-input-border);
      }
      ol.steps {
        padding-left: 0;
        list-style: none;
      }
      ol.steps > li {
        margin: 4px 0;
        padding-left: 8px;
        border-left: 3px solid var(--vscode-widget-border);
      }
      ol.steps > li[data-status="pass"] {
        border-left-color: var(--vscode-testing-iconPassed);
      }
      ol.steps > li[data-status="fail"] {
        border-left-color: var(--vscode-testing-iconFailed);
      }
      ol.steps > li[data-status="warn"] {
        border-left-color: var(--vscode-inputValidation-warningBorder);
      }
      .status-word {
        font-weight: 600;
        margin-right: 6px;
      }
      .row {
        display: flex;
        gap: 8px;
        align-items: center;
        flex-wrap: wrap;
        margin: 6px 0;
      }
      .buttons {
        display: flex;
        justify-content: flex-end;
        margin-top: 12px;
      }
    `,
  ];

  @property({ attribute: false }) rpc!: RpcClient;
  @property({ attribute: false }) hook: HookEntry | null = null;
  @property({ attribute: false }) name = "";
  @property({ attribute: false }) shortPath: (path: string) => string = (p) => p;
  @property({ type: Boolean }) connected = true;
  @state() private tab: InspectorTab = "history";
  @state() private runs: HookRunEntry[] | null = null;
  @state() private payloadText = "";
  @state() private result: HooksTestResult | null = null;
  @state() private explanation: HooksExplainResult | null = null;
  @state() private error: { text: string; todo?: string; details?: string } | null = null;
  @state() private running = false;
  @query("dialog") private dialog!: HTMLDialogElement;

  async open(hook: HookEntry, name: string, tab: InspectorTab): Promise<void> {
    this.hook = hook;
    this.name = name;
    this.runs = null;
    this.result = null;
    this.explanation = null;
    this.error = null;
    this.payloadText = "";
    await this.updateComplete;
    if (!this.dialog.open) this.dialog.showModal();
    await this.select(tab);
  }

  close(): void {
    if (this.dialog?.open) this.dialog.close();
  }

  private async select(tab: InspectorTab): Promise<void> {
    this.tab = tab;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`[role=tab][data-tab=${tab}]`)?.focus();
    this.error = null;
    try {
      if (tab === "history") await this.loadHistory();
      else if (tab === "test" && !this.payloadText) await this.loadSample();
      else if (tab === "why") await this.loadExplanation();
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    this.error = { text: plainReason(err), todo: whatToDo(err), details: serverMessage(err) };
  }

  private async loadHistory(): Promise<void> {
    const { runs } = await this.rpc.request(METHODS.HOOKS_HISTORY, { id: this.hook!.id });
    this.runs = runs;
  }

  private async loadSample(): Promise<void> {
    const sample = await this.rpc.request(METHODS.HOOKS_SAMPLE, { id: this.hook!.id });
    this.payloadText = JSON.stringify(sample.payload, null, 2);
  }

  private async loadExplanation(): Promise<void> {
    this.explanation = await this.rpc.request(METHODS.HOOKS_EXPLAIN, { id: this.hook!.id });
  }

  private async runTest(): Promise<void> {
    let payload: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(this.payloadText);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("{ … }");
      payload = parsed as Record<string, unknown>;
    } catch (err) {
      this.error = { text: t("test.invalidJson", { error: err instanceof Error ? err.message : String(err) }) };
      return;
    }
    this.running = true;
    this.error = null;
    this.result = null;
    try {
      // The hook may take up to the test's timeout (120 s at most).
      this.result = await this.rpc.request(METHODS.HOOKS_TEST, { id: this.hook!.id, payload }, 130_000);
      this.dispatchEvent(new CustomEvent("ran", { bubbles: true, composed: true }));
    } catch (err) {
      this.fail(err);
    } finally {
      this.running = false;
    }
  }

  private onTabKey(e: KeyboardEvent): void {
    const i = TABS.indexOf(this.tab);
    const next = e.key === "ArrowRight" ? i + 1 : e.key === "ArrowLeft" ? i - 1 : e.key === "Home" ? 0 : e.key === "End" ? TABS.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    void this.select(TABS[(next + TABS.length) % TABS.length]!);
  }

  override render() {
    const hook = this.hook;
    return html`<dialog aria-labelledby="inspector-title" data-testid="inspector" @close=${() => this.dispatchEvent(new CustomEvent("closed"))}>
      ${hook
        ? html`<h2 id="inspector-title">${this.name}</h2>
            <div role="tablist" aria-label=${t("inspect.tabs")} @keydown=${this.onTabKey}>
              ${TABS.map(
                (tab) => html`<button
                  role="tab"
                  id="inspector-tab-${tab}"
                  data-tab=${tab}
                  aria-selected=${this.tab === tab ? "true" : "false"}
                  aria-controls="inspector-panel"
                  tabindex=${this.tab === tab ? "0" : "-1"}
                  @click=${() => void this.select(tab)}
                >
                  ${t(TAB_LABEL[tab])}
                </button>`,
              )}
            </div>
            <div role="tabpanel" id="inspector-panel" aria-labelledby="inspector-tab-${this.tab}" data-testid="inspector-${this.tab}">
              ${this.error
                ? html`<div class="alert" role="alert" data-testid="inspector-error">
                    ${this.error.text}${this.error.todo ? html`<div>${this.error.todo}</div>` : nothing}
                    ${this.error.details ? html`<div class="muted">${t("toast.details")} ${this.error.details}</div>` : nothing}
                  </div>`
                : nothing}
              ${this.tab === "history" ? this.renderHistory() : this.tab === "test" ? this.renderTest(hook) : this.renderWhy(hook)}
            </div>
            <div class="buttons">
              <vscode-button secondary data-action="close-inspector" @click=${() => this.close()}>${t("inspect.close")}</vscode-button>
            </div>`
        : nothing}
    </dialog>`;
  }

  private renderHistory() {
    const runs = this.runs;
    if (runs === null) return html`<p class="muted">${t("settings.loading")}</p>`;
    if (!runs.length) return html`<p data-testid="history-empty">${t("history.empty")}</p>`;
    return html`<table data-testid="history">
      <caption class="visually-hidden">${t("history.caption", { n: runs.length })}</caption>
      <thead>
        <tr>
          <th scope="col">${t("history.when")}</th>
          <th scope="col">${t("history.what")}</th>
          <th scope="col">${t("history.exit")}</th>
          <th scope="col">${t("history.duration")}</th>
          <th scope="col">${t("history.where")}</th>
        </tr>
      </thead>
      <tbody>
        ${runs.map(
          (r) => html`<tr data-testid="history-run">
            <td title=${new Date(r.at * 1000).toISOString()}>${when(r.at)}</td>
            <td>${r.event}${r.subject ? html` · <code>${r.subject}</code>` : nothing}</td>
            <td>
              ${r.exitCode ?? "—"}${r.blocked ? html` · <strong>${t("history.blocked")}</strong>` : nothing}${r.timedOut
                ? html` · ${t("history.timedOut")}`
                : nothing}
              ${r.stderr ? html`<pre aria-label=${t("test.stderr")}>${r.stderr}</pre>` : nothing}
              ${r.stdout ? html`<pre aria-label=${t("test.stdout")}>${r.stdout}</pre>` : nothing}
            </td>
            <td>${t("test.duration", { ms: Math.round(r.durationMs) })}</td>
            <td>${r.trigger === "test" ? t("history.test") : t("history.session", { id: (r.sessionId ?? "").slice(0, 8) })}</td>
          </tr>`,
        )}
      </tbody>
    </table>`;
  }

  private renderTest(hook: HookEntry) {
    const r = this.result;
    return html`
      <label for="test-payload">${t("test.payload")}</label>
      <textarea
        id="test-payload"
        data-testid="test-payload"
        spellcheck="false"
        .value=${this.payloadText}
        @input=${(e: Event) => (this.payloadText = (e.target as HTMLTextAreaElement).value)}
      ></textarea>
      <div class="row">
        <vscode-button data-action="run-test" ?disabled=${this.running || !this.connected || !this.payloadText} @click=${() => void this.runTest()}
          >${this.running ? t("test.running") : t("test.run")}</vscode-button
        >
        <span class="muted">${t("test.warning")}</span>
      </div>
      ${hook.async || hook.asyncRewake ? html`<p class="muted">${t("test.background")}</p>` : nothing}
      ${r
        ? html`<section data-testid="test-result" aria-live="polite">
            <div class="row">
              <strong data-testid="test-exit">${r.exitCode === null ? t("test.noExit") : t("test.exit", { code: r.exitCode })}</strong>
              <span data-testid="test-duration">${t("test.duration", { ms: Math.round(r.durationMs) })}</span>
              ${r.timedOut ? html`<span>${t("test.timedOut", { s: r.timeout })}</span>` : nothing}
              ${r.spawnError ? html`<span>${t("test.spawn", { error: r.spawnError })}</span>` : nothing}
            </div>
            <div>${t("test.stdout")}</div>
            <pre data-testid="test-stdout">${r.stdout || t("test.empty")}</pre>
            <div>${t("test.stderr")}</div>
            <pre data-testid="test-stderr">${r.stderr || t("test.empty")}</pre>
            <h3>${t("test.outcome")}</h3>
            <ul data-testid="test-outcome">
              ${outcomeLines(r.outcome).map((line) => html`<li>${line}</li>`)}
            </ul>
          </section>`
        : nothing}
    `;
  }

  private renderWhy(hook: HookEntry) {
    const e = this.explanation;
    if (!e) return html`<p class="muted">${t("settings.loading")}</p>`;
    return html`<p data-testid="why-verdict"><strong>${e.fires ? t("why.fires") : t("why.stops")}</strong></p>
      <ol class="steps" data-testid="why-steps">
        ${e.steps.map(
          (step) => html`<li data-step=${step.code} data-status=${step.status}>
            <span class="status-word">${t(`why.status.${step.status}` as Key)}</span>${stepText(step, hook.event, this.shortPath)}
            ${step.cases.length
              ? html`<ul>
                  ${step.cases.map(
                    (c) => html`<li data-subject=${c.subject} data-verdict=${c.verdict}>
                      <code>${t("why.case", { subject: c.subject, count: c.count })}</code> — ${caseText(c)}
                    </li>`,
                  )}
                </ul>`
              : nothing}
          </li>`,
        )}
      </ol>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-hook-inspector": WaveHookInspector;
  }
}
