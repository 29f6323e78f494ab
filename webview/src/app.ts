import "./chat/chat-panel";
import "./file-viewer";
import "./settings/hooks-page";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";

import type { WaveChatPanel } from "./chat/chat-panel";
import { type Lang, applyLocale, lang, t } from "./i18n";
import { SHELL_COMMANDS, type ShowViewArgs } from "./protocol/generated";
import { base } from "./styles";
import type { RpcClient } from "./transport/rpc";

export type View = ShowViewArgs["view"];

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
  /** The language rendered in; the views get it too, so that `setLocale` re-renders them. */
  @state() private language: Lang = lang();
  @query("wave-chat-panel") private chat!: WaveChatPanel | null;
  private pendingPrefill: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.rpc.onShell(SHELL_COMMANDS.SHOW_VIEW, (args) => {
      if (args.view === "settings" || args.view === "chat") this.view = args.view;
    });
    this.rpc.onShell(SHELL_COMMANDS.PREFILL, (args) => this.prefill(String(args.text ?? "")));
    this.rpc.onShell(SHELL_COMMANDS.SHOW_FILE, (args) => {
      this.file = { path: String(args.path ?? ""), content: String(args.content ?? "") };
    });
    this.rpc.onShell(SHELL_COMMANDS.SET_LOCALE, (args) => {
      if (typeof args.locale === "string") this.language = applyLocale(args.locale);
    });
    this.rpc.onClose((reason) => (this.closedReason = reason));
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
            <vscode-button secondary data-action="open-settings" @click=${() => this.rpc.shell(SHELL_COMMANDS.OPEN_SETTINGS, {})}
              >${t("settings.open")}</vscode-button
            >
          </nav>`
        : nothing}
      <div class="main">
        <div class="view">
          ${this.view === "settings"
            ? html`<wave-hooks-page .rpc=${this.rpc} .language=${this.language}></wave-hooks-page>`
            : html`<wave-chat-panel .rpc=${this.rpc} .language=${this.language}></wave-chat-panel>`}
        </div>
        ${this.file
          ? html`<wave-file-viewer
              .language=${this.language}
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
