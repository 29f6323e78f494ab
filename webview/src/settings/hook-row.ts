/**
 * One row of the hooks list: a hook (its chips, command, last run, file, actions), or an entry
 * that was skipped, shown where it is with why. Templates, not elements: a list has thousands of
 * rows, and a shadow root per row made the first render several times slower.
 */

import { type TemplateResult, css, html, nothing, unsafeCSS } from "lit";

import { type Key, t } from "../i18n";
import type { DiagnosticEntry, HookRunEntry } from "../protocol/generated";
import { type InspectorTab, when } from "./inspector";
import { type HookRow, canChange, dialectTitle, diagnosticLine, diagnosticText, hookName, kindKey } from "./model";

/** What a row needs from the page: its state, and what its buttons do. */
export interface RowContext {
  name(hook: HookRow): string;
  lastRun(hook: HookRow): HookRunEntry | undefined;
  shortPath(path: string): string;
  /** The file whose disableAllHooks: true is in force, if any. */
  disabledBy: string | null;
  connected: boolean;
  busy: boolean;
  inspect(hook: HookRow, tab: InspectorTab): void;
  edit(hook: HookRow): void;
  askDelete(hook: HookRow): void;
  openFile(path: string, line: number | null): void;
  copyPath(path: string): void;
}

/** Where a row stands in its group's list: a long list has only the rows near the view in the
 * DOM, and these say the rest is there ("3 of 76"). */
export interface RowPlace {
  index: number;
  size: number;
}

/** The space below each row (px): what the page adds to a row's measured height. */
export const ROW_GAP = 8;

export const rowStyles = css`
  ul.hooks {
    list-style: none;
    padding: 0;
    margin: 0;
  }
  li.hook {
    border: 1px solid var(--vscode-widget-border);
    border-radius: 4px;
    padding: 8px 12px;
    margin-bottom: ${unsafeCSS(ROW_GAP)}px;
    background: var(--vscode-editorWidget-background);
  }
  li.hook[data-revealed] {
    outline: 2px solid var(--vscode-focusBorder);
  }
  /* Switched off: dimmed by a dashed, backgroundless frame and muted text (not opacity, which
     would take the text below readable contrast). */
  li.hook.off {
    background: transparent;
    border-style: dashed;
    color: var(--vscode-descriptionForeground);
  }
  li.hook.off .command {
    background: transparent;
    border: 1px dashed var(--vscode-widget-border);
  }
  li.hook.broken {
    border-style: dashed;
    border-color: var(--vscode-inputValidation-errorBorder);
  }
  .hook-head {
    display: flex;
    align-items: center;
    gap: 6px 8px;
    flex-wrap: wrap;
  }
  .actions {
    margin-left: auto;
    display: flex;
    gap: 4px;
    flex-wrap: wrap;
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
`;

function renderFile(path: string, ctx: RowContext) {
  const short = ctx.shortPath(path);
  return html`<span class="file"
    >${t("row.file")}: <span class="path" title=${path} data-testid="row-path">${short}</span>
    <button class="link" aria-label=${t("row.copyPathLabel", { path: short })} @click=${() => ctx.copyPath(path)}>${t("row.copyPath")}</button></span
  >`;
}

function renderLastRun(hook: HookRow, name: string, ctx: RowContext) {
  const run = ctx.lastRun(hook);
  if (!run) return html`<span data-testid="last-run">${t("row.neverRun")}</span>`;
  const key: Key = run.cancelled ? "row.lastRunCancelled" : run.timedOut ? "row.lastRunTimedOut" : run.blocked ? "row.lastRunBlocked" : "row.lastRun";
  const seconds = Math.round(run.durationMs / 1000); // it ran until its timeout
  const text = t(key, { when: when(run.at), code: run.exitCode ?? "—", ms: Math.round(run.durationMs), s: seconds });
  return html`<button class="link" data-testid="last-run" aria-label="${text} — ${t("row.historyLabel", { name })}" @click=${() => ctx.inspect(hook, "history")}>
    ${text}
  </button>`;
}

export function renderHookRow(hook: HookRow, ctx: RowContext, place: RowPlace): TemplateResult {
  const name = ctx.name(hook);
  const changeable = canChange(hook);
  const off = Boolean(ctx.disabledBy) || Boolean(hook.untrusted) || hook.disabled;
  const { dialect, type: kind } = hook;
  const idle = !ctx.connected;
  return html`
    <li
      class="hook ${off ? "off" : ""}"
      tabindex="-1"
      data-hook-id=${hook.id}
      data-event=${hook.event}
      data-dialect=${dialect}
      aria-label=${name}
      aria-posinset=${place.index + 1}
      aria-setsize=${place.size}
    >
      <div class="hook-head">
        <span class="chip dialect" data-testid="dialect">${t("row.dialect", { name: dialectTitle(dialect) })}</span>
        ${hook.event !== hook.catalogueEvent ? html`<span class="chip" title=${t("row.fileEvent")} data-testid="file-event">${hook.event}</span>` : nothing}
        ${kind !== "command" ? html`<span class="chip" data-testid="kind">${t(kindKey({ type: kind, dialect }))}</span>` : nothing}
        ${hook.disabled ? html`<span class="chip warn">${t("row.switchedOff")}</span>` : nothing}
        <span class="chip" title=${t("row.matcher")}>${t("row.matcher")}: ${hook.matcher || t("row.matcherAll")}</span>
        ${hook.if ? html`<span class="chip" data-testid="if-rule" title=${t("row.ifTitle")}>${t("row.if")}: ${hook.if}</span>` : nothing}
        ${hook.plugin ? html`<span class="chip">${t("row.plugin", { name: hook.plugin })}</span>` : nothing}
        ${hook.untrusted ? html`<span class="chip warn">${t("row.untrusted")}</span>` : nothing}
        ${ctx.disabledBy ? html`<span class="chip warn" data-testid="row-disabled">${t("row.disabled")}</span>` : nothing}
        ${hook.readOnly && hook.source !== "plugin" ? html`<span class="chip">${t("row.readOnly")}</span>` : nothing}
        <span class="actions">
          <button class="btn" data-action="test" aria-label=${t("row.testLabel", { name })} ?disabled=${idle} @click=${() => ctx.inspect(hook, "test")}
            >${t("row.test")}</button
          >
          <button class="btn" data-action="why" aria-label=${t("row.whyLabel", { name })} ?disabled=${idle} @click=${() => ctx.inspect(hook, "why")}
            >${t("row.why")}</button
          >
          ${changeable
            ? html`<button
                  class="btn"
                  data-action="edit"
                  aria-label=${t("row.editLabel", { name })}
                  ?disabled=${ctx.busy || idle}
                  @click=${() => ctx.edit(hook)}
                  >${t("row.edit")}</button
                >
                <button
                  class="btn"
                  data-action="delete"
                  aria-label=${t("row.deleteLabel", { name })}
                  ?disabled=${ctx.busy || idle}
                  @click=${() => ctx.askDelete(hook)}
                  >${t("row.delete")}</button
                >`
            : nothing}
        </span>
      </div>
      ${hook.description ? html`<div class="description">${hook.description}</div>` : nothing}
      <code class="command">${hook.command}</code>
      <div class="meta muted">
        ${renderLastRun(hook, name, ctx)}
        ${hook.timeout != null ? html`<span>${t("row.timeout", { seconds: hook.timeout })}</span>` : nothing}
        ${hook.asyncRewake ? html`<span>${t("row.asyncRewake")}</span>` : hook.async ? html`<span>${t("row.async")}</span>` : nothing}
        ${renderFile(hook.path, ctx)}
      </div>
    </li>
  `;
}

/** An entry that was skipped: where it is, why, and the way to its file. */
export function renderBrokenRow(d: DiagnosticEntry, ctx: RowContext, place: RowPlace): TemplateResult {
  const entry = d.entry!;
  const name = hookName({ event: entry.event, matcher: entry.matcher });
  return html`<li
    class="hook broken"
    tabindex="-1"
    data-problem
    data-broken=${d.pointer ?? ""}
    aria-label=${t("row.brokenLabel", { name: `${name} · ${d.pointer ?? ""}` })}
    aria-posinset=${place.index + 1}
    aria-setsize=${place.size}
  >
    <div class="hook-head">
      ${entry.matcher !== null ? html`<span class="chip">${t("row.matcher")}: ${entry.matcher}</span>` : nothing}
      <span class="chip warn">${t("row.broken")}</span>
      <span class="actions">
        <vscode-button secondary data-action="open-file" ?disabled=${!ctx.connected} @click=${() => ctx.openFile(d.path, diagnosticLine(d))}
          >${t("settings.openFile")}</vscode-button
        >
      </span>
    </div>
    <div class="alert" data-testid="broken-problem">${diagnosticText(d)} <span class="muted">(${d.pointer})</span></div>
    ${entry.command ? html`<code class="command">${entry.command}</code>` : nothing}
    <div class="meta muted">${renderFile(d.path, ctx)}</div>
  </li>`;
}
