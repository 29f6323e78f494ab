import "@vscode-elements/elements/dist/vscode-button/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query } from "lit/decorators.js";

import { t } from "./i18n";
import { base } from "./styles";

export interface ToastMessage {
  kind: "error" | "status";
  title: string;
  /** What to do about it. */
  todo?: string;
  /** The server's own words (they name the file). */
  details?: string;
}

/**
 * The result of an action, where the person is looking: fixed at the bottom of the viewport,
 * focused when it appears (so a screen reader reads it and Escape/Enter dismisses it). Errors stay
 * until dismissed; a success fades after a few seconds.
 */
@customElement("wave-toast")
export class WaveToast extends LitElement {
  static override styles = [
    base,
    css`
      :host {
        position: fixed;
        left: 12px;
        right: 12px;
        bottom: 12px;
        z-index: 10;
        display: flex;
        justify-content: center;
        pointer-events: none;
      }
      .toast {
        pointer-events: auto;
        max-width: 640px;
        width: 100%;
        box-shadow: 0 2px 8px rgba(0, 0, 0, 0.35);
        display: flex;
        gap: 8px;
        align-items: flex-start;
        margin: 0;
      }
      .body {
        flex: 1;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .todo {
        margin-top: 4px;
      }
      .details {
        margin-top: 4px;
        font-size: 0.92em;
      }
      .toast:focus-visible {
        outline: 2px solid var(--vscode-focusBorder);
      }
    `,
  ];

  @property({ attribute: false }) message: ToastMessage | null = null;
  @query(".toast") private box!: HTMLElement | null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  show(message: ToastMessage): void {
    this.message = message;
    if (this.timer) clearTimeout(this.timer);
    this.timer = message.kind === "status" ? setTimeout(() => this.dismiss(), 6000) : null;
    void this.updateComplete.then(() => this.box?.focus());
  }

  dismiss(): void {
    this.message = null;
    this.dispatchEvent(new CustomEvent("dismissed", { bubbles: true, composed: true }));
  }

  override render() {
    const m = this.message;
    if (!m) return nothing;
    return html`<div
      class="toast ${m.kind === "error" ? "alert" : "status"}"
      role=${m.kind === "error" ? "alert" : "status"}
      tabindex="-1"
      data-testid="toast"
      data-kind=${m.kind}
      @keydown=${(e: KeyboardEvent) => e.key === "Escape" && this.dismiss()}
    >
      <div class="body">
        <div data-testid="toast-title">${m.title}</div>
        ${m.todo ? html`<div class="todo" data-testid="toast-todo">${m.todo}</div>` : nothing}
        ${m.details ? html`<div class="details muted">${t("toast.details")} <span data-testid="toast-details">${m.details}</span></div>` : nothing}
      </div>
      <vscode-button secondary data-action="dismiss" @click=${() => this.dismiss()}>${t("toast.close")}</vscode-button>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-toast": WaveToast;
  }
}
