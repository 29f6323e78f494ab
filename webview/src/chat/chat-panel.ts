import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-progress-ring/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";
import { unsafeHTML } from "lit/directives/unsafe-html.js";

import { type Lang, lang, t } from "../i18n";
import type {
  AssistantMessage,
  Block,
  ChatRequestPermissionParams,
  ChatRequestPermissionResult,
  NoticeBlock,
  ToolBlock,
} from "../protocol/chat";
import { METHODS } from "../protocol/generated";
import { plainReason } from "../settings/model";
import { base } from "../styles";
import type { RpcClient } from "../transport/rpc";
import { recall, remember } from "../storage";
import { renderMarkdown } from "./markdown";
import { startsTurn, toolTitle, withPrefill } from "./view";
import { type ChatState, EMPTY, apply, opened, queued, visibleMessages } from "./state";

interface PendingPermission {
  params: ChatRequestPermissionParams;
  answer(result: ChatRequestPermissionResult): void;
}

/** Where the unsent draft is kept (one chat panel per page). */
const DRAFT_KEY = "chat-draft";

/** Compaction calls the model: it may take far longer than an ordinary request. */
const COMPACT_TIMEOUT_MS = 10 * 60_000;

/** The chat panel: the conversation, the input (prefillable), send / stop, permission prompts. */
@customElement("wave-chat-panel")
export class WaveChatPanel extends LitElement {
  static override styles = [
    base,
    css`
      :host {
        display: flex;
        flex-direction: column;
        height: 100%;
        min-height: 0;
      }
      .log {
        flex: 1;
        overflow-y: auto;
        padding: 12px 16px;
      }
      .msg {
        margin-bottom: 12px;
      }
      .who {
        font-weight: 600;
        font-size: 0.9em;
        margin-bottom: 2px;
      }
      .user .bubble {
        background: var(--vscode-input-background, #313131);
        border: 1px solid var(--vscode-input-border, #3c3c3c);
        border-radius: 6px;
        padding: 6px 10px;
        white-space: pre-wrap;
        word-break: break-word;
      }
      .markdown :is(p, ul, ol, pre) {
        margin: 4px 0;
      }
      .markdown pre {
        background: var(--vscode-textCodeBlock-background, rgba(127, 127, 127, 0.1));
        padding: 6px 8px;
        border-radius: 3px;
        overflow-x: auto;
      }
      .markdown a {
        color: var(--vscode-textLink-foreground, #4daafc);
      }
      .tool {
        border: 1px solid var(--vscode-widget-border, #454545);
        border-left-width: 3px;
        border-radius: 3px;
        margin: 6px 0;
        padding: 4px 8px;
      }
      .tool[data-status="success"] {
        border-left-color: var(--vscode-testing-iconPassed, #73c991);
      }
      .tool[data-status="error"] {
        border-left-color: var(--vscode-testing-iconFailed, #f14c4c);
      }
      .tool[data-status="running"],
      .tool[data-status="pending"] {
        border-left-color: var(--vscode-progressBar-background, #0078d4);
      }
      .tool-head {
        display: flex;
        gap: 8px;
        align-items: baseline;
      }
      .tool-name {
        font-weight: 600;
        font-family: var(--vscode-editor-font-family, ui-monospace, monospace);
      }
      .tool pre {
        white-space: pre-wrap;
        word-break: break-word;
        margin: 4px 0;
        max-height: 240px;
        overflow: auto;
      }
      .tool .failure {
        color: var(--vscode-errorForeground, #f48771);
      }
      .notice {
        border-radius: 3px;
        padding: 4px 8px;
        margin: 6px 0;
        border: 1px solid;
      }
      .notice[data-level="info"] {
        border-color: var(--vscode-inputValidation-infoBorder, #007acc);
        background: var(--vscode-inputValidation-infoBackground, #063b49);
      }
      .notice[data-level="warning"] {
        border-color: var(--vscode-inputValidation-warningBorder, #b89500);
        background: var(--vscode-inputValidation-warningBackground, #352a05);
      }
      .notice[data-level="error"] {
        border-color: var(--vscode-inputValidation-errorBorder, #be1100);
        background: var(--vscode-inputValidation-errorBackground, #5a1d1d);
      }
      .notice-level {
        font-weight: 600;
        margin-right: 6px;
      }
      .running {
        display: flex;
        gap: 8px;
        align-items: center;
        padding: 4px 16px;
      }
      .queued {
        padding: 4px 16px;
      }
      .compacted {
        margin: 8px 0 12px;
        padding: 4px 8px;
        border-top: 1px dashed var(--vscode-widget-border, #454545);
        border-bottom: 1px dashed var(--vscode-widget-border, #454545);
      }
      .compacted .bubble {
        white-space: pre-wrap;
        margin-top: 4px;
      }
      .queued li {
        opacity: 0.75;
        white-space: pre-wrap;
      }
      .permission {
        margin: 8px 16px;
        padding: 8px 12px;
        border: 1px solid var(--vscode-focusBorder, #0078d4);
        border-radius: 4px;
      }
      .permission .buttons {
        display: flex;
        gap: 8px;
        margin-top: 8px;
      }
      form {
        display: flex;
        gap: 8px;
        padding: 8px 16px 12px;
        border-top: 1px solid var(--vscode-panel-border, #2b2b2b);
        align-items: flex-end;
      }
      textarea {
        flex: 1;
        field-sizing: content; /* grows with a multi-line prefill (up to max-height) */
        min-height: 3.2em;
        max-height: 40vh;
        resize: vertical;
        font: inherit;
        color: var(--vscode-input-foreground, #cccccc);
        background: var(--vscode-input-background, #313131);
        border: 1px solid var(--vscode-input-border, #3c3c3c);
        border-radius: 2px;
        padding: 4px 6px;
      }
      textarea:focus {
        outline: 1px solid var(--vscode-focusBorder, #0078d4);
        outline-offset: -1px;
      }
      .draft-note {
        margin: 4px 16px;
      }
      .buttons-col {
        display: flex;
        flex-direction: column;
        gap: 6px;
      }
    `,
  ];

  @property({ attribute: false }) rpc!: RpcClient;
  /** The language rendered in (set by the app, so that a new locale re-renders the view). */
  @property({ attribute: false }) language: Lang = lang();
  @state() private chat: ChatState = EMPTY;
  @state() private unavailable: string | null = null;
  @state() private error: string | null = null;
  @state() private permissions: PendingPermission[] = [];
  @state() private compacting = false;
  @query("textarea") private input!: HTMLTextAreaElement;
  @query(".log") private log!: HTMLElement;

  /** What the user has typed and not sent: kept across view switches and reloads. */
  private draft = recall(DRAFT_KEY) ?? "";
  @state() private draftKept = false;
  private unsubscribe: (() => void) | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener("keydown", this.onEscape);
    this.unsubscribe = this.rpc.onNotification(METHODS.CHAT_UPDATED, (params) => {
      this.chat = apply(this.chat, params);
    });
    this.rpc.onRequest(METHODS.CHAT_REQUEST_PERMISSION, (params) => this.askPermission(params));
    void this.open();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    this.removeEventListener("keydown", this.onEscape);
  }

  /** Esc anywhere in the panel stops the running turn (a permission card's own Esc aside). */
  private onEscape = (event: KeyboardEvent): void => {
    if (event.key !== "Escape" || event.isComposing || this.chat.status !== "running") return;
    event.preventDefault();
    void this.cancel();
  };

  private setDraft(text: string): void {
    this.draft = text;
    remember(DRAFT_KEY, text || null);
  }

  /**
   * The session this page had open: a panel shown again continues it instead of a new one. A
   * shell that re-creates the page (the VS Code extension after a server restart) passes it as
   * `<body data-session-id>`.
   */
  private static sessionId: string | null =
    (typeof document !== "undefined" && document.body?.dataset.sessionId) || null;

  async open(): Promise<void> {
    try {
      const params = WaveChatPanel.sessionId ? { sessionId: WaveChatPanel.sessionId } : {};
      const result = await this.rpc.request(METHODS.CHAT_OPEN, params);
      WaveChatPanel.sessionId = result.sessionId;
      this.chat = opened(result);
      this.unavailable = null;
    } catch (err) {
      this.unavailable = plainReason(err);
    }
  }

  /** Puts text in the input (editable; sent as a normal user message) and focuses it; a draft
   * of the user's stays, above it, and the panel says so. */
  prefill(text: string): void {
    const merged = withPrefill(this.input?.value ?? this.draft, text);
    this.setDraft(merged.text);
    this.draftKept = merged.kept;
    void this.updateComplete.then(() => {
      this.input.value = merged.text;
      this.input.focus();
      this.input.setSelectionRange(merged.text.length, merged.text.length);
    });
  }

  private askPermission(params: ChatRequestPermissionParams): Promise<ChatRequestPermissionResult> {
    return new Promise((resolve) => {
      const entry: PendingPermission = {
        params,
        answer: (result) => {
          this.permissions = this.permissions.filter((p) => p !== entry);
          resolve(result);
        },
      };
      this.permissions = [...this.permissions, entry];
    });
  }

  private async send(): Promise<void> {
    const text = this.input.value.trim();
    if (!text || !this.chat.sessionId) return;
    this.error = null;
    const sessionId = this.chat.sessionId;
    this.input.value = "";
    this.setDraft("");
    this.draftKept = false;
    try {
      const result = await this.rpc.request(METHODS.CHAT_SEND, { sessionId, text });
      if (result.queued) this.chat = queued(this.chat, text);
    } catch (err) {
      this.error = t("chat.sendFailed", { reason: plainReason(err) });
      this.input.value = text; // nothing is lost
      this.setDraft(text);
    }
  }

  private async cancel(): Promise<void> {
    if (!this.chat.sessionId) return;
    try {
      await this.rpc.request(METHODS.CHAT_CANCEL, { sessionId: this.chat.sessionId });
    } catch (err) {
      this.error = plainReason(err);
    }
  }

  /** Compaction answers once the running turn (if any) and the summary call are over. */
  private async compact(): Promise<void> {
    if (!this.chat.sessionId || this.compacting) return;
    this.compacting = true;
    this.error = null;
    try {
      const result = await this.rpc.request(
        METHODS.CHAT_COMPACT,
        { sessionId: this.chat.sessionId },
        COMPACT_TIMEOUT_MS,
      );
      if (!result.compacted) this.error = t("chat.compactFailed");
    } catch (err) {
      this.error = plainReason(err);
    } finally {
      this.compacting = false;
    }
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void this.send();
    }
  }

  protected override updated(): void {
    if (this.log) this.log.scrollTop = this.log.scrollHeight;
  }

  override render() {
    const messages = visibleMessages(this.chat);
    const running = this.chat.status === "running";
    return html`
      <div class="log" role="log" aria-live="polite" aria-label=${t("chat.title")}>
        ${this.unavailable ? html`<p class="alert" data-testid="chat-unavailable">${t("chat.unavailable", { reason: this.unavailable })}</p>` : nothing}
        ${messages.length === 0 && !this.unavailable ? html`<p class="muted">${t("chat.empty")}</p>` : nothing}
        ${messages.map((m, i) =>
          m.role === "user" && m.isCompactSummary
            ? html`<details class="compacted" data-testid="compacted">
                <summary>${t("chat.compacted")}</summary>
                <div class="bubble">${m.content}</div>
              </details>`
            : m.role === "user"
            ? html`<div class="msg user" data-role="user">
                <div class="who">${t("chat.you")}</div>
                <div class="bubble">${m.content}</div>
              </div>`
            : this.renderAssistant(m, startsTurn(messages, i)),
        )}
      </div>
      ${running ? this.renderRunning() : nothing}
      ${this.chat.queuedTexts.length || this.chat.queuedCount
        ? html`<div class="queued muted" data-testid="queued">
            ${t("chat.queued")} (${this.chat.queuedCount})
            <ul>${this.chat.queuedTexts.map((q) => html`<li>${q}</li>`)}</ul>
          </div>`
        : nothing}
      ${this.permissions.map((p) => this.renderPermission(p))}
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : nothing}
      ${this.draftKept ? html`<p class="muted draft-note" role="status" data-testid="draft-kept">${t("chat.draftKept")}</p>` : nothing}
      <form @submit=${(e: Event) => (e.preventDefault(), void this.send())}>
        <textarea
          aria-label=${t("chat.placeholder")}
          placeholder=${t("chat.placeholder")}
          .value=${this.draft}
          @input=${(e: Event) => this.setDraft((e.target as HTMLTextAreaElement).value)}
          @keydown=${this.onKeyDown}
        ></textarea>
        <div class="buttons-col">
          <vscode-button data-action="send" ?disabled=${!this.chat.sessionId} @click=${() => void this.send()}
            >${t("chat.send")}</vscode-button
          >
          ${running
            ? html`<vscode-button secondary data-action="cancel" @click=${() => void this.cancel()}
                >${t("chat.cancel")}</vscode-button
              >`
            : nothing}
          <vscode-button
            secondary
            data-action="compact"
            title=${this.compacting ? t("chat.compacting") : t("chat.compact")}
            ?disabled=${!this.chat.sessionId || this.compacting || messages.length === 0}
            @click=${() => void this.compact()}
            >${this.compacting ? t("chat.compacting") : t("chat.compact")}</vscode-button
          >
        </div>
      </form>
    `;
  }

  private renderRunning() {
    const messages = this.chat.runningHooks;
    return html`<div class="running" role="status" data-testid="running">
      <vscode-progress-ring></vscode-progress-ring>
      <span>${messages.length ? messages.join(" · ") : t("chat.running")}</span>
    </div>`;
  }

  private renderAssistant(message: AssistantMessage, heading: boolean) {
    return html`<div class="msg assistant" data-role="assistant">
      ${heading ? html`<div class="who">${t("chat.assistant")}</div>` : nothing}
      ${message.blocks.map((b) => this.renderBlock(b))}
    </div>`;
  }

  private renderBlock(block: Block) {
    switch (block.type) {
      case "text":
        return html`<div class="markdown">${unsafeHTML(renderMarkdown(block.text))}</div>`;
      case "tool":
        return this.renderTool(block);
      case "notice":
        return this.renderNotice(block);
    }
  }

  private renderTool(block: ToolBlock) {
    const input = JSON.stringify(block.input, null, 2);
    return html`<div class="tool" data-status=${block.status} data-tool=${block.name}>
      <div class="tool-head">
        <span class="tool-name" data-testid="tool-title">${toolTitle(block)}</span>
        <span class="muted">${t(`tool.${block.status}`)}</span>
      </div>
      <details>
        <summary>${t("tool.input")}</summary>
        <pre>${input}</pre>
      </details>
      ${block.error
        ? html`<pre class="failure" data-testid="tool-error">${block.error}</pre>`
        : block.result
          ? html`<details><summary>${t("tool.result")}</summary><pre>${block.result}</pre></details>`
          : nothing}
    </div>`;
  }

  private renderNotice(block: NoticeBlock) {
    return html`<div class="notice" data-level=${block.level} role=${block.level === "error" ? "alert" : "note"}>
      <span class="notice-level">${t(`notice.${block.level}`)}</span>${block.text}
    </div>`;
  }

  private renderPermission(p: PendingPermission) {
    const { toolName, toolInput, reason } = p.params;
    return html`<div class="permission" role="alertdialog" aria-label=${t("permission.title", { tool: toolName })} data-testid="permission">
      <strong>${t("permission.title", { tool: toolName })}</strong>
      <pre>${JSON.stringify(toolInput, null, 2)}</pre>
      ${reason ? html`<p class="muted">${t("permission.reason", { reason })}</p>` : nothing}
      <div class="buttons">
        <vscode-button data-action="allow" @click=${() => p.answer({ allow: true })}>${t("permission.allow")}</vscode-button>
        <vscode-button secondary data-action="always" @click=${() => p.answer({ allow: true, always: true })}
          >${t("permission.always")}</vscode-button
        >
        <vscode-button secondary data-action="deny" @click=${() => p.answer({ allow: false })}>${t("permission.deny")}</vscode-button>
      </div>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-chat-panel": WaveChatPanel;
  }
}
