import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-progress-ring/index.js";
import "../toast";
import "./delete-dialog";
import "./inspector";
import "./mcp-servers";

import { LitElement, type PropertyValues, type TemplateResult, css, html, noChange, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";
import { repeat } from "lit/directives/repeat.js";
import { Directive, type ElementPart, directive } from "lit/directive.js";

import { type Lang, lang, t } from "../i18n";
import { displayPath } from "../paths";
import { type HookRunEntry, METHODS } from "../protocol/generated";
import { recall, remember } from "../storage";
import { base, controls } from "../styles";
import type { ToastMessage, WaveToast } from "../toast";
import type { RpcClient } from "../transport/rpc";
import { HooksActions } from "./actions";
import type { WaveDeleteDialog } from "./delete-dialog";
import { type ProblemsContext, problemStyles, renderBrokenFile, renderDisabledBanner, renderProblems } from "./file-problems";
import { type Starter, emptyStyles, renderEmpty } from "./empty-state";
import { groupStyles, renderGroupHead } from "./hook-group";
import { ROW_GAP, type RowContext, type RowPlace, renderBrokenRow, renderHookRow, rowStyles } from "./hook-row";
import type { InspectorTab, WaveHookInspector } from "./inspector";
import {
  type EventGroup,
  type Filter,
  type HookRow,
  type HooksList,
  type Row,
  type Source,
  type SourceView,
  bySource,
  groupRows,
  indexRows,
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

/**
 * A long list keeps only the rows near the view in the DOM (a window per group; the rows above
 * and below it are the group's padding, from their measured heights or the average of those
 * measured). Making, laying out and removing thousands of rows is what made a 3,000-hook page
 * take seconds to show and a filter hundreds of milliseconds; now both cost what one screen
 * costs. The DOM holds every row of a list that is not long.
 */
/** Lists of up to this many rows (in the tab, after the filter) are in the DOM whole. */
const WHOLE_LIST = 100;
/** Rows kept beyond the visible part of the list, above and below it (px). */
const OVERSCAN = 800;
/** Before anything is measured: rows are thought this tall (px, with the gap below). */
const GUESS = 96 + ROW_GAP;

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
  @state() private list: HooksList | null = null;
  @state() private loadError: string | null = null;
  @state() private loading = false;
  @state() private selected: Source | null = null;
  @state() private filter: Filter = { query: "", event: "" };
  @state() private busy = false;
  @state() private lastRuns = new Map<string, HookRunEntry>();
  /** Each open group's rows in the DOM, by group key: [first, end). Unset: from the top. */
  @state() private windows = new Map<string, readonly [number, number]>();
  /** The groups folded away, by source and event (for this page's life). */
  @state() private folded = new Set<string>();
  @query("wave-delete-dialog") private deleteDialog!: WaveDeleteDialog;
  @query("wave-toast") private toast!: WaveToast;
  @query("wave-hook-inspector") private inspector!: WaveHookInspector;

  private actions!: HooksActions;
  private unsubscribe: (() => void) | null = null;
  private loadSeq = 0;
  private derived: { list: HooksList; views: Record<Source, SourceView>; names: Map<string, string> } | null = null;
  private grouped: { view: SourceView; filter: Filter; groups: EventGroup[] } | null = null;
  /** Each row's template and what it was made from: an unchanged row is not re-evaluated. */
  private rowCache = new Map<string, { hook: HookRow; key: string; result: TemplateResult }>();
  /** Measured row heights (px, with the gap below), by row key; their sum and count. */
  private heights = new Map<string, number>();
  private measured = { sum: 0, count: 0 };
  private placeFrame = 0;
  private scroller: HTMLElement | null = null;
  private width = 0;
  private sizeObserver: ResizeObserver | null = null;
  private readonly onScroll = (): void => {
    if (!this.placeFrame) this.placeFrame = requestAnimationFrame(() => ((this.placeFrame = 0), this.place()));
  };
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
    cancelAnimationFrame(this.placeFrame);
    this.placeFrame = 0;
    this.scroller?.removeEventListener("scroll", this.onScroll);
    window.removeEventListener("scroll", this.onScroll);
    window.removeEventListener("resize", this.onScroll);
    this.scroller = null;
    this.sizeObserver?.disconnect();
    this.sizeObserver = null;
    this.headObserver?.disconnect();
    this.observedHead = null;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another tab or filter: its rows start from the top (until the view is measured).
    if (["filter", "selected"].some((k) => changed.has(k as keyof WaveHooksPage))) this.windows = new Map();
    const hook = this.reveal && this.list ? this.list.hooks.find((h) => h.id === this.reveal) : undefined;
    if (hook) {
      this.selected = hook.source;
      this.filter = { query: "", event: "" };
      this.pin(hook.source, (row) => row.kind === "hook" && row.hook.id === hook.id); // its row is in the DOM now, wherever it is
      this.revealing = hook.id;
      this.reveal = null;
    }
    if (this.list && this.problemToShow) {
      // The page opens where the problem is: a skipped entry's row is in the DOM to be shown.
      const view = this.view.views[this.currentTab(this.view.views)];
      if (!view.brokenFiles.length && !view.problems.length) this.pin(view.source, (row) => row.kind === "broken");
    }
  }

  protected override firstUpdated(): void {
    this.scroller = scrollParent(this);
    this.scroller?.addEventListener("scroll", this.onScroll, { passive: true });
    window.addEventListener("scroll", this.onScroll, { passive: true });
    window.addEventListener("resize", this.onScroll, { passive: true });
    // Another width wraps rows otherwise: what was measured is measured again.
    this.sizeObserver = new ResizeObserver(() => {
      if (this.offsetWidth === this.width) return;
      this.width = this.offsetWidth;
      this.heights.clear();
      this.measured = { sum: 0, count: 0 };
      this.onScroll();
    });
    this.sizeObserver.observe(this);
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
    // The rows just drawn are measured and the windows follow the view before anything is
    // painted (a few rounds at most: the next ones wait for a frame).
    if (!this.placeRounds++) requestAnimationFrame(() => (this.placeRounds = 0));
    if (this.placeRounds > 4) this.onScroll();
    else this.place();
  }

  /** Windows set since the last frame (they settle in two or three). */
  private placeRounds = 0;

  /** The open groups of the tab shown, each with its rows' keys and tops (px from its list's
   * top; one more: the list's height). */
  private layout(): { key: string; group: EventGroup; tops: Float64Array }[] {
    if (!this.list) return [];
    const source = this.currentTab(this.view.views);
    const guess = this.measured.count ? this.measured.sum / this.measured.count : GUESS;
    return this.groups(this.view.views[source])
      .filter((group) => this.isOpen(source, group.event))
      .map((group) => {
        const tops = new Float64Array(group.rows.length + 1);
        group.rows.forEach((row, i) => (tops[i + 1] = tops[i]! + (this.heights.get(rowKey(row)) ?? guess)));
        return { key: this.groupKey(source, group.event), group, tops };
      });
  }

  /** Measures the rows in the DOM, then sets each open group's window to the rows near the view. */
  private place(): void {
    if (!this.list) return;
    for (const ul of this.renderRoot.querySelectorAll<HTMLElement>("ul.hooks[data-group]")) {
      const rows = this.drawn.get(ul.dataset.group!) ?? [];
      const items = ul.children;
      if (items.length !== rows.length) continue;
      rows.forEach((row, i) => {
        const height = (items[i] as HTMLElement).getBoundingClientRect().height + ROW_GAP;
        const key = rowKey(row);
        const before = this.heights.get(key);
        if (before === undefined) this.measured.count++;
        this.measured.sum += height - (before ?? 0);
        this.heights.set(key, height);
      });
    }
    const layout = this.layout();
    const total = layout.reduce((n, g) => n + g.group.rows.length, 0);
    const windows = new Map<string, readonly [number, number]>();
    if (total <= WHOLE_LIST) {
      for (const { key, group } of layout) windows.set(key, [0, group.rows.length]);
    } else {
      const frame = this.scroller?.getBoundingClientRect();
      const top = Math.max(frame?.top ?? 0, 0) - OVERSCAN;
      const bottom = Math.min(frame?.bottom ?? innerHeight, innerHeight) + OVERSCAN;
      const lists = new Map([...this.renderRoot.querySelectorAll<HTMLElement>("ul.hooks[data-group]")].map((ul) => [ul.dataset.group!, ul]));
      for (const { key, tops } of layout) {
        const ul = lists.get(key);
        if (!ul) continue;
        const at = ul.getBoundingClientRect().top;
        const n = tops.length - 1;
        let first = 0;
        while (first < n && at + tops[first + 1]! <= top) first++;
        let end = first;
        while (end < n && at + tops[end]! < bottom) end++;
        windows.set(key, [first, end]);
      }
    }
    const same = windows.size === this.windows.size && [...windows].every(([k, [a, b]]) => this.windows.get(k)?.[0] === a && this.windows.get(k)?.[1] === b);
    if (!same) this.windows = windows;
  }

  /** The row `which` picks, of `source` as no filter has it, is in the DOM at the next render. */
  private pin(source: Source, which: (row: Row) => boolean): void {
    for (const group of groupRows(this.view.views[source], { query: "", event: "" })) {
      const i = group.rows.findIndex(which);
      if (i < 0) continue;
      this.windows = new Map([[this.groupKey(source, group.event), [Math.max(0, i - 2), i + 8] as const]]);
      this.folded = new Set([...this.folded].filter((k) => k !== this.groupKey(source, group.event)));
      return;
    }
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
  private show(list: HooksList): void {
    ++this.loadSeq;
    this.loading = false;
    this.list = this.keepUnchanged(list);
    this.loadError = null;
    // The shown tab's search texts are made while nothing else runs: the first word typed in the
    // filter then only scans them.
    const shown = this.list;
    requestIdleCallback(
      () => {
        if (this.list === shown) indexRows(this.view.views[this.currentTab(this.view.views)]).text();
      },
      { timeout: 2000 },
    );
  }

  /** The new list, with the previous entry objects where nothing about them changed (their rows
   * then render from cache). */
  private keepUnchanged(list: HooksList): HooksList {
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

  private async onEdit(hook: HookRow): Promise<void> {
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

  private inspect(hook: HookRow, tab: InspectorTab): void {
    void this.inspector.open(hook, this.view.names.get(hook.id) ?? hookName(hook), tab);
  }

  private askDelete(hook: HookRow): void {
    void this.deleteDialog.open(hook);
  }

  private async confirmDelete(hook: HookRow): Promise<void> {
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
      name: (hook: HookRow) => page.view.names.get(hook.id) ?? hookName(hook),
      lastRun: (hook: HookRow) => page.lastRuns.get(hook.id),
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
      inspect: (hook: HookRow, tab: InspectorTab) => page.inspect(hook, tab),
      edit: (hook: HookRow) => void page.onEdit(hook),
      askDelete: (hook: HookRow) => page.askDelete(hook),
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
      <wave-delete-dialog ?connected=${this.connected} @confirm-delete=${(e: CustomEvent<HookRow>) => void this.confirmDelete(e.detail)}></wave-delete-dialog>
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

  private renderList(list: HooksList) {
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
    const tops = new Map(this.layout().map((g) => [g.key, g.tops]));
    // Groups not placed yet (a first screen): rows from the top, as many as a tall view shows.
    let room = shown <= WHOLE_LIST ? Number.MAX_SAFE_INTEGER : innerHeight + OVERSCAN;
    this.drawn = new Map();
    return html`
      ${filtered ? html`<p class="muted" role="status" data-testid="filter-count">${shown ? t("filter.count", { shown, total }) : t("filter.none")}</p>` : nothing}
      <div class="rows">
        ${repeat(
          groups,
          (g) => g.event,
          (g) => {
            const key = this.groupKey(view.source, g.event);
            const at = tops.get(key);
            if (!at) return this.renderGroup(view.source, g, [0, 0], at); // folded
            let window = this.windows.get(key);
            if (!window) {
              let end = 0;
              while (end < g.rows.length && at[end]! < room) end++;
              room -= at[end]!;
              window = [0, end];
            }
            return this.renderGroup(view.source, g, window, at);
          },
        )}
      </div>
    `;
  }

  private groupKey(source: Source, event: string): string {
    return `${source}/${event}`; // (a source has no "/")
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

  /** The rows of each group in the DOM, as last rendered (what `place` measures). */
  private drawn = new Map<string, Row[]>();

  private renderGroup(source: Source, group: EventGroup, window: readonly [number, number], tops: Float64Array | undefined) {
    const open = this.isOpen(source, group.event);
    const overlap = this.list ? overlapOf(this.list, group) : null;
    const key = this.groupKey(source, group.event);
    const n = group.rows.length;
    const first = Math.min(window[0], n);
    const end = Math.min(Math.max(window[1], first), n);
    const rows = open ? group.rows.slice(first, end) : [];
    this.drawn.set(key, rows);
    // The rows not in the DOM keep their place: the list's padding is their height.
    const above = open && tops ? tops[first]! : 0;
    const below = open && tops ? tops[n]! - tops[end]! : 0;
    return html`<section class="group">
      ${renderGroupHead(group, open, () => this.toggleGroup(source, group.event), overlap)}
      <ul
        class="hooks"
        role="list"
        id="rows-${group.event.replace(/[^\w-]/g, "_")}"
        data-group=${key}
        aria-label=${group.event}
        ${padding(above, below)}
        ?hidden=${!open}
      >
        ${repeat(rows, rowKey, (row, i) => {
          const place = { index: first + i, size: n };
          return row.kind === "hook" ? this.cachedHook(row.hook, place) : renderBrokenRow(row.diagnostic, this.parts, place);
        })}
      </ul>
    </section>`;
  }

  /** A hook's row, re-made only when the entry or something the row shows has changed. */
  private cachedHook(hook: HookRow, place: RowPlace): TemplateResult {
    const run = this.lastRuns.get(hook.id);
    const key = [
      place.index,
      place.size,
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
    const result = renderHookRow(hook, this.parts, place);
    this.rowCache.set(hook.id, { hook, key, result });
    return result;
  }
}

/** An element's padding above and below (px), set through the CSSOM: the shells' CSP refuses
 * style attributes (and lit's styleMap writes one on its first render). */
const padding = directive(
  class extends Directive {
    render(_above: number, _below: number) {
      return noChange;
    }

    override update(part: ElementPart, [above, below]: [number, number]) {
      const style = (part.element as HTMLElement).style;
      style.paddingTop = `${above}px`;
      style.paddingBottom = `${below}px`;
      return noChange;
    }
  },
);

/** A row's key: its hook's id, a skipped entry's place. */
function rowKey(row: Row): string {
  return row.kind === "hook" ? row.hook.id : `${row.diagnostic.path}#${row.diagnostic.pointer}`;
}

/** The element that scrolls the page (the shell's view), across shadow roots; null: the window. */
function scrollParent(from: Element): HTMLElement | null {
  let node: Node | null = from;
  while (node) {
    node = node instanceof ShadowRoot ? node.host : node.parentNode;
    if (node instanceof HTMLElement && /auto|scroll/.test(getComputedStyle(node).overflowY)) return node;
  }
  return null;
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-hooks-page": WaveHooksPage;
  }
}
