import "./chat/chat-panel";
import "./file-viewer";
import "./settings/hooks-page";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";

import type { WaveChatPanel } from "./chat/chat-panel";
import { t } from "./i18n";
import { base } from "./styles";
import type { RpcClient } from "./transport/rpc";

export type View = "settings" | "chat";

/**
 * One page, two views. A shell shows the settings page or the chat panel (VS Code and JetBrains
 * open one of each; browser mode switches between them on the shell's `showView`).
 */
@customElement("wave-app")
export class WaveApp extends LitElement {
  static override styles = [
    base,
    css`
      :host {
        display: flex;
        flex-direction: column;
        height: 100vh;
      }
      nav {
        display: flex;
        justify-content: flex-end;
        padding: 4px 16px 0;
      }
      .main {
        flex: 1;
        display: flex;
        min-height: 0;
      }
      .view {
        flex: 1;
        min-width: 0;
        overflow: auto;
        display: flex;
        flex-direction: column;
      }
      wave-chat-panel {
        flex: 1;
        min-height: 0;
      }
      wave-file-viewer {
        flex: 1;
        max-width: 50%;
      }
    `,
  ];

  @property({ attribute: false }) rpc!: RpcClient;
  @property() view: View = "settings";
  @state() private file: { path: string; content: string } | null = null;
  @state() private closedReason: string | null = null;
  @query("wave-chat-panel") private chat!: WaveChatPanel | null;
  private pendingPrefill: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.rpc.onShell("showView", (args) => {
      if (args.view === "settings" || args.view === "chat") this.view = args.view;
    });
    this.rpc.onShell("prefill", (args) => this.prefill(String(args.text ?? "")));
    this.rpc.onShell("showFile", (args) => {
      this.file = { path: String(args.path ?? ""), content: String(args.content ?? "") };
    });
    this.rpc.onShell("connectionClosed", (args) => (this.closedReason = String(args.reason ?? "")));
  }

  private prefill(text: string): void {
    this.pendingPrefill = text;
    this.view = "chat";
    void this.updateComplete.then(() => this.flushPrefill());
  }

  private flushPrefill(): void {
    if (this.pendingPrefill !== null && this.chat) {
      this.chat.prefill(this.pendingPrefill);
      this.pendingPrefill = null;
    }
  }

  protected override updated(): void {
    document.body.dataset.view = this.view;
    this.flushPrefill();
  }

  override render() {
    return html`
      ${this.closedReason !== null
        ? html`<p class="alert" role="alert">${t("connection.closed", { reason: this.closedReason })}</p>`
        : nothing}
      ${this.view === "chat"
        ? html`<nav>
            <vscode-button secondary data-action="open-settings" @click=${() => this.rpc.shell("openSettings")}
              >${t("settings.open")}</vscode-button
            >
          </nav>`
        : nothing}
      <div class="main">
        <div class="view">
          ${this.view === "settings"
            ? html`<wave-hooks-page .rpc=${this.rpc}></wave-hooks-page>`
            : html`<wave-chat-panel .rpc=${this.rpc}></wave-chat-panel>`}
        </div>
        ${this.file
          ? html`<wave-file-viewer
              .path=${this.file.path}
              .content=${this.file.content}
              @close=${() => (this.file = null)}
            ></wave-file-viewer>`
          : nothing}
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-app": WaveApp;
  }
}
