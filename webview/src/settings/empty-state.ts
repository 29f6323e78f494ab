/**
 * A source without hooks teaches instead of showing a blank: what a hook is, in one sentence,
 * and starter hooks (block rm -rf, format after Edit, log prompts) that New prefills in the chat
 * with every blank filled in. Templates.
 */

import { css, html, nothing } from "lit";

import { type Key, t } from "../i18n";
import type { HooksPrefillParams } from "../protocol/generated";
import type { Source } from "./model";

export type Starter = NonNullable<HooksPrefillParams["starter"]>;

/** Each starter's name and what it does (the compiler holds this to the server's list). */
const STARTERS: Record<Starter, [Key, Key]> = {
  blockRmRf: ["starter.blockRmRf", "starter.blockRmRfWhat"],
  formatAfterEdit: ["starter.formatAfterEdit", "starter.formatAfterEditWhat"],
  logPrompts: ["starter.logPrompts", "starter.logPromptsWhat"],
};

export const emptyStyles = css`
  .empty {
    padding: 16px 8px;
    max-width: 640px;
  }
  .empty p {
    margin: 0 0 8px;
  }
  ul.starters {
    list-style: none;
    padding: 0;
    margin: 8px 0 0;
    display: flex;
    flex-direction: column;
    gap: 6px;
  }
  ul.starters li {
    display: flex;
    gap: 4px 10px;
    align-items: baseline;
    flex-wrap: wrap;
  }
`;

export function renderEmpty(source: Source, idle: boolean, start: (starter: Starter) => void) {
  return html`<div class="empty" data-testid="empty-${source}">
    <p>${t("empty.what")}</p>
    <p class="muted">${t(`empty.${source}`)}</p>
    ${source === "plugin"
      ? nothing
      : html`<p>${t("empty.starters")}</p>
          <ul class="starters">
            ${(Object.keys(STARTERS) as Starter[]).map(
              (starter) => html`<li>
                <button class="btn" data-action="starter" data-starter=${starter} ?disabled=${idle} @click=${() => start(starter)}>
                  ${t(STARTERS[starter][0])}
                </button>
                <span class="muted">${t(STARTERS[starter][1])}</span>
              </li>`,
            )}
          </ul>`}
  </div>`;
}
