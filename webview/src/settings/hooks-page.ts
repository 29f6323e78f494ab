import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-progress-ring/index.js";
import "../toast";
import "./delete-dialog";
import "./inspector";
import "./mcp-servers";

import { LitElement, type PropertyValues, type TemplateResult, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";
import { keyed } from "lit/directives/keyed.js";
import { repeat } from "lit/directives/repeat.js";

import { type Lang, lang, t } from "../i18n";
import { displayPath } from "../paths";
import { type HookEntry, type HookRunEntry, type HooksListResult, METHODS } from "../protocol/generated";
import { recall, remember } from "../storage";
import { base, controls } from "../styles";
import type { ToastMessage, WaveToast } from "../toast";
import type { RpcClient } from "../transport/rpc";
import { HooksActions } from "./actions";
import type { WaveDeleteDialog } from "./delete-dialog";
import { type ProblemsContext, problemStyles, renderBrokenFile, renderDisabledBanner, renderProblems } from "./file-problems";
import { type Starter, emptyStyles, renderEmpty } from "./empty-state";
import { groupStyles, renderGroupHead } from "./hook-group";
import { type RowContext, renderBrokenRow, renderHookRow, rowStyles } from "./hook-row";
import type { InspectorTab, WaveHookInspector } from "./inspector";
import {
  type EventGroup,
  type Filter,
  type Row,
  type Source,
  type SourceView,
  bySource,
  groupRows,
  hookName,
  initialTab,
  orphanProblems,
  overlapOf,
  plainReason,
  rowNames,
  sameHook,
  serverMessage,
  whatToDo,
} from "./model";
import { headStyles, renderHeader, renderTabs, renderToolbar } from "./page-head";

/** Rows rendered at once (more than a tall window shows), then this many more per frame: a long
 * list paints its first screen quickly and the rest follows without blocking input. */
const FIRST_ROWS = 40;
const MORE_ROWS = 80;

/** The settings page's hooks tab: three source tabs, rows grouped by event, the hook inspector.
 * The state and what the buttons do live here; the parts draw themselves (`page-head`,
 * `file-problems`, `hook-row`, `delete-dialog`, `inspector`). */
@customElement("wave-hooks-page")
export class WaveHooksPage extends LitElement {
  static override styles = [
    base,
    controls,
    headStyles,
    problemStyles,
    rowStyles,
    groupStyles,
    emptyStyles,
    css`
      :host {
        display: block;
        padding: 0 16px 72px;
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
  @state() private busy = false;
  @state() private lastRuns = new Map<string, HookRunEntry>();
  /** How many rows of the current tab and filter are in the DOM (grows frame by frame). */
  @state() private shownRows = FIRST_ROWS;
  /** The groups folded away, by source and event (for this page's life). */
  @state() private folded = new Set<string>();
  @query("wave-delete-dialog") private deleteDialog!: WaveDeleteDialog;
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
  /** Set until the first list is shown: then the page scrolls to its first problem, if any. */
  private problemToShow = true;
  private observedHead: HTMLElement | null = null;
  private headObserver: ResizeObserver | null = null;

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
    this.headObserver?.disconnect();
    this.observedHead = null;
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
    this.followHead();
    if (this.list && this.problemToShow) {
      // The page opens where the problem is: the first one of the tab it opened on.
      this.problemToShow = false;
      const problem = this.renderRoot.querySelector<HTMLElement>("[role=tabpanel] [data-problem]");
      problem?.scrollIntoView({ block: "center" });
      problem?.focus({ preventScroll: true });
    }
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

  /** Group headers stick below the page's head, whatever its height (it wraps when narrow). */
  private followHead(): void {
    const head = this.renderRoot.querySelector<HTMLElement>(".sticky");
    if (!head || head === this.observedHead) return;
    this.observedHead = head;
    this.headObserver?.disconnect();
    this.headObserver = new ResizeObserver(() => this.style.setProperty("--head", `${head.offsetHeight}px`));
    this.headObserver.observe(head);
  }

  /** Fetches the list from the server; a later reload wins over an earlier slow one. */
  async reload(): Promise<void> {
    const seq = ++this.loadSeq;
    this.loading = true;
    try {
      const list = await this.actions.list();
      if (seq !== this.loadSeq) return;
      this.show(list);
      void this.loadLastRuns();
    } catch (err) {
      if (seq !== this.loadSeq) return;
      this.loadError = plainReason(err);
    } finally {
      if (seq === this.loadSeq) this.loading = false;
    }
  }

  /** Shows a list the server answered with (it wins over any list still being fetched). */
  private show(list: HooksListResult): void {
    ++this.loadSeq;
    this.loading = false;
    this.list = this.keepUnchanged(list);
    this.loadError = null;
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
      this.showLastRuns(runs);
    } catch {
      /* the rows just show no last run */
    }
  }

  /** The last run of each hook, newest first (wave/hooks/history without an id, or a delete's). */
  private showLastRuns(runs: HookRunEntry[]): void {
    this.lastRuns = new Map(runs.map((r) => [r.hookId, r]));
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

  private async onNew(source: "user" | "project", starter: Starter | null = null): Promise<void> {
    this.busy = true;
    try {
      await this.actions.newHook(source, starter);
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
    void this.deleteDialog.open(hook);
  }

  private async confirmDelete(hook: HookEntry): Promise<void> {
    this.busy = true;
    const name = hookName(hook);
    const file = this.shortPath(hook.path);
    try {
      // One round trip: the answer carries the list as it is now and the last runs under the
      // ids the delete moved (the server sends no wave/hooks/changed for its own write).
      const { listing, lastRuns } = await this.actions.deleteHook(hook);
      this.show(listing);
      this.showLastRuns(lastRuns);
      this.say({ kind: "status", title: t("delete.doneIn", { name, file }) });
    } catch (err) {
      // The list shown is the server's, never an optimistic guess.
      await this.reload();
      this.sayError(t("delete.failedIn", { name, file, reason: plainReason(err) }), err);
    } finally {
      this.busy = false;
    }
  }

  /** What the rows and cards read and call; one object, its getters read the page as it is. */
  private readonly parts: RowContext & ProblemsContext = (() => {
    const page = this;
    return {
      name: (hook: HookEntry) => page.view.names.get(hook.id) ?? hookName(hook),
      lastRun: (hook: HookEntry) => page.lastRuns.get(hook.id),
      shortPath: (path: string) => page.shortPath(path),
      get disabledBy() {
        return page.list?.hooksDisabledBy ?? null;
      },
      get connected() {
        return page.connected;
      },
      get busy() {
        return page.busy;
      },
      inspect: (hook: HookEntry, tab: InspectorTab) => page.inspect(hook, tab),
      edit: (hook: HookEntry) => void page.onEdit(hook),
      askDelete: (hook: HookEntry) => page.askDelete(hook),
      openFile: (path: string, line: number | null) => void page.openFile(path, line),
      copyPath: (path: string) => void page.copyPath(path),
      askWave: (path: string, problem: string) => page.askWave(path, problem),
    };
  })();

  override render() {
    const list = this.list;
    return html`
      ${list ? this.renderList(list) : renderHeader(null, this.loading)}
      ${this.loadError
        ? html`<div class="alert" role="alert" data-testid="load-error">
            ${t("settings.loadFailed", { reason: this.loadError })}
            <vscode-button secondary ?disabled=${!this.connected} @click=${() => void this.reload()}>${t("settings.retry")}</vscode-button>
          </div>`
        : nothing}
      ${!list && !this.loadError ? html`<p class="muted" aria-hidden="true">${t("settings.loading")}</p>` : nothing}
      <wave-delete-dialog ?connected=${this.connected} @confirm-delete=${(e: CustomEvent<HookEntry>) => void this.confirmDelete(e.detail)}></wave-delete-dialog>
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

  private renderList(list: HooksListResult) {
    const { views } = this.view;
    const source = this.currentTab(views);
    const view = views[source];
    const orphans = orphanProblems(list);
    return html`
      <div class="sticky">
        ${renderHeader(list, this.loading)}
        ${renderTabs({ views, selected: source, trusted: list.trusted, select: (s, focus) => this.selectTab(s, focus) })}
        ${renderToolbar({
          view,
          filter: this.filter,
          busy: this.busy,
          connected: this.connected,
          setFilter: (filter) => (this.filter = filter),
          newHook: (s) => void this.onNew(s),
        })}
      </div>
      ${list.hooksDisabledBy ? renderDisabledBanner(list.hooksDisabledBy, this.parts) : nothing}
      ${orphans.length ? renderProblems(orphans, this.parts) : nothing}
      <section role="tabpanel" id="panel" aria-labelledby="tab-${source}" data-source=${source} data-testid="panel-${source}">
        ${source === "project" && !list.trusted ? html`<p class="warning" data-testid="untrusted">${t("tab.untrusted")}</p>` : nothing}
        ${view.brokenFiles.map((b) => renderBrokenFile(b, this.parts))}
        ${view.problems.length ? renderProblems(view.problems, this.parts) : nothing}
        ${this.renderRows(view)}
      </section>
      <wave-mcp-servers .rpc=${this.rpc} .language=${this.language} ?connected=${this.connected} .shortPath=${this.shortPath}></wave-mcp-servers>
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
      return view.brokenFiles.length ? nothing : renderEmpty(view.source, this.busy || !this.connected, (starter) => void this.onNew(view.source as "user" | "project", starter));
    }
    const shown = groups.reduce((n, g) => n + g.rows.length, 0);
    const filtered = this.filter.query || this.filter.event;
    let room = this.shownRows;
    const visible = groups.map((g) => {
      // A folded group draws no rows (and takes no room of the first screen).
      const rows = this.isOpen(view.source, g.event) ? g.rows.slice(0, Math.max(0, room)) : [];
      room -= rows.length;
      return { group: g, rows };
    });
    // Another filter or tab gets fresh rows: dropping the old ones whole is far quicker than
    // taking hundreds of rows out one by one.
    const generation = `${view.source}\u0000${this.filter.event}\u0000${this.filter.query}`;
    return html`
      ${filtered ? html`<p class="muted" role="status" data-testid="filter-count">${shown ? t("filter.count", { shown, total }) : t("filter.none")}</p>` : nothing}
      ${keyed(
        generation,
        html`<div class="rows">
          ${repeat(
            visible.filter((g) => g.rows.length || !this.isOpen(view.source, g.group.event)),
            (g) => g.group.event,
            (g) => this.renderGroup(view.source, g.group, g.rows),
          )}
        </div>`,
      )}
    `;
  }

  private groupKey(source: Source, event: string): string {
    return `${source}\u0000${event}`;
  }

  private isOpen(source: Source, event: string): boolean {
    return !this.folded.has(this.groupKey(source, event));
  }

  private toggleGroup(source: Source, event: string): void {
    const key = this.groupKey(source, event);
    const folded = new Set(this.folded);
    if (!folded.delete(key)) folded.add(key);
    this.folded = folded;
  }

  private renderGroup(source: Source, group: EventGroup, rows: Row[]) {
    const open = this.isOpen(source, group.event);
    const overlap = this.list ? overlapOf(this.list, group) : null;
    return html`<section class="group">
      ${renderGroupHead(group, open, () => this.toggleGroup(source, group.event), overlap)}
      <ul class="hooks" role="list" id="rows-${group.event.replace(/[^\w-]/g, "_")}" aria-label=${group.event} ?hidden=${!open}>
        ${repeat(
          rows,
          (row) => (row.kind === "hook" ? row.hook.id : `${row.diagnostic.path}#${row.diagnostic.pointer}`),
          (row) => (row.kind === "hook" ? this.cachedHook(row.hook) : renderBrokenRow(row.diagnostic, this.parts)),
        )}
      </ul>
    </section>`;
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
      run?.timedOut,
    ].join("\u0000");
    const cached = this.rowCache.get(hook.id);
    if (cached?.hook === hook && cached.key === key) return cached.result;
    const result = renderHookRow(hook, this.parts);
    this.rowCache.set(hook.id, { hook, key, result });
    return result;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-hooks-page": WaveHooksPage;
  }
}
