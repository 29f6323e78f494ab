import "@vscode-elements/elements/dist/vscode-button/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";

import { type Key, t } from "../i18n";
import {
  type HookRunEntry,
  type HooksExplainResult,
  type HooksTestResult,
  METHODS,
} from "../protocol/generated";
import { base, controls } from "../styles";
import type { RpcClient } from "../transport/rpc";
import { type HookRow, dialectTitle } from "./model";
import { caseText, inputProblem, outcomeLines, stepText, testErrorText } from "./words";

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
      /* A narrow panel: each run is a card of labelled lines, not six squeezed columns. */
      @media (max-width: 600px) {
        thead {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip: rect(0 0 0 0);
        }
        tr,
        td {
          display: block;
        }
        tr {
          border-bottom: 1px solid var(--vscode-widget-border);
          padding: 4px 0;
        }
        td {
          border: none;
          padding: 1px 0;
        }
        td[data-label]::before {
          content: attr(data-label) ": ";
          color: var(--vscode-descriptionForeground);
        }
        td.again {
          padding-top: 4px;
        }
      }
    `,
  ];

  @property({ attribute: false }) rpc!: RpcClient;
  @property({ attribute: false }) hook: HookRow | null = null;
  @property({ attribute: false }) name = "";
  @property({ attribute: false }) shortPath: (path: string) => string = (p) => p;
  @property({ type: Boolean }) connected = true;
  @state() private tab: InspectorTab = "history";
  @state() private runs: HookRunEntry[] | null = null;
  /** The Test tab's input: what the hook reads on stdin, as shown (and edited). */
  @state() private stdinText = "";
  /** The sample (or kept input) it came from: the payload the server takes back, the text as it
   * was shown (unchanged: a kept input runs as it was received), the run it was kept from. */
  private sample: { payload: Record<string, unknown>; shown: string; input: string | null } | null = null;
  @state() private replaying: HookRunEntry | null = null;
  @state() private result: HooksTestResult | null = null;
  @state() private explanation: HooksExplainResult | null = null;
  /** What went wrong, in one plain sentence. */
  @state() private error: string | null = null;
  @state() private running = false;
  @query("dialog") private dialog!: HTMLDialogElement;

  async open(hook: HookRow, name: string, tab: InspectorTab): Promise<void> {
    this.hook = hook;
    this.name = name;
    this.runs = null;
    this.result = null;
    this.explanation = null;
    this.error = null;
    this.stdinText = "";
    this.sample = null;
    this.replaying = null;
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
      else if (tab === "test" && !this.stdinText) await this.loadSample();
      else if (tab === "why") await this.loadExplanation();
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    this.error = testErrorText(err, this.hook?.catalogueEvent ?? "");
  }

  private async loadHistory(): Promise<void> {
    const { runs } = await this.rpc.request(METHODS.HOOKS_HISTORY, { id: this.hook!.id });
    this.runs = runs;
  }

  private async loadSample(run: HookRunEntry | null = null): Promise<void> {
    const input = run?.input ?? null;
    const sample = await this.rpc.request(METHODS.HOOKS_SAMPLE, input ? { id: this.hook!.id, input } : { id: this.hook!.id });
    this.sample = { payload: sample.payload, shown: sample.stdin, input };
    this.stdinText = sample.stdin;
    this.replaying = run;
  }

  /** A history row's "Run again with this input": its input in the Test tab, run at once. */
  private async runAgain(run: HookRunEntry): Promise<void> {
    this.result = null;
    this.tab = "test";
    this.error = null;
    try {
      await this.loadSample(run);
    } catch (err) {
      this.fail(err);
      return;
    }
    await this.runTest();
  }

  private async loadExplanation(): Promise<void> {
    this.explanation = await this.rpc.request(METHODS.HOOKS_EXPLAIN, { id: this.hook!.id });
  }

  private async runTest(): Promise<void> {
    this.result = null; // a new run: the last one's result goes at once
    this.error = inputProblem(this.stdinText);
    const sample = this.sample;
    if (this.error || !sample) return;
    this.running = true;
    // Unchanged, a kept input runs as it was received; else the text as edited.
    const unchanged = this.stdinText === sample.shown;
    const params = sample.input && unchanged ? { id: this.hook!.id, input: sample.input } : { id: this.hook!.id, payload: sample.payload, stdin: this.stdinText };
    try {
      // The hook may take up to the test's timeout (120 s at most).
      this.result = await this.rpc.request(METHODS.HOOKS_TEST, params, 130_000);
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
              ${this.error ? html`<p class="alert" role="alert" data-testid="inspector-error">${this.error}</p>` : nothing}
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
          <th scope="col"><span class="visually-hidden">${t("history.runAgain")}</span></th>
        </tr>
      </thead>
      <tbody>
        ${runs.map(
          (r) => html`<tr data-testid="history-run">
            <td data-label=${t("history.when")} title=${new Date(r.at * 1000).toISOString()}>${when(r.at)}</td>
            <td data-label=${t("history.what")}>${r.event}${r.subject ? html` · <code>${r.subject}</code>` : nothing}</td>
            <td data-label=${t("history.exit")}>
              ${r.cancelled ? t("live.cancelled") : r.timedOut ? t("test.timedOutAfter", { s: Math.round(r.durationMs / 1000) }) : (r.exitCode ?? "—")}${r.blocked
                ? html` · <strong>${t("history.blocked")}</strong>`
                : nothing}
              ${r.stderr ? html`<pre aria-label=${t("test.stderr")}>${r.stderr}</pre>` : nothing}
              ${r.stdout ? html`<pre aria-label=${t("test.stdout")}>${r.stdout}</pre>` : nothing}
            </td>
            <td data-label=${t("history.duration")}>${t("test.duration", { ms: Math.round(r.durationMs) })}</td>
            <td data-label=${t("history.where")}>${r.trigger === "test" ? t("history.test") : t("history.session", { id: (r.sessionId ?? "").slice(0, 8) })}</td>
            <td class="again">
              ${r.input
                ? html`<button
                    class="btn"
                    data-action="run-again"
                    aria-label=${t("history.runAgainLabel", { action: t("history.runAgain"), when: when(r.at) })}
                    ?disabled=${!this.connected || this.running}
                    @click=${() => void this.runAgain(r)}
                  >
                    ${t("history.runAgain")}
                  </button>`
                : html`<span class="muted">${t("history.inputNotKept")}</span>`}
            </td>
          </tr>`,
        )}
      </tbody>
    </table>`;
  }

  private renderTest(hook: HookRow) {
    const r = this.result;
    const label = hook.dialect === "copilot" || hook.dialect === "snow" ? t("test.stdinDialect", { dialect: dialectTitle(hook.dialect) }) : t("test.stdinWave");
    return html`
      <label for="test-payload">${label}</label>
      ${this.replaying ? html`<p class="muted" data-testid="test-replaying">${t("test.replaying", { when: when(this.replaying.at) })}</p>` : nothing}
      <textarea
        id="test-payload"
        data-testid="test-payload"
        spellcheck="false"
        aria-describedby="test-sent"
        .value=${this.stdinText}
        @input=${(e: Event) => (this.stdinText = (e.target as HTMLTextAreaElement).value)}
      ></textarea>
      <p class="muted" id="test-sent">${t("test.sentAsOneLine")}</p>
      <div class="row">
        <vscode-button data-action="run-test" ?disabled=${this.running || !this.connected || !this.stdinText} @click=${() => void this.runTest()}
          >${this.running ? t("test.running") : t("test.run")}</vscode-button
        >
        <span class="muted">${t("test.warning")}</span>
      </div>
      ${hook.async || hook.asyncRewake ? html`<p class="muted">${t("test.background")}</p>` : nothing}
      ${r
        ? html`<section data-testid="test-result" aria-live="polite">
            <div class="row">
              <strong data-testid="test-exit"
                >${r.timedOut ? t("test.timedOutAfter", { s: r.timeout }) : r.exitCode === null ? t("test.noExit") : t("test.exit", { code: r.exitCode })}</strong
              >
              <span data-testid="test-duration">${t("test.duration", { ms: Math.round(r.durationMs) })}</span>
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

  private renderWhy(hook: HookRow) {
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
