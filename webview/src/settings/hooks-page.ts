import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-progress-ring/index.js";
import "../toast";
import "./inspector";
import "./mcp-servers";

import { LitElement, type PropertyValues, type TemplateResult, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";
import { keyed } from "lit/directives/keyed.js";
import { repeat } from "lit/directives/repeat.js";

import { type Key, type Lang, lang, t } from "../i18n";
import { displayPath } from "../paths";
import {
  type DiagnosticEntry,
  type HookEntry,
  type HookRunEntry,
  type HooksListResult,
  METHODS,
} from "../protocol/generated";
import { recall, remember } from "../storage";
import { base } from "../styles";
import type { ToastMessage, WaveToast } from "../toast";
import type { RpcClient } from "../transport/rpc";
import { HooksActions } from "./actions";
import { type InspectorTab, type WaveHookInspector, when } from "./inspector";
import {
  DIALECT_NAMES,
  SOURCES,
  type BrokenFile,
  type EventGroup,
  type Filter,
  type Row,
  type Source,
  type SourceView,
  bySource,
  canChange,
  diagnosticLine,
  diagnosticText,
  eventSummary,
  eventsOf,
  groupRows,
  hookName,
  initialTab,
  kindKey,
  orphanProblems,
  plainReason,
  rowNames,
  sameHook,
  serverMessage,
  tabBadge,
  whatToDo,
} from "./model";

/** Rows rendered at once (more than a tall window shows), then this many more per frame: a long
 * list paints its first screen quickly and the rest follows without blocking input. */
const FIRST_ROWS = 40;
const MORE_ROWS = 80;

/** The settings page's hooks tab: three source tabs, rows grouped by event, the hook inspector. */
@customElement("wave-hooks-page")
export class WaveHooksPage extends LitElement {
  static override styles = [
    base,
    css`
      :host {
        display: block;
        padding: 0 16px 72px;
      }
      .sticky {
        position: sticky;
        top: 0;
        z-index: 2;
        background: var(--vscode-editor-background, #1f1f1f);
        padding-top: 12px;
      }
      header {
        display: flex;
        align-items: baseline;
        gap: 12px;
        flex-wrap: wrap;
        margin-bottom: 4px;
      }
      h1 {
        font-size: 1.4em;
        font-weight: 600;
        margin: 0;
      }
      [role="tablist"] {
        display: flex;
        gap: 2px;
        border-bottom: 1px solid var(--vscode-widget-border, #454545);
        flex-wrap: wrap; /* a narrow panel: every tab stays in view (e.g. with the untrusted mark) */
      }
      [role="tab"] {
        display: inline-flex;
        align-items: center;
        gap: 6px;
        white-space: nowrap;
        background: none;
        border: none;
        border-bottom: 2px solid transparent;
        color: var(--vscode-panelTitle-inactiveForeground, #9d9d9d);
        font: inherit;
        padding: 6px 10px;
        cursor: pointer;
      }
      [role="tab"][aria-selected="true"] {
        color: var(--vscode-panelTitle-activeForeground, #cccccc);
        border-bottom-color: var(--vscode-panelTitle-activeBorder, #0078d4);
      }
      .badge {
        border-radius: 8px;
        padding: 0 6px;
        font-size: 0.9em;
        background: var(--vscode-badge-background, #616161);
        color: var(--vscode-badge-foreground, #f8f8f8);
      }
      .badge.problem {
        background: var(--vscode-inputValidation-errorBackground, #5a1d1d);
        color: var(--vscode-foreground, #cccccc);
        border: 1px solid var(--vscode-inputValidation-errorBorder, #be1100);
      }
      .badge.warn {
        background: var(--vscode-inputValidation-warningBackground, #352a05);
        color: var(--vscode-foreground, #cccccc);
        border: 1px solid var(--vscode-inputValidation-warningBorder, #b89500);
      }
      .toolbar {
        display: flex;
        gap: 8px;
        align-items: center;
        flex-wrap: wrap;
        padding: 8px 0;
      }
      .toolbar input,
      .toolbar select {
        font: inherit;
        color: var(--vscode-input-foreground, #cccccc);
        background: var(--vscode-input-background, #313131);
        border: 1px solid var(--vscode-input-border, #3c3c3c);
        border-radius: 2px;
        padding: 3px 6px;
      }
      .toolbar input {
        flex: 1 1 180px;
        min-width: 0;
      }
      .spacer {
        flex: 1;
      }
      h2.group {
        font-size: 1em;
        margin: 14px 0 6px;
        display: flex;
        gap: 8px;
        align-items: baseline;
        flex-wrap: wrap;
      }
      ul.hooks {
        list-style: none;
        padding: 0;
        margin: 0;
      }
      li.hook {
        /* Rows off screen are neither laid out nor painted until scrolled to. */
        content-visibility: auto;
        contain-intrinsic-size: auto 96px;
        border: 1px solid var(--vscode-widget-border, #454545);
        border-radius: 4px;
        padding: 8px 12px;
        margin-bottom: 8px;
        background: var(--vscode-editorWidget-background, transparent);
      }
      /* Switched off: dimmed by a dashed, backgroundless frame and muted text (not opacity, which
         would take the text below readable contrast). */
      li.hook[data-revealed] {
        outline: 2px solid var(--vscode-focusBorder, #0078d4);
      }
      li.hook.off {
        background: transparent;
        border-style: dashed;
        color: var(--vscode-descriptionForeground, #9d9d9d);
      }
      li.hook.off .command {
        background: transparent;
        border: 1px dashed var(--vscode-widget-border, #454545);
      }
      li.hook.broken {
        border-style: dashed;
        border-color: var(--vscode-inputValidation-errorBorder, #be1100);
      }
      .hook-head {
        display: flex;
        align-items: center;
        gap: 6px 8px;
        flex-wrap: wrap;
      }
      .chip {
        display: inline-block;
        padding: 0 6px;
        border-radius: 8px;
        font-size: 0.9em;
        background: var(--vscode-badge-background, #616161);
        color: var(--vscode-badge-foreground, #f8f8f8);
        overflow-wrap: anywhere;
      }
      .chip.warn {
        background: var(--vscode-inputValidation-warningBackground, #352a05);
        color: var(--vscode-foreground, #cccccc);
        border: 1px solid var(--vscode-inputValidation-warningBorder, #b89500);
      }
      .actions {
        margin-left: auto;
        display: flex;
        gap: 4px;
        flex-wrap: wrap;
      }
      .command {
        display: block;
        margin: 6px 0 4px;
        padding: 4px 6px;
        background: var(--vscode-textCodeBlock-background, rgba(127, 127, 127, 0.1));
        border-radius: 3px;
        white-space: pre-wrap;
        word-break: normal;
        overflow-wrap: normal;
        overflow-x: auto;
      }
      .meta {
        display: flex;
        gap: 4px 12px;
        flex-wrap: wrap;
        align-items: center;
        font-size: 0.92em;
      }
      .file {
        display: inline-flex;
        gap: 4px;
        align-items: center;
        min-width: 0;
      }
      .file .path {
        word-break: normal;
        overflow-wrap: anywhere;
      }
      /* Rows use native buttons (styled as VS Code's secondary ones): 500 rows × 4 custom
         elements with their own shadow roots made the first render several times slower. */
      button.btn {
        font: inherit;
        color: var(--vscode-button-secondaryForeground, #cccccc);
        background: var(--vscode-button-secondaryBackground, #313131);
        border: 1px solid var(--vscode-button-border, transparent);
        border-radius: 2px;
        padding: 2px 10px;
        line-height: 20px;
        cursor: pointer;
      }
      button.btn:hover:not(:disabled) {
        background: var(--vscode-button-secondaryHoverBackground, #3c3c3c);
      }
      button.btn:disabled {
        opacity: 0.55;
        cursor: default;
      }
      button.link {
        background: none;
        border: none;
        padding: 0;
        font: inherit;
        color: var(--vscode-textLink-foreground, #4daafc);
        cursor: pointer;
        text-decoration: underline;
      }
      button.link:disabled {
        color: inherit;
        cursor: default;
        text-decoration: none;
      }
      .empty {
        padding: 24px 8px;
        text-align: center;
      }
      .card-actions {
        display: flex;
        gap: 8px;
        flex-wrap: wrap;
        margin-top: 6px;
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
        width: min(560px, calc(100vw - 24px));
        box-sizing: border-box;
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
        flex-wrap: wrap;
      }
    `,
  ];

  @property({ attribute: false }) rpc!: RpcClient;
  /** The language rendered in (set by the app, so that a new locale re-renders the view). */
  @property({ attribute: false }) language: Lang = lang();
  /** False once wavehost is gone: every action is disabled. */
  @property({ type: Boolean }) connected = true;
  /** A hook to show (a chat notice's "Show in settings"): its tab, its row scrolled to and focused. */
  @property({ attribute: false }) reveal: string | null = null;
  private revealing: string | null = null;
  @state() private list: HooksListResult | null = null;
  @state() private loadError: string | null = null;
  @state() private loading = false;
  @state() private selected: Source | null = null;
  @state() private filter: Filter = { query: "", event: "" };
  @state() private pendingDelete: HookEntry | null = null;
  @state() private busy = false;
  @state() private lastRuns = new Map<string, HookRunEntry>();
  /** How many rows of the current tab and filter are in the DOM (grows frame by frame). */
  @state() private shownRows = FIRST_ROWS;
  @query("dialog.delete") private dialog!: HTMLDialogElement;
  @query("wave-toast") private toast!: WaveToast;
  @query("wave-hook-inspector") private inspector!: WaveHookInspector;

  private actions!: HooksActions;
  private unsubscribe: (() => void) | null = null;
  private loadSeq = 0;
  private derived: { list: HooksListResult; views: Record<Source, SourceView>; names: Map<string, string> } | null = null;
  private grouped: { view: SourceView; filter: Filter; groups: EventGroup[] } | null = null;
  /** Each row's template and what it was made from: an unchanged row is not re-evaluated. */
  private rowCache = new Map<string, { hook: HookEntry; key: string; result: TemplateResult }>();
  private moreFrame = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    this.actions = new HooksActions(this.rpc);
    this.unsubscribe = this.rpc.onNotification(METHODS.HOOKS_CHANGED, () => void this.reload());
    void this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    cancelAnimationFrame(this.moreFrame);
    this.moreFrame = 0;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A first list, another tab or filter starts again from its first screen of rows.
    const restart = ["filter", "selected"].some((k) => changed.has(k as keyof WaveHooksPage));
    if (restart || (changed.has("list" as keyof WaveHooksPage) && !changed.get("list" as keyof WaveHooksPage))) this.shownRows = FIRST_ROWS;
    const hook = this.reveal && this.list ? this.list.hooks.find((h) => h.id === this.reveal) : undefined;
    if (hook) {
      this.selected = hook.source;
      this.filter = { query: "", event: "" };
      this.shownRows = Number.MAX_SAFE_INTEGER; // its row is in the DOM now, wherever it is
      this.revealing = hook.id;
      this.reveal = null;
    }
  }

  protected override updated(): void {
    if (this.revealing !== null) {
      const id = this.revealing;
      this.revealing = null;
      const row = this.renderRoot.querySelector<HTMLElement>(`li.hook[data-hook-id="${CSS.escape(id)}"]`);
      for (const other of this.renderRoot.querySelectorAll("li.hook[data-revealed]")) other.removeAttribute("data-revealed");
      row?.setAttribute("data-revealed", "");
      row?.scrollIntoView({ block: "center" });
      row?.focus();
      this.dispatchEvent(new CustomEvent("revealed"));
    }
    if (this.moreFrame || !this.list) return;
    const total = this.groups(this.view.views[this.currentTab(this.view.views)]).reduce((n, g) => n + g.rows.length, 0);
    if (this.shownRows >= total) return;
    this.moreFrame = requestAnimationFrame(() => {
      this.moreFrame = 0;
      this.shownRows += MORE_ROWS;
    });
  }

  /** Fetches the list from the server; a later reload wins over an earlier slow one. */
  async reload(): Promise<void> {
    const seq = ++this.loadSeq;
    this.loading = true;
    try {
      const list = await this.actions.list();
      if (seq !== this.loadSeq) return;
      this.list = this.keepUnchanged(list);
      this.loadError = null;
      void this.loadLastRuns();
    } catch (err) {
      if (seq !== this.loadSeq) return;
      this.loadError = plainReason(err);
    } finally {
      if (seq === this.loadSeq) this.loading = false;
    }
  }

  /** The new list, with the previous entry objects where nothing about them changed (their rows
   * then render from cache). */
  private keepUnchanged(list: HooksListResult): HooksListResult {
    const before = new Map((this.list?.hooks ?? []).map((h) => [h.id, h]));
    const ids = new Set(list.hooks.map((h) => h.id));
    for (const id of this.rowCache.keys()) if (!ids.has(id)) this.rowCache.delete(id);
    return {
      ...list,
      hooks: list.hooks.map((h) => {
        const old = before.get(h.id);
        return old && sameHook(old, h) ? old : h;
      }),
    };
  }

  private async loadLastRuns(): Promise<void> {
    try {
      const { runs } = await this.rpc.request(METHODS.HOOKS_HISTORY, {});
      this.lastRuns = new Map(runs.map((r) => [r.hookId, r]));
    } catch {
      /* the rows just show no last run */
    }
  }

  private shortPath = (path: string): string => displayPath(path, this.list?.project.dir, this.list?.project.home);

  private get view(): { views: Record<Source, SourceView>; names: Map<string, string> } {
    const list = this.list!;
    if (this.derived?.list !== list) {
      this.derived = { list, views: bySource(list), names: rowNames(list.hooks, this.shortPath) };
    }
    return this.derived;
  }

  private tabKey(): string {
    return `settings-tab:${this.list?.project.dir ?? ""}`;
  }

  private currentTab(views: Record<Source, SourceView>): Source {
    this.selected ??= initialTab(views, recall(this.tabKey()));
    return this.selected;
  }

  private selectTab(source: Source, focus = false): void {
    this.selected = source;
    this.filter = { ...this.filter, event: "" };
    remember(this.tabKey(), source);
    if (focus) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[role=tab][data-source=${source}]`)?.focus());
  }

  private say(message: ToastMessage): void {
    this.toast.show(message);
  }

  private sayError(title: string, err: unknown): void {
    this.say({ kind: "error", title, todo: whatToDo(err), details: serverMessage(err) });
  }

  private async onNew(source: "user" | "project"): Promise<void> {
    this.busy = true;
    try {
      await this.actions.newHook(source);
    } catch (err) {
      this.sayError(plainReason(err), err);
    } finally {
      this.busy = false;
    }
  }

  private async onEdit(hook: HookEntry): Promise<void> {
    this.busy = true;
    try {
      const outcome = await this.actions.editHook(hook);
      if (outcome.openError) this.sayError(t("edit.openFailed", { reason: plainReason(outcome.openError) }), outcome.openError);
    } catch (err) {
      this.sayError(plainReason(err), err);
    } finally {
      this.busy = false;
    }
  }

  private async openFile(path: string, line: number | null): Promise<void> {
    try {
      const opened = await this.actions.openFile(path, line);
      if (!opened.opened) this.say({ kind: "error", title: t("edit.openFailed", { reason: opened.reason ?? "" }) });
    } catch (err) {
      this.sayError(t("edit.openFailed", { reason: plainReason(err) }), err);
    }
  }

  private askWave(path: string, problem: string): void {
    this.actions.askWave(t("file.fixPrompt", { path, problem }));
  }

  private async copyPath(path: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(path);
      this.say({ kind: "status", title: t("row.copied", { path }) });
    } catch (err) {
      this.say({ kind: "error", title: err instanceof Error ? err.message : String(err) });
    }
  }

  private inspect(hook: HookEntry, tab: InspectorTab): void {
    void this.inspector.open(hook, this.view.names.get(hook.id) ?? hookName(hook), tab);
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
    const file = this.shortPath(hook.path);
    try {
      await this.actions.deleteHook(hook);
      // Deleted in the file (the server says so): the row goes now; the re-list follows.
      if (this.list) this.list = { ...this.list, hooks: this.list.hooks.filter((h) => h.id !== hook.id) };
      await this.reload();
      this.say({ kind: "status", title: t("delete.doneIn", { name, file }) });
    } catch (err) {
      // The list shown is the server's, never an optimistic guess.
      await this.reload();
      this.sayError(t("delete.failedIn", { name, file, reason: plainReason(err) }), err);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const list = this.list;
    return html`
      ${list ? this.renderList(list) : this.renderHeader(null)}
      ${this.loadError
        ? html`<div class="alert" role="alert" data-testid="load-error">
            ${t("settings.loadFailed", { reason: this.loadError })}
            <vscode-button secondary ?disabled=${!this.connected} @click=${() => void this.reload()}>${t("settings.retry")}</vscode-button>
          </div>`
        : nothing}
      ${!list && !this.loadError ? html`<p class="muted">${t("settings.loading")}</p>` : nothing}
      ${this.renderDialog()}
      <wave-hook-inspector
        .rpc=${this.rpc}
        .shortPath=${this.shortPath}
        ?connected=${this.connected}
        @ran=${() => void this.loadLastRuns()}
        @closed=${() => void this.loadLastRuns()}
      ></wave-hook-inspector>
      <wave-toast></wave-toast>
    `;
  }

  private renderHeader(list: HooksListResult | null) {
    return html`<header>
      <h1>${t("settings.title")}</h1>
      ${list ? html`<span class="muted" title=${list.project.dir}>${t("settings.project", { name: list.project.name })}</span>` : nothing}
      ${this.loading ? html`<vscode-progress-ring aria-label=${t("settings.loading")}></vscode-progress-ring>` : nothing}
    </header>`;
  }

  private renderList(list: HooksListResult) {
    const { views } = this.view;
    const source = this.currentTab(views);
    const view = views[source];
    const orphans = orphanProblems(list);
    return html`
      <div class="sticky">
        ${this.renderHeader(list)}
        <div role="tablist" aria-label=${t("settings.title")} @keydown=${this.onTabKey}>
          ${SOURCES.map((s) => {
            const badge = tabBadge(views[s]);
            return html`<button
              role="tab"
              id="tab-${s}"
              data-source=${s}
              aria-selected=${s === source ? "true" : "false"}
              aria-controls="panel"
              tabindex=${s === source ? "0" : "-1"}
              @click=${() => this.selectTab(s)}
            >
              ${t(`tab.${s}`)}
              <span class="badge ${badge.problem ? "problem" : ""}" data-testid="count-${s}" aria-label=${badge.label}>${badge.text}</span>
              ${s === "project" && !list.trusted ? html`<span class="badge warn" data-testid="untrusted-mark">${t("tab.untrustedMark")}</span>` : nothing}
            </button>`;
          })}
        </div>
        ${this.renderToolbar(view)}
      </div>
      ${list.hooksDisabledBy ? this.renderDisabled(list.hooksDisabledBy) : nothing}
      ${orphans.length ? this.renderProblems(orphans) : nothing}
      <section role="tabpanel" id="panel" aria-labelledby="tab-${source}" data-source=${source} data-testid="panel-${source}">
        ${source === "project" && !list.trusted ? html`<p class="warning" data-testid="untrusted">${t("tab.untrusted")}</p>` : nothing}
        ${view.brokenFiles.map((b) => this.renderBrokenFile(b))}
        ${view.problems.length ? this.renderProblems(view.problems) : nothing}
        ${this.renderRows(view)}
      </section>
      <wave-mcp-servers .rpc=${this.rpc} .language=${this.language} ?connected=${this.connected} .shortPath=${this.shortPath}></wave-mcp-servers>
    `;
  }

  private onTabKey = (e: KeyboardEvent): void => {
    const current = SOURCES.indexOf(this.selected ?? "user");
    const keys: Record<string, number> = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: SOURCES.length - 1 };
    if (!(e.key in keys)) return;
    e.preventDefault();
    this.selectTab(SOURCES[(keys[e.key]! + SOURCES.length) % SOURCES.length]!, true);
  };

  private renderToolbar(view: SourceView) {
    const events = eventsOf(view);
    return html`<div class="toolbar" role="search">
      <input
        type="search"
        aria-label=${t("filter.label")}
        placeholder=${t("filter.placeholder")}
        data-testid="filter"
        .value=${this.filter.query}
        @input=${(e: Event) => (this.filter = { ...this.filter, query: (e.target as HTMLInputElement).value })}
      />
      <select
        aria-label=${t("filter.event")}
        data-testid="filter-event"
        .value=${this.filter.event}
        @change=${(e: Event) => (this.filter = { ...this.filter, event: (e.target as HTMLSelectElement).value })}
      >
        <option value="">${t("filter.allEvents")}</option>
        ${events.map((ev) => html`<option value=${ev} ?selected=${ev === this.filter.event}>${ev}</option>`)}
      </select>
      ${view.editable
        ? html`<vscode-button
            ?disabled=${this.busy || !this.connected}
            data-action="new"
            @click=${() => void this.onNew(view.source as "user" | "project")}
            >${t(view.source === "user" ? "new.user" : "new.project")}</vscode-button
          >`
        : nothing}
    </div>`;
  }

  private renderDisabled(file: string) {
    return html`<div class="warning" role="note" data-testid="disabled-banner">
      ${t("settings.disabledBanner", { file: this.shortPath(file) })}
      <div class="card-actions">
        <vscode-button secondary ?disabled=${!this.connected} data-action="open-disabling-file" @click=${() => void this.openFile(file, null)}
          >${t("settings.openFile")}</vscode-button
        >
      </div>
    </div>`;
  }

  private renderBrokenFile(broken: BrokenFile) {
    const path = broken.file.path;
    const problem = broken.diagnostic ? diagnosticText(broken.diagnostic) : (broken.file.error ?? "");
    return html`<div class="alert" role="group" aria-label=${t("file.broken", { file: this.shortPath(path) })} data-testid="broken-file">
      <strong>${t("file.broken", { file: this.shortPath(path) })}</strong>
      <div data-testid="broken-file-problem">${problem}</div>
      <div class="card-actions">
        <vscode-button
          secondary
          data-action="open-broken-file"
          ?disabled=${!this.connected}
          @click=${() => void this.openFile(path, diagnosticLine(broken.diagnostic))}
          >${t("settings.openFile")}</vscode-button
        >
        <vscode-button secondary data-action="ask-wave" ?disabled=${!this.connected} @click=${() => this.askWave(path, broken.diagnostic?.message ?? problem)}
          >${t("file.askWave")}</vscode-button
        >
      </div>
    </div>`;
  }

  private renderProblems(problems: DiagnosticEntry[]) {
    return html`
      <div class="warning problems" data-testid="problems">
        <strong>${t("files.problems")}</strong>
        <ul>
          ${problems.map(
            (p) => html`<li data-code=${p.code}>
              <span class="path" title=${p.path}>${p.pointer ? `${this.shortPath(p.path)}#${p.pointer}` : this.shortPath(p.path)}</span>:
              ${diagnosticText(p)}
              <button class="link" ?disabled=${!this.connected} @click=${() => void this.openFile(p.path, diagnosticLine(p))}>${t("settings.openFile")}</button>
            </li>`,
          )}
        </ul>
      </div>
    `;
  }

  private groups(view: SourceView): EventGroup[] {
    if (this.grouped?.view !== view || this.grouped.filter !== this.filter) {
      this.grouped = { view, filter: this.filter, groups: groupRows(view, this.filter) };
    }
    return this.grouped.groups;
  }

  private renderRows(view: SourceView) {
    const groups = this.groups(view);
    const total = view.hooks.length + view.broken.length;
    if (!total) {
      return view.brokenFiles.length ? nothing : html`<p class="empty muted" data-testid="empty-${view.source}">${t(`empty.${view.source}`)}</p>`;
    }
    const shown = groups.reduce((n, g) => n + g.rows.length, 0);
    const filtered = this.filter.query || this.filter.event;
    let room = this.shownRows;
    const visible = groups
      .map((g) => {
        const rows = g.rows.slice(0, Math.max(0, room));
        room -= rows.length;
        return { group: g, rows };
      })
      .filter((g) => g.rows.length);
    // Another filter or tab gets fresh rows: dropping the old ones whole is far quicker than
    // taking hundreds of rows out one by one.
    const generation = `${view.source}\u0000${this.filter.event}\u0000${this.filter.query}`;
    return html`
      ${filtered ? html`<p class="muted" role="status" data-testid="filter-count">${shown ? t("filter.count", { shown, total }) : t("filter.none")}</p>` : nothing}
      ${keyed(
        generation,
        html`<div class="rows">
          ${repeat(
            visible,
            (g) => g.group.event,
            (g) => this.renderGroup(g.group, g.rows),
          )}
        </div>`,
      )}
    `;
  }

  private renderGroup(group: EventGroup, rows: Row[]) {
    const summary = eventSummary(group.catalogueEvent, lang());
    return html`<h2 class="group" data-testid="group" data-event=${group.event}>
        <span>${t("group.label", { event: group.event, n: group.rows.length })}</span>
        ${summary ? html`<span class="muted">${summary}</span>` : nothing}
      </h2>
      <ul class="hooks" role="list" aria-label=${group.event}>
        ${repeat(
          rows,
          (row) => (row.kind === "hook" ? row.hook.id : `${row.diagnostic.path}#${row.diagnostic.pointer}`),
          (row) => (row.kind === "hook" ? this.cachedHook(row.hook) : this.renderBroken(row.diagnostic)),
        )}
      </ul>`;
  }

  private renderFile(path: string) {
    const short = this.shortPath(path);
    return html`<span class="file"
      >${t("row.file")}: <span class="path" title=${path} data-testid="row-path">${short}</span>
      <button class="link" aria-label=${t("row.copyPathLabel", { path: short })} @click=${() => void this.copyPath(path)}>${t("row.copyPath")}</button></span
    >`;
  }

  private renderLastRun(hook: HookEntry, name: string) {
    const run = this.lastRuns.get(hook.id);
    if (!run) return html`<span data-testid="last-run">${t("row.neverRun")}</span>`;
    const key: Key = run.blocked ? "row.lastRunBlocked" : "row.lastRun";
    const text = t(key, { when: when(run.at), code: run.exitCode ?? "—", ms: Math.round(run.durationMs) });
    return html`<button class="link" data-testid="last-run" aria-label="${text} — ${t("row.historyLabel", { name })}" @click=${() => this.inspect(hook, "history")}>
      ${text}
    </button>`;
  }

  /** A hook's row, re-made only when the entry or something the row shows has changed. */
  private cachedHook(hook: HookEntry): TemplateResult {
    const run = this.lastRuns.get(hook.id);
    const key = [
      this.language,
      this.view.names.get(hook.id),
      this.list?.hooksDisabledBy,
      this.list?.project.dir,
      this.list?.project.home,
      this.connected,
      this.busy,
      run?.at,
      run?.exitCode,
      run?.blocked,
      run?.durationMs,
    ].join("\u0000");
    const cached = this.rowCache.get(hook.id);
    if (cached?.hook === hook && cached.key === key) return cached.result;
    const result = this.renderHook(hook);
    this.rowCache.set(hook.id, { hook, key, result });
    return result;
  }

  private renderHook(hook: HookEntry): TemplateResult {
    const name = this.view.names.get(hook.id) ?? hookName(hook);
    const changeable = canChange(hook);
    const off = Boolean(this.list?.hooksDisabledBy) || Boolean(hook.untrusted) || hook.disabled;
    const { dialect, type: kind } = hook;
    const idle = !this.connected;
    return html`
      <li class="hook ${off ? "off" : ""}" tabindex="-1" data-hook-id=${hook.id} data-event=${hook.event} data-dialect=${dialect} aria-label=${name}>
        <div class="hook-head">
          <span class="chip dialect" data-testid="dialect">${t("row.dialect", { name: DIALECT_NAMES[dialect] })}</span>
          ${kind !== "command" ? html`<span class="chip" data-testid="kind">${t(kindKey({ type: kind, dialect }))}</span>` : nothing}
          ${hook.disabled ? html`<span class="chip warn">${t("row.switchedOff")}</span>` : nothing}
          <span class="chip" title=${t("row.matcher")}>${t("row.matcher")}: ${hook.matcher || t("row.matcherAll")}</span>
          ${hook.if ? html`<span class="chip" data-testid="if-rule" title=${t("row.ifTitle")}>${t("row.if")}: ${hook.if}</span>` : nothing}
          ${hook.plugin ? html`<span class="chip">${t("row.plugin", { name: hook.plugin })}</span>` : nothing}
          ${hook.untrusted ? html`<span class="chip warn">${t("row.untrusted")}</span>` : nothing}
          ${this.list?.hooksDisabledBy ? html`<span class="chip warn" data-testid="row-disabled">${t("row.disabled")}</span>` : nothing}
          ${hook.readOnly && hook.source !== "plugin" ? html`<span class="chip">${t("row.readOnly")}</span>` : nothing}
          <span class="actions">
            <button class="btn" data-action="test" aria-label=${t("row.testLabel", { name })} ?disabled=${idle} @click=${() => this.inspect(hook, "test")}
              >${t("row.test")}</button
            >
            <button class="btn" data-action="why" aria-label=${t("row.whyLabel", { name })} ?disabled=${idle} @click=${() => this.inspect(hook, "why")}
              >${t("row.why")}</button
            >
            ${changeable
              ? html`<button
                    class="btn"
                    data-action="edit"
                    aria-label=${t("row.editLabel", { name })}
                    ?disabled=${this.busy || idle}
                    @click=${() => void this.onEdit(hook)}
                    >${t("row.edit")}</button
                  >
                  <button
                    class="btn"
                    data-action="delete"
                    aria-label=${t("row.deleteLabel", { name })}
                    ?disabled=${this.busy || idle}
                    @click=${() => this.askDelete(hook)}
                    >${t("row.delete")}</button
                  >`
              : nothing}
          </span>
        </div>
        ${hook.description ? html`<div class="description">${hook.description}</div>` : nothing}
        <code class="command">${hook.command}</code>
        <div class="meta muted">
          ${this.renderLastRun(hook, name)}
          ${hook.timeout != null ? html`<span>${t("row.timeout", { seconds: hook.timeout })}</span>` : nothing}
          ${hook.asyncRewake ? html`<span>${t("row.asyncRewake")}</span>` : hook.async ? html`<span>${t("row.async")}</span>` : nothing}
          ${this.renderFile(hook.path)}
        </div>
      </li>
    `;
  }

  private renderBroken(d: DiagnosticEntry) {
    const entry = d.entry!;
    const name = hookName({ event: entry.event, matcher: entry.matcher });
    return html`<li class="hook broken" data-broken=${d.pointer ?? ""} aria-label=${t("row.brokenLabel", { name: `${name} · ${d.pointer ?? ""}` })}>
      <div class="hook-head">
        ${entry.matcher !== null ? html`<span class="chip">${t("row.matcher")}: ${entry.matcher}</span>` : nothing}
        <span class="chip warn">${t("row.broken")}</span>
        <span class="actions">
          <vscode-button secondary data-action="open-file" ?disabled=${!this.connected} @click=${() => void this.openFile(d.path, diagnosticLine(d))}
            >${t("settings.openFile")}</vscode-button
          >
        </span>
      </div>
      <div class="alert" data-testid="broken-problem">${diagnosticText(d)} <span class="muted">(${d.pointer})</span></div>
      ${entry.command ? html`<code class="command">${entry.command}</code>` : nothing}
      <div class="meta muted">${this.renderFile(d.path)}</div>
    </li>`;
  }

  private renderDialog() {
    const hook = this.pendingDelete;
    return html`
      <dialog
        class="delete"
        aria-labelledby="delete-title"
        data-testid="delete-dialog"
        @close=${() => (this.pendingDelete = null)}
        @cancel=${() => (this.pendingDelete = null)}
      >
        ${hook
          ? html`
              <h2 id="delete-title">${t("delete.title")}</h2>
              <p>${t("delete.body", { name: hookName(hook) })}</p>
              <p class="path" data-testid="delete-path" title=${hook.path}>${hook.path}</p>
              <code class="command">${hook.command}</code>
              <p class="muted">${t("delete.irreversible")}</p>
              <div class="dialog-buttons">
                <vscode-button secondary data-action="cancel" @click=${() => this.closeDialog()}>${t("delete.cancel")}</vscode-button>
                <vscode-button data-action="confirm" ?disabled=${!this.connected} @click=${() => void this.confirmDelete()}
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
