/**
 * One moment's group of rows: its header (the catalogue event, what it is, how many; a button
 * that folds the group away; it stays in view while its rows scroll under it) and, when a session
 * would run another dialect's hooks on the same call, a note saying so. Templates.
 */

import { type TemplateResult, css, html, nothing } from "lit";

import { lang, t } from "../i18n";
import type { OverlapEntry } from "../protocol/generated";
import { type EventGroup, dialectTitle, eventSummary } from "./model";

export const groupStyles = css`
  section.group {
    margin-top: 8px;
  }
  /* The header stays below the page's own sticky head (its height: --head) while its rows scroll. */
  h2.group {
    position: sticky;
    top: var(--head, 0px);
    z-index: 1;
    background: var(--vscode-editor-background);
    font-size: 1em;
    margin: 0 0 6px;
    padding: 4px 0;
    display: flex;
    gap: 8px;
    align-items: baseline;
    flex-wrap: wrap;
  }
  button.toggle {
    font: inherit;
    font-weight: 600;
    color: inherit;
    background: none;
    border: none;
    padding: 0;
    cursor: pointer;
    display: inline-flex;
    gap: 6px;
    align-items: baseline;
  }
  button.toggle::before {
    content: "▾";
    display: inline-block;
    width: 1em;
  }
  button.toggle[aria-expanded="false"]::before {
    content: "▸";
  }
  .both {
    margin: 0 0 6px;
  }
`;

/** "On a Bash call, Wave and Copilot CLI hooks both run." */
export function overlapText(overlap: OverlapEntry): string {
  const dialects = overlap.dialects.map((d) => dialectTitle(d)).join(t("group.and"));
  if (!overlap.subjects.length) return t("group.bothEvery", { event: overlap.event, dialects });
  return t("group.both", { subjects: overlap.subjects.join(t("group.or")), dialects });
}

export function renderGroupHead(
  group: EventGroup,
  open: boolean,
  toggle: () => void,
  overlap: OverlapEntry | null,
): TemplateResult {
  const summary = eventSummary(group.event, lang());
  const list = `rows-${group.event.replace(/[^\w-]/g, "_")}`;
  return html`<h2 class="group" data-testid="group" data-event=${group.event}>
      <button class="toggle" aria-expanded=${open ? "true" : "false"} aria-controls=${list} data-action="toggle-group" @click=${toggle}>
        ${t("group.label", { event: group.event, n: group.rows.length })}
      </button>
      ${summary ? html`<span class="muted">${summary}</span>` : nothing}
    </h2>
    ${overlap ? html`<p class="status both" role="note" data-testid="both-fire">${overlapText(overlap)}</p>` : nothing}`;
}
