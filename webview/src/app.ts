import "./chat/chat-panel";
import "./file-viewer";
import "./settings/hooks-page";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";
import { keyed } from "lit/directives/keyed.js";

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
      /* Its own strip above the view, a line apart: scrolled text never seems to run under it. */
      nav {
        display: flex;
        justify-content: flex-end;
        padding: 4px 16px;
        border-bottom: 1px solid var(--vscode-widget-border);
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
      /* Narrow panels (IDE side bars, tool windows): the file goes above the view, full width. */
      @media (max-width: 700px) {
        .main {
          flex-direction: column-reverse;
        }
        wave-file-viewer {
          max-width: none;
          flex: 0 0 auto;
          max-height: 45vh;
        }
      }
      .gone {
        margin: 8px 16px 0;
      }
      .gone .buttons {
        display: flex;
        gap: 8px;
        margin-top: 6px;
      }
    `,
  ];

  @property({ attribute: false }) rpc!: RpcClient;
  @property() view: View = "settings";
  @state() private file: { path: string; content: string; line: number | null; endLine: number | null } | null = null;
  @state() private closedReason: string | null = null;
  /** The shell said wavehost serve stopped (`serverState`): it can start it again on request. */
  @state() private restartable = false;
  @state() private restarting = false;
  /** Bumped when the server runs again: the views start afresh (new list, new chat session). */
  @state() private generation = 0;
  /** The language rendered in; the views get it too, so that `setLocale` re-renders them. */
  @state() private language: Lang = lang();
  @query("wave-chat-panel") private chat!: WaveChatPanel | null;
  private pendingPrefill: string | null = null;
  /** The hook a chat notice asked to see: given to the settings page when it shows. */
  @state() private revealHook: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.rpc.onShell(SHELL_COMMANDS.SHOW_VIEW, (args) => {
      if (args.view === "settings" || args.view === "chat") this.view = args.view;
      // "Show in settings" from a chat: the settings page scrolls to that hook's row.
      if (args.view === "settings" && typeof args.hookId === "string" && args.hookId) this.revealHook = args.hookId;
    });
    this.rpc.onShell(SHELL_COMMANDS.PREFILL, (args) => this.prefill(String(args.text ?? "")));
    this.rpc.onShell(SHELL_COMMANDS.SHOW_FILE, (args) => {
      this.file = { path: String(args.path ?? ""), content: String(args.content ?? ""), line: args.line ?? null, endLine: args.endLine ?? null };
    });
    this.rpc.onShell(SHELL_COMMANDS.SET_LOCALE, (args) => {
      if (typeof args.locale === "string") this.language = applyLocale(args.locale);
    });
    this.rpc.onShell(SHELL_COMMANDS.SERVER_STATE, (args) => {
      this.restarting = false;
      if (args.running) {
        if (this.closedReason !== null) this.generation++;
        this.closedReason = null;
      } else {
        this.restartable = true;
        this.closedReason = args.reason ?? "";
      }
    });
    this.rpc.onClose((reason) => {
      this.restartable = false; // the shell itself is gone: only a reload can help
      this.closedReason = reason;
    });
  }

  /**
   * A chat's "Show in settings": the shell opens the settings page (browser mode: this page, an
   * IDE its settings tab) and tells it, in `showView`, which row to show.
   */
  private showHook(event: Event): void {
    this.rpc.shell(SHELL_COMMANDS.OPEN_SETTINGS, { hookId: (event as CustomEvent<{ hookId: string }>).detail.hookId });
  }

  private restart(): void {
    this.restarting = true;
    this.rpc.shell(SHELL_COMMANDS.RESTART_SERVER, {});
  }

  private renderGone(reason: string) {
    return html`<div class="alert gone" role="alert" data-testid="gone">
      <strong>${t("connection.gone")}</strong>
      <div>${t("connection.why", { reason: plainGone(reason) })}</div>
      <div>${t(this.restartable ? "connection.restartOffer" : "connection.restartHint")}</div>
      <div class="buttons">
        ${this.restartable
          ? html`<vscode-button data-action="restart" ?disabled=${this.restarting} @click=${() => this.restart()}
              >${t(this.restarting ? "connection.restarting" : "connection.restart")}</vscode-button
            >`
          : nothing}
        <vscode-button ?secondary=${this.restartable} data-action="reload" @click=${() => location.reload()}>${t("connection.reload")}</vscode-button>
      </div>
    </div>`;
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
    // Every shell's document says which view it is (a VS Code webview, a browser tab, a JetBrains
    // editor), in the page's language.
    document.title = t(this.view === "chat" ? "page.chatTitle" : "page.settingsTitle");
    this.flushPrefill();
  }

  override render() {
    return html`
      ${this.closedReason !== null ? this.renderGone(this.closedReason) : nothing}
      ${this.view === "chat"
        ? html`<nav aria-label=${t("settings.open")}>
            <vscode-button secondary data-action="open-settings" @click=${() => this.rpc.shell(SHELL_COMMANDS.OPEN_SETTINGS, {})}
              >${t("settings.open")}</vscode-button
            >
          </nav>`
        : this.rpc.transportName === "websocket"
          ? html`<nav aria-label=${t("settings.backToChat")}>
              <vscode-button secondary data-action="back-to-chat" @click=${() => this.rpc.shell(SHELL_COMMANDS.OPEN_CHAT, {})}
                >${t("settings.backToChat")}</vscode-button
              >
            </nav>`
          : nothing}
      <main class="main">
        <div class="view">
          ${keyed(
            this.generation,
            this.view === "settings"
              ? html`<wave-hooks-page
                  .rpc=${this.rpc}
                  .language=${this.language}
                  .reveal=${this.revealHook}
                  ?connected=${this.closedReason === null}
                  @revealed=${() => (this.revealHook = null)}
                ></wave-hooks-page>`
              : html`<wave-chat-panel .rpc=${this.rpc} .language=${this.language} @show-hook=${(e: Event) => this.showHook(e)}></wave-chat-panel>`,
          )}
        </div>
        ${this.file
          ? html`<wave-file-viewer
              .language=${this.language}
              .path=${this.file.path}
              .content=${this.file.content}
              .line=${this.file.line}
              .endLine=${this.file.endLine}
              @close=${() => (this.file = null)}
            ></wave-file-viewer>`
          : nothing}
      </main>
    `;
  }
}

/** "wavehost serve exited with code -15" in words a person reads (the detail stays, small). */
export function plainGone(reason: string): string {
  const exited = /exited with code (-?\d+)/.exec(reason);
  return exited ? t("connection.exited", { detail: reason }) : reason;
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-app": WaveApp;
  }
}
