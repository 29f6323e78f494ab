import "@vscode-elements/elements/dist/vscode-badge/index.js";
import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-progress-ring/index.js";
import "@vscode-elements/elements/dist/vscode-tab-header/index.js";
import "@vscode-elements/elements/dist/vscode-tab-panel/index.js";
import "@vscode-elements/elements/dist/vscode-tabs/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";

import { type Lang, lang, t } from "../i18n";
import { type DiagnosticEntry, type HookEntry, type HooksListResult, METHODS } from "../protocol/generated";
import { base } from "../styles";
import type { RpcClient } from "../transport/rpc";
import { HooksActions } from "./actions";
import {
  DIALECT_NAMES,
  SOURCES,
  type Source,
  type SourceView,
  bySource,
  canChange,
  eventSummary,
  hookName,
  orphanProblems,
  plainReason,
} from "./model";

type Message = { kind: "error" | "status"; text: string };

/** The settings page's hooks tab: three source tabs, rows, New / Edit / Delete. */
@customElement("wave-hooks-page")
export class WaveHooksPage extends LitElement {
  static override styles = [
    base,
    css`
      :host {
        display: block;
        padding: 12px 16px;
      }
      header {
        display: flex;
        align-items: baseline;
        gap: 12px;
        margin-bottom: 8px;
      }
      h1 {
        font-size: 1.4em;
        font-weight: 600;
        margin: 0;
      }
      .toolbar {
        display: flex;
        gap: 8px;
        align-items: center;
        margin: 10px 0;
      }
      ul.hooks {
        list-style: none;
        padding: 0;
        margin: 0;
      }
      li.hook {
        border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, #2b2b2b));
        border-radius: 4px;
        padding: 8px 12px;
        margin-bottom: 8px;
        background: var(--vscode-editorWidget-background, transparent);
      }
      .hook-head {
        display: flex;
        align-items: center;
        gap: 8px;
        flex-wrap: wrap;
      }
      .event {
        font-weight: 600;
      }
      .chip {
        display: inline-block;
        padding: 0 6px;
        border-radius: 8px;
        font-size: 0.9em;
        background: var(--vscode-badge-background, #616161);
        color: var(--vscode-badge-foreground, #f8f8f8);
      }
      .chip.warn {
        background: var(--vscode-inputValidation-warningBorder, #b89500);
      }
      .actions {
        margin-left: auto;
        display: flex;
        gap: 6px;
      }
      .command {
        display: block;
        margin: 6px 0 4px;
        padding: 4px 6px;
        background: var(--vscode-textCodeBlock-background, rgba(127, 127, 127, 0.1));
        border-radius: 3px;
        white-space: pre-wrap;
        word-break: break-all;
      }
      .meta {
        display: flex;
        gap: 12px;
        flex-wrap: wrap;
        font-size: 0.92em;
      }
      .empty {
        padding: 24px 8px;
        text-align: center;
      }
      .problems ul {
        margin: 4px 0 0;
        padding-left: 18px;
      }
      dialog {
        color: var(--vscode-foreground, #cccccc);
        background: var(--vscode-editorWidget-background, #202020);
        border: 1px solid var(--vscode-widget-border, #454545);
        border-radius: 4px;
        max-width: 560px;
        padding: 16px 20px;
      }
      dialog::backdrop {
        background: rgba(0, 0, 0, 0.4);
      }
      dialog h2 {
        margin: 0 0 8px;
        font-size: 1.15em;
      }
      .dialog-buttons {
        display: flex;
        justify-content: flex-end;
        gap: 8px;
        margin-top: 16px;
      }
    `,
  ];

  @property({ attribute: false }) rpc!: RpcClient;
  /** The language rendered in (set by the app, so that a new locale re-renders the view). */
  @property({ attribute: false }) language: Lang = lang();
  @state() private list: HooksListResult | null = null;
  @state() private loadError: string | null = null;
  @state() private loading = false;
  @state() private selected: Source = "user";
  @state() private message: Message | null = null;
  @state() private pendingDelete: HookEntry | null = null;
  @state() private busy = false;
  @query("dialog") private dialog!: HTMLDialogElement;

  private actions!: HooksActions;
  private unsubscribe: (() => void) | null = null;
  private loadSeq = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    this.actions = new HooksActions(this.rpc);
    this.unsubscribe = this.rpc.onNotification(METHODS.HOOKS_CHANGED, () => void this.reload());
    void this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  /** Fetches the list from the server; a later reload wins over an earlier slow one. */
  async reload(): Promise<void> {
    const seq = ++this.loadSeq;
    this.loading = true;
    try {
      const list = await this.actions.list();
      if (seq !== this.loadSeq) return;
      this.list = list;
      this.loadError = null;
    } catch (err) {
      if (seq !== this.loadSeq) return;
      this.loadError = plainReason(err);
    } finally {
      if (seq === this.loadSeq) this.loading = false;
    }
  }

  private async onNew(source: "user" | "project"): Promise<void> {
    this.busy = true;
    try {
      await this.actions.newHook(source);
    } catch (err) {
      this.message = { kind: "error", text: plainReason(err) };
    } finally {
      this.busy = false;
    }
  }

  private async onEdit(hook: HookEntry): Promise<void> {
    this.busy = true;
    try {
      const outcome = await this.actions.editHook(hook);
      if (outcome.openError) {
        this.message = {
          kind: "error",
          text: t("edit.openFailed", { reason: plainReason(outcome.openError) }),
        };
      }
    } catch (err) {
      this.message = { kind: "error", text: plainReason(err) };
    } finally {
      this.busy = false;
    }
  }

  private askDelete(hook: HookEntry): void {
    this.pendingDelete = hook;
    void this.updateComplete.then(() => {
      if (!this.dialog.open) this.dialog.showModal();
      this.dialog.querySelector<HTMLElement>("[data-action=cancel]")?.focus();
    });
  }

  private closeDialog(): void {
    if (this.dialog.open) this.dialog.close();
    this.pendingDelete = null;
  }

  private async confirmDelete(): Promise<void> {
    const hook = this.pendingDelete;
    if (!hook) return;
    this.closeDialog();
    this.busy = true;
    const name = hookName(hook);
    try {
      await this.actions.deleteHook(hook);
      this.message = { kind: "status", text: t("delete.done", { name }) };
    } catch (err) {
      this.message = { kind: "error", text: t("delete.failed", { name, reason: plainReason(err) }) };
    } finally {
      // Success or failure, the list shown is the server's, never an optimistic guess.
      await this.reload();
      this.busy = false;
    }
  }

  override render() {
    return html`
      <header>
        <h1>${t("settings.title")}</h1>
        ${this.list
          ? html`<span class="muted">${t("settings.project", { name: this.list.project.name })}</span>`
          : nothing}
        ${this.loading ? html`<vscode-progress-ring aria-label=${t("settings.loading")}></vscode-progress-ring>` : nothing}
      </header>
      <div role="status" aria-live="polite">
        ${this.message?.kind === "status" ? html`<p class="status" data-testid="status">${this.message.text}</p>` : nothing}
      </div>
      <div role="alert">
        ${this.message?.kind === "error" ? html`<p class="alert" data-testid="error">${this.message.text}</p>` : nothing}
      </div>
      ${this.loadError
        ? html`<div class="alert" data-testid="load-error">
            ${t("settings.loadFailed", { reason: this.loadError })}
            <vscode-button secondary @click=${() => void this.reload()}>${t("settings.retry")}</vscode-button>
          </div>`
        : nothing}
      ${this.list ? this.renderList(this.list) : this.loadError ? nothing : html`<p class="muted">${t("settings.loading")}</p>`}
      ${this.renderDialog()}
    `;
  }

  private renderList(list: HooksListResult) {
    const views = bySource(list);
    const index = SOURCES.indexOf(this.selected);
    const orphans = orphanProblems(list);
    return html`
      ${list.trusted === false ? html`<p class="warning">${t("settings.untrusted")}</p>` : nothing}
      ${orphans.length ? this.renderProblems(orphans) : nothing}
      <vscode-tabs
        selected-index=${index}
        @vsc-tabs-select=${(e: CustomEvent<{ selectedIndex: number }>) => {
          this.selected = SOURCES[e.detail.selectedIndex] ?? "user";
        }}
      >
        ${SOURCES.map(
          (source) => html`
            <vscode-tab-header slot="header" data-source=${source}>
              ${t(`tab.${source}`)}
              <vscode-badge variant="counter" slot="content-after" data-testid="count-${source}"
                >${views[source].hooks.length}</vscode-badge
              >
            </vscode-tab-header>
          `,
        )}
        ${SOURCES.map((source) => html`<vscode-tab-panel data-source=${source}>${this.renderPanel(views[source])}</vscode-tab-panel>`)}
      </vscode-tabs>
    `;
  }

  private renderPanel(view: SourceView) {
    const source = view.source;
    return html`
      <section aria-label=${t(`tab.${source}`)}>
        ${view.editable
          ? html`<div class="toolbar">
              <vscode-button
                ?disabled=${this.busy}
                data-action="new"
                @click=${() => void this.onNew(source as "user" | "project")}
                >${t(source === "user" ? "new.user" : "new.project")}</vscode-button
              >
            </div>`
          : nothing}
        ${view.problems.length ? this.renderProblems(view.problems) : nothing}
        ${view.hooks.length
          ? html`<ul class="hooks" role="list">${view.hooks.map((h) => this.renderHook(h))}</ul>`
          : html`<p class="empty muted" data-testid="empty-${source}">${t(`empty.${source}`)}</p>`}
      </section>
    `;
  }

  private renderProblems(problems: DiagnosticEntry[]) {
    return html`
      <div class="warning problems" data-testid="problems">
        <strong>${t("files.problems")}</strong>
        <ul>
          ${problems.map(
            (p) => html`<li>
              <span class="path">${p.pointer ? `${p.path}#${p.pointer}` : p.path}</span>: ${p.message}
            </li>`,
          )}
        </ul>
      </div>
    `;
  }

  private renderHook(hook: HookEntry) {
    const name = hookName(hook);
    const summary = eventSummary(hook.catalogueEvent, lang());
    const changeable = canChange(hook);
    const { dialect, type: kind } = hook;
    return html`
      <li class="hook" data-hook-id=${hook.id} data-event=${hook.event} data-dialect=${dialect}>
        <div class="hook-head">
          <span class="event">${hook.event}</span>
          ${summary ? html`<span class="muted">${summary}</span>` : nothing}
          <span class="chip dialect" data-testid="dialect">${t("row.dialect", { name: DIALECT_NAMES[dialect] })}</span>
          ${kind !== "command" ? html`<span class="chip">${t(`row.kind.${kind}`)}</span>` : nothing}
          ${hook.disabled ? html`<span class="chip warn">${t("row.disabled")}</span>` : nothing}
          <span class="chip" title=${t("row.matcher")}>${t("row.matcher")}: ${hook.matcher || t("row.matcherAll")}</span>
          ${hook.plugin ? html`<span class="chip">${t("row.plugin", { name: hook.plugin })}</span>` : nothing}
          ${hook.untrusted ? html`<span class="chip warn">${t("row.untrusted")}</span>` : nothing}
          ${hook.readOnly && hook.source !== "plugin" ? html`<span class="chip">${t("row.readOnly")}</span>` : nothing}
          ${changeable
            ? html`<span class="actions">
                <vscode-button
                  secondary
                  data-action="edit"
                  aria-label=${t("row.editLabel", { name })}
                  ?disabled=${this.busy}
                  @click=${() => void this.onEdit(hook)}
                  >${t("row.edit")}</vscode-button
                >
                <vscode-button
                  secondary
                  data-action="delete"
                  aria-label=${t("row.deleteLabel", { name })}
                  ?disabled=${this.busy}
                  @click=${() => this.askDelete(hook)}
                  >${t("row.delete")}</vscode-button
                >
              </span>`
            : nothing}
        </div>
        ${hook.description ? html`<div class="description">${hook.description}</div>` : nothing}
        <code class="command" aria-label=${t("row.command")}>${hook.command}</code>
        <div class="meta muted">
          ${hook.timeout != null ? html`<span>${t("row.timeout", { seconds: hook.timeout })}</span>` : nothing}
          ${hook.asyncRewake ? html`<span>${t("row.asyncRewake")}</span>` : hook.async ? html`<span>${t("row.async")}</span>` : nothing}
          <span>${t("row.file")}: <span class="path">${hook.path}</span></span>
        </div>
      </li>
    `;
  }

  private renderDialog() {
    const hook = this.pendingDelete;
    return html`
      <dialog
        aria-labelledby="delete-title"
        data-testid="delete-dialog"
        @close=${() => (this.pendingDelete = null)}
        @cancel=${() => (this.pendingDelete = null)}
      >
        ${hook
          ? html`
              <h2 id="delete-title">${t("delete.title")}</h2>
              <p>${t("delete.body", { name: hookName(hook) })}</p>
              <p class="path" data-testid="delete-path">${hook.path}</p>
              <code class="command">${hook.command}</code>
              <p class="muted">${t("delete.irreversible")}</p>
              <div class="dialog-buttons">
                <vscode-button secondary data-action="cancel" @click=${() => this.closeDialog()}
                  >${t("delete.cancel")}</vscode-button
                >
                <vscode-button data-action="confirm" @click=${() => void this.confirmDelete()}
                  >${t("delete.confirm")}</vscode-button
                >
              </div>
            `
          : nothing}
      </dialog>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-hooks-page": WaveHooksPage;
  }
}
