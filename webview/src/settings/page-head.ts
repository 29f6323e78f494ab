/** The settings page's head, which stays in view: the title and project, the source tabs with
 * their badges, and the filter toolbar. Templates (the tabs and their panel must share one
 * shadow root for aria-controls / aria-labelledby to resolve). */

import { css, html, nothing } from "lit";

import { t } from "../i18n";
import { type Filter, type HooksList, SOURCES, type Source, type SourceView, eventsOf, tabBadge } from "./model";

export const headStyles = css`
  .sticky {
    position: sticky;
    top: 0;
    z-index: 2;
    background: var(--vscode-editor-background);
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
    border-bottom: 1px solid var(--vscode-widget-border);
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
    color: var(--vscode-panelTitle-inactiveForeground);
    font: inherit;
    padding: 6px 10px;
    cursor: pointer;
  }
  [role="tab"][aria-selected="true"] {
    color: var(--vscode-panelTitle-activeForeground);
    border-bottom-color: var(--vscode-panelTitle-activeBorder);
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
    color: var(--vscode-input-foreground);
    background: var(--vscode-input-background);
    border: 1px solid var(--vscode-input-border);
    border-radius: 2px;
    padding: 3px 6px;
  }
  .toolbar input {
    flex: 1 1 180px;
    min-width: 0;
  }
`;

export function renderHeader(list: HooksList | null, loading: boolean) {
  return html`<header>
    <h1>${t("settings.title")}</h1>
    ${list ? html`<span class="muted" title=${list.project.dir}>${t("settings.project", { name: list.project.name })}</span>` : nothing}
    ${loading ? html`<vscode-progress-ring aria-hidden="true"></vscode-progress-ring>` : nothing}
    <!-- The one place "Loading" is said: the ring and the first load's line are only seen. -->
    <span class="visually-hidden" role="status" data-testid="loading-status">${loading ? t("settings.loading") : ""}</span>
  </header>`;
}

export interface TabsContext {
  views: Record<Source, SourceView>;
  selected: Source;
  trusted: boolean;
  select(source: Source, focus: boolean): void;
}

export function renderTabs(ctx: TabsContext) {
  const onKey = (e: KeyboardEvent): void => {
    const current = SOURCES.indexOf(ctx.selected);
    const keys: Record<string, number> = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: SOURCES.length - 1 };
    if (!(e.key in keys)) return;
    e.preventDefault();
    ctx.select(SOURCES[(keys[e.key]! + SOURCES.length) % SOURCES.length]!, true);
  };
  return html`<div role="tablist" aria-label=${t("settings.title")} @keydown=${onKey}>
    ${SOURCES.map((s) => {
      const untrusted = s === "project" && !ctx.trusted;
      const badge = tabBadge(ctx.views[s], t(`tab.${s}`));
      return html`<button
        role="tab"
        id="tab-${s}"
        data-source=${s}
        aria-label=${untrusted ? `${badge.label}, ${t("tab.untrustedMark")}` : badge.label}
        aria-selected=${s === ctx.selected ? "true" : "false"}
        aria-controls="panel"
        tabindex=${s === ctx.selected ? "0" : "-1"}
        @click=${() => ctx.select(s, false)}
      >
        ${t(`tab.${s}`)}
        <span class="badge ${badge.problem ? "problem" : ""}" data-testid="count-${s}">${badge.text}</span>
        ${untrusted ? html`<span class="badge warn" data-testid="untrusted-mark">${t("tab.untrustedMark")}</span>` : nothing}
      </button>`;
    })}
  </div>`;
}

export interface ToolbarContext {
  view: SourceView;
  filter: Filter;
  busy: boolean;
  connected: boolean;
  setFilter(filter: Filter): void;
  newHook(source: "user" | "project"): void;
}

export function renderToolbar(ctx: ToolbarContext) {
  const { view, filter } = ctx;
  const events = eventsOf(view);
  return html`<div class="toolbar" role="search">
    <input
      type="search"
      aria-label=${t("filter.label")}
      placeholder=${t("filter.placeholder")}
      data-testid="filter"
      .value=${filter.query}
      @input=${(e: Event) => ctx.setFilter({ ...filter, query: (e.target as HTMLInputElement).value })}
    />
    <select
      aria-label=${t("filter.event")}
      data-testid="filter-event"
      .value=${filter.event}
      @change=${(e: Event) => ctx.setFilter({ ...filter, event: (e.target as HTMLSelectElement).value })}
    >
      <option value="">${t("filter.allEvents")}</option>
      ${events.map((ev) => html`<option value=${ev} ?selected=${ev === filter.event}>${ev}</option>`)}
    </select>
    ${view.editable
      ? html`<vscode-button
          ?disabled=${ctx.busy || !ctx.connected}
          data-action="new"
          @click=${() => ctx.newHook(view.source as "user" | "project")}
          >${t(view.source === "user" ? "new.user" : "new.project")}</vscode-button
        >`
      : nothing}
  </div>`;
}
