/** What is wrong with a source's files, above its rows: a file that cannot be used, the problems
 * that are about no single entry, and the `disableAllHooks` banner. Templates. */

import { css, html } from "lit";

import { t } from "../i18n";
import type { DiagnosticEntry } from "../protocol/generated";
import { type BrokenFile, diagnosticLine, diagnosticText } from "./model";

export interface ProblemsContext {
  shortPath(path: string): string;
  connected: boolean;
  openFile(path: string, line: number | null): void;
  askWave(path: string, problem: string): void;
}

export const problemStyles = css`
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
`;

export function renderDisabledBanner(file: string, ctx: ProblemsContext) {
  return html`<div class="warning" role="note" data-testid="disabled-banner">
    ${t("settings.disabledBanner", { file: ctx.shortPath(file) })}
    <div class="card-actions">
      <vscode-button secondary ?disabled=${!ctx.connected} data-action="open-disabling-file" @click=${() => ctx.openFile(file, null)}
        >${t("settings.openFile")}</vscode-button
      >
    </div>
  </div>`;
}

export function renderBrokenFile(broken: BrokenFile, ctx: ProblemsContext) {
  const path = broken.file.path;
  const problem = broken.diagnostic ? diagnosticText(broken.diagnostic) : (broken.file.error ?? "");
  return html`<div class="alert" role="group" tabindex="-1" data-problem aria-label=${t("file.broken", { file: ctx.shortPath(path) })} data-testid="broken-file">
    <strong>${t("file.broken", { file: ctx.shortPath(path) })}</strong>
    <div data-testid="broken-file-problem">${problem}</div>
    <div class="card-actions">
      <vscode-button
        secondary
        data-action="open-broken-file"
        ?disabled=${!ctx.connected}
        @click=${() => ctx.openFile(path, diagnosticLine(broken.diagnostic))}
        >${t("settings.openFile")}</vscode-button
      >
      <vscode-button secondary data-action="ask-wave" ?disabled=${!ctx.connected} @click=${() => ctx.askWave(path, broken.diagnostic?.message ?? problem)}
        >${t("file.askWave")}</vscode-button
      >
    </div>
  </div>`;
}

export function renderProblems(problems: DiagnosticEntry[], ctx: ProblemsContext) {
  return html`
    <div class="warning problems" role="group" tabindex="-1" data-problem aria-label=${t("files.problems")} data-testid="problems">
      <strong>${t("files.problems")}</strong>
      <ul>
        ${problems.map(
          (p) => html`<li data-code=${p.code}>
            <span class="path" title=${p.path}>${p.pointer ? `${ctx.shortPath(p.path)}#${p.pointer}` : ctx.shortPath(p.path)}</span>:
            ${diagnosticText(p)}
            <button class="link" ?disabled=${!ctx.connected} @click=${() => ctx.openFile(p.path, diagnosticLine(p))}>${t("settings.openFile")}</button>
          </li>`,
        )}
      </ul>
    </div>
  `;
}
