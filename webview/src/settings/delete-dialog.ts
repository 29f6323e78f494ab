import "@vscode-elements/elements/dist/vscode-button/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";

import { t } from "../i18n";
import { base, controls } from "../styles";
import { type HookRow, hookName } from "./model";

/**
 * The confirmation before a delete (the seed's 二次确认): which hook, its file, that the file is
 * changed directly. Cancel, Escape and closing change nothing; confirming fires `confirm-delete`
 * with the hook and closes.
 */
@customElement("wave-delete-dialog")
export class WaveDeleteDialog extends LitElement {
  static override styles = [
    base,
    controls,
    css`
      dialog {
        width: min(560px, calc(100vw - 24px));
        padding: 16px 20px;
      }
      h2 {
        margin: 0 0 8px;
        font-size: 1.15em;
      }
      .buttons {
        display: flex;
        justify-content: flex-end;
        gap: 8px;
        margin-top: 16px;
        flex-wrap: wrap;
      }
    `,
  ];

  @property({ type: Boolean }) connected = true;
  @state() private hook: HookRow | null = null;
  @query("dialog") private dialog!: HTMLDialogElement;

  async open(hook: HookRow): Promise<void> {
    this.hook = hook;
    await this.updateComplete;
    if (!this.dialog.open) this.dialog.showModal();
    this.renderRoot.querySelector<HTMLElement>("[data-action=cancel]")?.focus();
  }

  close(): void {
    if (this.dialog?.open) this.dialog.close();
    this.hook = null;
  }

  private confirm(): void {
    const hook = this.hook;
    this.close();
    if (hook) this.dispatchEvent(new CustomEvent<HookRow>("confirm-delete", { detail: hook }));
  }

  override render() {
    const hook = this.hook;
    return html`<dialog
      class="delete"
      aria-labelledby="delete-title"
      data-testid="delete-dialog"
      @close=${() => (this.hook = null)}
      @cancel=${() => (this.hook = null)}
    >
      ${hook
        ? html`
            <h2 id="delete-title">${t("delete.title")}</h2>
            <p>${t("delete.body", { name: hookName(hook) })}</p>
            <p class="path" data-testid="delete-path" title=${hook.path}>${hook.path}</p>
            <code class="command">${hook.command}</code>
            <p class="muted">${t("delete.irreversible")}</p>
            <div class="buttons">
              <vscode-button secondary data-action="cancel" @click=${() => this.close()}>${t("delete.cancel")}</vscode-button>
              <vscode-button data-action="confirm" ?disabled=${!this.connected} @click=${() => this.confirm()}>${t("delete.confirm")}</vscode-button>
            </div>
          `
        : nothing}
    </dialog>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-delete-dialog": WaveDeleteDialog;
  }
}
