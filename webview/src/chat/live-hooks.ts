/**
 * The hooks running now, live: each hook process that has run a while, with its event and
 * command, how long it has run, its last stderr lines as they come, and Cancel. What the server
 * sends is already bounded (the last lines of each, at most a few updates a second: the server's
 * `hooks.live`); the elapsed time counts on here between updates. Cancel fires `cancel-hook`
 * with the hook's run id; the panel asks the server (wave/chat/cancelHook).
 */

import "@vscode-elements/elements/dist/vscode-button/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";

import { type Lang, lang, t } from "../i18n";
import type { LiveHook, LiveHooks } from "../protocol/generated";
import { base } from "../styles";
import { hookRefStyles } from "./blocks";
import { hookOrigin, shortCommand } from "./view";

@customElement("wave-live-hooks")
export class WaveLiveHooks extends LitElement {
  static override styles = [
    base,
    hookRefStyles,
    css`
      :host {
        display: block;
      }
      .live-hook {
        margin: 4px 16px;
        padding: 6px 8px;
        border: 1px solid var(--vscode-widget-border);
        border-left: 3px solid var(--vscode-progressBar-background);
        border-radius: 3px;
      }
      .head {
        display: flex;
        flex-wrap: wrap;
        gap: 4px 8px;
        align-items: center;
      }
      .head .hook-line {
        flex: 1 1 14em;
        min-width: 0;
      }
      .elapsed {
        font-variant-numeric: tabular-nums;
      }
      pre {
        margin: 4px 0 0;
        max-height: 12em;
        overflow: auto;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        font-family: var(--vscode-editor-font-family);
        font-size: 0.92em;
        background: var(--vscode-textCodeBlock-background);
        padding: 4px 6px;
      }
      .more {
        margin: 4px 0 0;
      }
    `,
  ];

  @property({ attribute: false }) live: LiveHooks = { hooks: [], more: 0 };
  /** The language rendered in (set by the panel, so that a new locale re-renders it). */
  @property({ attribute: false }) language: Lang = lang();
  /** When `live` was reported (performance.now()). */
  @property({ attribute: false }) at = 0;
  @state() private now = performance.now();
  private timer: ReturnType<typeof setInterval> | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.timer = setInterval(() => {
      if (this.live.hooks.length) this.now = performance.now(); // the elapsed times count on
    }, 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** The newest line in view: each hook's output scrolled to its end. */
  protected override updated(): void {
    for (const pre of this.renderRoot.querySelectorAll("pre")) pre.scrollTop = pre.scrollHeight;
  }

  private cancel(hook: LiveHook): void {
    this.dispatchEvent(new CustomEvent("cancel-hook", { detail: { id: hook.id }, bubbles: true, composed: true }));
  }

  private show(hook: LiveHook): void {
    this.dispatchEvent(new CustomEvent("show-hook", { detail: { hookId: hook.hook.id }, bubbles: true, composed: true }));
  }

  override render() {
    const { hooks, more } = this.live;
    if (!hooks.length && !more) return nothing;
    const since = Math.max(this.now, this.at) - this.at;
    return html`${hooks.map((hook) => this.renderHook(hook, since))}
    ${more ? html`<p class="muted more live-hook" data-testid="live-more-hooks">${t("live.moreHooks", { n: more })}</p>` : nothing}`;
  }

  private renderHook(hook: LiveHook, since: number) {
    const ref = hook.hook;
    const event = ref.matcher ? `${ref.event}:${ref.matcher}` : ref.event;
    const command = shortCommand(ref.command);
    const origin = hookOrigin(ref);
    const shownOrigin = origin === "user" || origin === "project" ? t(`origin.${origin}`) : origin;
    const seconds = Math.floor((hook.elapsedMs + since) / 1000);
    return html`<div class="live-hook" data-testid="live-hook" data-hook-run-id=${hook.id} data-hook-id=${ref.id}>
      <div class="head">
        <div class="hook-line">
          <strong>${t("live.running", { event })}</strong><span>· ${shownOrigin} ·</span><code>${command}</code>
          <span class="muted elapsed" data-testid="live-elapsed">${t("live.elapsed", { s: seconds })}</span>
          <button
            type="button"
            class="link"
            data-action="show-hook"
            aria-label=${t("hook.showLabel", { event, command })}
            @click=${() => this.show(hook)}
          >
            ${t("hook.show")}
          </button>
        </div>
        <vscode-button
          secondary
          data-action="cancel-hook"
          aria-label=${hook.cancelling ? t("live.cancelling") : t("live.cancelLabel", { event, command })}
          ?disabled=${hook.cancelling}
          @click=${() => this.cancel(hook)}
          >${hook.cancelling ? t("live.cancelling") : t("live.cancel")}</vscode-button
        >
      </div>
      ${hook.moreLines ? html`<p class="muted more" data-testid="live-more-lines">${t("live.moreLines", { n: hook.moreLines })}</p>` : nothing}
      ${hook.lines.length
        ? html`<pre tabindex="0" data-testid="live-lines" aria-label=${t("live.output", { command })}>${hook.lines.join("\n")}</pre>`
        : html`<p class="muted more">${t("live.noOutput")}</p>`}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-live-hooks": WaveLiveHooks;
  }
}
