import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-progress-ring/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";
import { unsafeHTML } from "lit/directives/unsafe-html.js";

import { type Lang, lang, t } from "../i18n";
import type {
  AssistantMessage,
  Block,
  ChatAskQuestionParams,
  ChatAskQuestionResult,
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
import { type HookLine, collapseNotices, hookLine, hookOrigin, permissionPreview, shortCommand, startsTurn, toolTitle, withPrefill } from "./view";
import {
  type ChatState,
  EMPTY,
  answered,
  apply,
  asked,
  attaching,
  opened,
  questionAnswered,
  questionAsked,
  visibleMessages,
} from "./state";

/** Where the unsent draft is kept (one chat panel per page). */
const DRAFT_KEY = "chat-draft";

/** Compaction calls the model: it may take far longer than an ordinary request. */
const COMPACT_TIMEOUT_MS = 10 * 60_000;
/** Opening runs SessionStart hooks; asking again after a timeout attaches to the same session. */
export const OPEN_TIMEOUT_MS = 60_000;

/** A new session id, chosen by the page before it asks (so that asking again finds it). */
function newSessionId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A session to attach to that the address names (browser mode: `?session=<id>`). */
function sessionFromAddress(): string | null {
  const id = new URLSearchParams(location.search).get("session");
  return id && SESSION_ID.test(id) ? id : null;
}

/** A session the shell names for a page it re-created (`<body data-session-id>`). */
function sessionFromShell(): string | null {
  const id = typeof document !== "undefined" ? document.body?.dataset.sessionId : undefined;
  return id && SESSION_ID.test(id) ? id : null;
}

/**
 * The chat panel: the conversation, the input (prefillable), send / stop, permission questions.
 *
 * The page is disposable: the session id is kept where the shell keeps page state (VS Code's
 * setState, else the tab's sessionStorage), and a re-created panel re-attaches to its session,
 * getting the whole session back (pending permission questions included). A question is answered
 * through the request that asked it when this page holds it, else with wave/chat/answerPermission.
 * The model's questions (AskUserQuestion) and a hook's prompt action come as wave/chat/askQuestion:
 * a question card with the choices (or a text field). They are session state too (the snapshot's
 * pendingQuestions): answered by responding to that request, else with wave/chat/answerQuestion.
 */
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
      .tool[data-status="blocked"] {
        border-left-color: var(--vscode-inputValidation-warningBorder, #b89500);
        border-left-style: double;
        border-left-width: 4px;
      }
      .hook-line {
        display: flex;
        flex-wrap: wrap;
        gap: 0 6px;
        align-items: baseline;
        font-size: 0.92em;
      }
      .hook-line code {
        font-family: var(--vscode-editor-font-family, ui-monospace, monospace);
        overflow-wrap: anywhere;
      }
      .link {
        background: none;
        border: none;
        padding: 0;
        font: inherit;
        color: var(--vscode-textLink-foreground, #3794ff);
        text-decoration: underline;
        cursor: pointer;
      }
      .notice .link {
        color: inherit;
      }
      .diff {
        font-family: var(--vscode-editor-font-family, ui-monospace, monospace);
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        max-height: 240px;
        overflow: auto;
        margin: 4px 0;
      }
      .diff .add::before {
        content: "+ ";
      }
      .diff .del::before {
        content: "- ";
      }
      .diff .del {
        text-decoration: line-through;
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
      .question fieldset {
        border: none;
        margin: 6px 0;
        padding: 0;
      }
      .question legend {
        font-weight: 600;
      }
      .question .chip {
        font-size: 0.85em;
        padding: 0 6px;
        margin-right: 6px;
        border-radius: 8px;
        background: var(--vscode-badge-background, #4d4d4d);
        color: var(--vscode-badge-foreground, #ffffff);
      }
      .question label {
        display: block;
        margin: 2px 0;
      }
      .question input[type="text"] {
        width: 100%;
        box-sizing: border-box;
        margin-top: 4px;
        font: inherit;
        color: var(--vscode-input-foreground, #cccccc);
        background: var(--vscode-input-background, #313131);
        border: 1px solid var(--vscode-input-border, #3c3c3c);
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
  @state() private compacting = false;
  @query("textarea") private input!: HTMLTextAreaElement;
  @query(".log") private log!: HTMLElement;

  /** What the user has typed and not sent: kept across view switches and reloads. */
  private draft = recall(DRAFT_KEY) ?? "";
  @state() private draftKept = false;
  private focusedQuestion: string | null = null;
  private unsubscribe: (() => void) | null = null;
  /** Questions the shell asked this page directly, by toolUseId: answered by responding. */
  private readonly held = new Map<string, (result: ChatRequestPermissionResult) => void>();
  /** Questions of the model's the shell asked this page directly, by questionId: answered by
   * responding (the others, e.g. after a reload, with wave/chat/answerQuestion). */
  private readonly questionReplies = new Map<string, (result: ChatAskQuestionResult) => void>();

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener("keydown", this.onEscape);
    this.unsubscribe = this.rpc.onNotification(METHODS.CHAT_UPDATED, (params) => {
      this.chat = apply(this.chat, params);
    });
    this.rpc.onRequest(METHODS.CHAT_REQUEST_PERMISSION, (params, signal) => this.askedDirectly(params, signal));
    this.rpc.onRequest(METHODS.CHAT_ASK_QUESTION, (params, signal) => this.questionAsked(params, signal));
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
   * Attach to this page's session, else to a new one under an id chosen now; the id is kept so
   * that a re-created page comes back to it. Which session: the one the address names (browser
   * mode, `?session=`), else the one the shell names (`<body data-session-id>`: the VS Code
   * extension after a server restart), else the one the page kept, else a new one.
   */
  async open(): Promise<void> {
    const sessionId =
      sessionFromAddress() ?? sessionFromShell() ?? this.rpc.store.load().sessionId ?? newSessionId();
    this.rpc.store.save({ sessionId });
    this.chat = attaching(sessionId);
    this.unavailable = null;
    try {
      const result = await this.rpc.request(METHODS.CHAT_OPEN, { sessionId, create: true }, OPEN_TIMEOUT_MS);
      if (this.chat.sessionId === sessionId) this.chat = opened(result);
    } catch (err) {
      this.unavailable = plainReason(err);
    }
  }

  /** End this session (its background work stops, SessionEnd runs) and start a new one. */
  private async newChat(): Promise<void> {
    const sessionId = this.chat.sessionId;
    this.error = null;
    if (sessionId) {
      try {
        await this.rpc.request(METHODS.CHAT_CLOSE, { sessionId, reason: "clear" });
      } catch (err) {
        this.error = plainReason(err);
        return;
      }
    }
    this.rpc.store.save({});
    await this.open();
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

  private askedDirectly(params: ChatRequestPermissionParams, signal: AbortSignal): Promise<ChatRequestPermissionResult> {
    this.chat = asked(this.chat, params);
    return new Promise((resolve, reject) => {
      this.held.set(params.toolUseId, resolve);
      signal.addEventListener("abort", () => {
        // Withdrawn (answered elsewhere, or its turn ended): the update removes it from view.
        this.held.delete(params.toolUseId);
        reject(new Error("withdrawn"));
      });
    });
  }

  private questionAsked(params: ChatAskQuestionParams, signal: AbortSignal): Promise<ChatAskQuestionResult> {
    this.chat = questionAsked(this.chat, params);
    return new Promise((resolve, reject) => {
      this.questionReplies.set(params.questionId, resolve);
      signal.addEventListener("abort", () => {
        // Withdrawn (answered elsewhere, or its turn ended): the update removes it from view.
        this.questionReplies.delete(params.questionId);
        reject(new Error("withdrawn"));
      });
    });
  }

  /** The card's answers: the chosen options (joined by ", "), or the words typed instead. */
  private replyTo(params: ChatAskQuestionParams, card: HTMLElement, dismissed: boolean): void {
    const answers: Record<string, string> = {};
    if (!dismissed) {
      params.questions.forEach((q, index) => {
        const chosen = [...card.querySelectorAll<HTMLInputElement>(`input[data-question="${index}"]:checked`)].map(
          (input) => input.value,
        );
        const typed = card.querySelector<HTMLInputElement>(`input[type=text][data-question="${index}"]`)?.value.trim();
        const answer = typed || chosen.join(", ");
        if (answer) answers[q.question] = answer;
      });
    }
    void this.answerQuestion(params, { answers });
  }

  private async answerQuestion(params: ChatAskQuestionParams, result: ChatAskQuestionResult): Promise<void> {
    this.chat = questionAnswered(this.chat, params.questionId);
    const { sessionId, questionId } = params;
    await this.reply(this.questionReplies, questionId, result, () =>
      this.rpc.request(METHODS.CHAT_ANSWER_QUESTION, { sessionId, questionId, answers: result.answers }),
    );
  }

  private async answer(question: ChatRequestPermissionParams, result: ChatRequestPermissionResult): Promise<void> {
    this.chat = answered(this.chat, question.toolUseId);
    const { sessionId, toolUseId } = question;
    await this.reply(this.held, toolUseId, result, () =>
      this.rpc.request(METHODS.CHAT_ANSWER_PERMISSION, { sessionId, toolUseId, ...result }),
    );
  }

  /** Through the request that asked this page, when it holds one; else with `send` (a question
   * the page learned of from the session's snapshot or updates). */
  private async reply<R>(held: Map<string, (result: R) => void>, id: string, result: R, send: () => Promise<unknown>): Promise<void> {
    const respond = held.get(id);
    if (respond) {
      held.delete(id);
      respond(result);
      return;
    }
    try {
      await send();
    } catch (err) {
      this.error = plainReason(err);
    }
  }

  private async send(): Promise<void> {
    const text = this.input.value.trim();
    if (!text || !this.chat.open || !this.chat.sessionId) return;
    this.error = null;
    const sessionId = this.chat.sessionId;
    this.input.value = "";
    this.setDraft("");
    this.draftKept = false;
    try {
      await this.rpc.request(METHODS.CHAT_SEND, { sessionId, text }); // the queue comes in updates
    } catch (err) {
      this.error = t("chat.sendFailed", { reason: plainReason(err) });
      this.input.value = text; // nothing is lost
      this.setDraft(text);
    }
  }

  private async cancel(): Promise<void> {
    const sessionId = this.chat.sessionId;
    if (!this.chat.open || !sessionId) return;
    try {
      await this.rpc.request(METHODS.CHAT_CANCEL, { sessionId });
    } catch (err) {
      this.error = plainReason(err);
    }
  }

  /** Compaction answers once the running turn (if any) and the summary call are over. */
  private async compact(): Promise<void> {
    const sessionId = this.chat.sessionId;
    if (!this.chat.open || !sessionId || this.compacting) return;
    this.compacting = true;
    this.error = null;
    try {
      const result = await this.rpc.request(METHODS.CHAT_COMPACT, { sessionId }, COMPACT_TIMEOUT_MS);
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
    // A new question takes focus (once): the user sees and answers it without hunting for it.
    const first = this.chat.questions[0]?.toolUseId ?? null;
    if (first !== null && first !== this.focusedQuestion) {
      this.renderRoot.querySelector<HTMLElement>(`.permission[data-tool-use-id="${CSS.escape(first)}"]`)?.focus();
    }
    this.focusedQuestion = first;
    if (this.chat.sessionId) this.dataset.sessionId = this.chat.sessionId;
  }

  override render() {
    const messages = visibleMessages(this.chat);
    const running = this.chat.status === "running";
    return html`
      <h1 class="visually-hidden">${t("chat.title")}</h1>
      <div class="log" role="log" aria-live="polite" aria-label=${t("chat.title")}>
        ${this.unavailable
          ? html`<div class="alert" data-testid="chat-unavailable">
              <p>${t("chat.unavailable", { reason: this.unavailable })}</p>
              <vscode-button secondary data-action="retry" @click=${() => void this.open()}>${t("settings.retry")}</vscode-button>
            </div>`
          : nothing}
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
      ${this.chat.queuedTexts.length
        ? html`<div class="queued muted" data-testid="queued">
            ${t("chat.queued")} (${this.chat.queuedTexts.length})
            <ul>${this.chat.queuedTexts.map((q) => html`<li>${q}</li>`)}</ul>
          </div>`
        : nothing}
      ${this.chat.questions.map((q) => this.renderPermission(q))}
      ${this.chat.asked.map((q) => this.renderQuestion(q))}
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
          <vscode-button data-action="send" ?disabled=${!this.chat.open} @click=${() => void this.send()}
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
            ?disabled=${!this.chat.open || this.compacting || messages.length === 0}
            @click=${() => void this.compact()}
            >${this.compacting ? t("chat.compacting") : t("chat.compact")}</vscode-button
          >
          <vscode-button
            secondary
            data-action="new-chat"
            title=${t("chat.newTitle")}
            ?disabled=${!this.chat.open}
            @click=${() => void this.newChat()}
            >${t("chat.new")}</vscode-button
          >
        </div>
      </form>
    `;
  }

  private renderRunning() {
    const messages = this.chat.runningHooks;
    return html`<div class="running" role="status" data-testid="running">
      <vscode-progress-ring></vscode-progress-ring>
      <span>${this.chat.questions.length || this.chat.asked.length ? t("chat.waitingApproval") : messages.length ? messages.join(" · ") : t("chat.running")}</span>
    </div>`;
  }

  private renderAssistant(message: AssistantMessage, heading: boolean) {
    return html`<div class="msg assistant" data-role="assistant">
      ${heading ? html`<div class="who">${t("chat.assistant")}</div>` : nothing}
      ${collapseNotices(message.blocks).map(({ block, times }) => this.renderBlock(block, times))}
    </div>`;
  }

  private renderBlock(block: Block, times = 1) {
    switch (block.type) {
      case "text":
        return html`<div class="markdown">${unsafeHTML(renderMarkdown(block.text))}</div>`;
      case "tool":
        return this.renderTool(block);
      case "notice":
        return this.renderNotice(block, times);
    }
  }

  private renderTool(block: ToolBlock) {
    const input = JSON.stringify(block.input, null, 2);
    return html`<div class="tool" data-status=${block.status} data-tool=${block.name}>
      <div class="tool-head">
        <span class="tool-name" data-testid="tool-title">${toolTitle(block)}</span>
        <span class="muted" data-testid="tool-status">${t(`tool.${block.status}`)}</span>
      </div>
      ${block.status === "blocked" && block.blockedBy
        ? html`<div class="hook-line muted" data-testid="blocked-by">
            <span>${t("tool.blockedBy")}</span>${this.renderHookRef({ label: block.blockedBy.event, failed: false, exitCode: null, origin: hookOrigin(block.blockedBy), command: shortCommand(block.blockedBy.command), hookId: block.blockedBy.id }, block.blockedBy.matcher)}
          </div>`
        : nothing}
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

  private renderNotice(block: NoticeBlock, times: number) {
    const hook = hookLine(block);
    return html`<div class="notice" data-level=${block.level} role=${block.level === "error" ? "alert" : "note"} data-hook-id=${hook?.hookId ?? nothing}>
      ${hook
        ? html`<div class="hook-line" data-testid="notice-hook">${this.renderHookRef(hook, null)}</div>`
        : html`<span class="notice-level">${t(`notice.${block.level}`)}</span>`}${block.text}${times > 1
        ? html` <span class="muted" data-testid="notice-times">${t("hook.times", { n: times })}</span>`
        : nothing}
    </div>`;
  }

  /** "PostToolUse:Write hook failed (exit 1) · project · `prettier …`" and a link to its row. */
  private renderHookRef(hook: HookLine, matcher: string | null) {
    const title = hook.failed
      ? hook.exitCode !== null
        ? t("hook.failedExit", { label: hook.label, code: hook.exitCode })
        : t("hook.failed", { label: hook.label })
      : t("hook.said", { label: matcher ? `${hook.label}:${matcher}` : hook.label });
    const origin = hook.origin === "user" || hook.origin === "project" ? t(`origin.${hook.origin}`) : hook.origin;
    return html`<strong>${title}</strong><span>· ${origin} ·</span><code>${hook.command}</code>
      <button
        type="button"
        class="link"
        data-action="show-hook"
        aria-label=${t("hook.showLabel", { event: hook.label, command: hook.command })}
        @click=${() => this.showHook(hook.hookId)}
      >
        ${t("hook.show")}
      </button>`;
  }

  /** Ask the page to show this hook's row on the settings page. */
  private showHook(hookId: string): void {
    this.dispatchEvent(new CustomEvent("show-hook", { detail: { hookId }, bubbles: true, composed: true }));
  }

  private renderQuestion(params: ChatAskQuestionParams) {
    const submit = (e: Event, dismissed = false) => {
      e.preventDefault();
      const card = (e.target as HTMLElement).closest<HTMLElement>(".question");
      if (card) this.replyTo(params, card, dismissed);
    };
    return html`<div class="permission question" role="dialog" aria-label=${t("question.title")} data-testid="question" data-question-id=${params.questionId}>
      <strong>${t("question.title")}</strong>
      ${params.questions.map(
        (q, index) => html`<fieldset>
          <legend>${q.header ? html`<span class="chip">${q.header}</span>` : nothing}${q.question}</legend>
          ${q.options.map(
            (o) => html`<label
              ><input type=${q.multiSelect ? "checkbox" : "radio"} name=${`${params.questionId}-${index}`} data-question=${index} value=${o.label} />
              ${o.label}${o.description ? html` <span class="muted">— ${o.description}</span>` : nothing}</label
            >`,
          )}
          <input
            type="text"
            data-question=${index}
            aria-label=${q.options.length ? t("question.other") : q.question}
            placeholder=${q.options.length ? t("question.other") : t("question.answer")}
          />
        </fieldset>`,
      )}
      <div class="buttons">
        <vscode-button data-action="answer" @click=${(e: Event) => submit(e)}>${t("question.send")}</vscode-button>
        <vscode-button secondary data-action="dismiss" @click=${(e: Event) => submit(e, true)}
          >${t("question.dismiss")}</vscode-button
        >
      </div>
    </div>`;
  }

  private renderPermission(q: ChatRequestPermissionParams) {
    const { toolName, toolInput, reason } = q;
    const preview = permissionPreview(toolName, toolInput);
    const asker = q.askedBy;
    const title =
      q.mcpServer && q.mcpTool
        ? t("permission.mcpTitle", { server: q.mcpServer, tool: q.mcpTool })
        : t("permission.title", { tool: toolName });
    return html`<div class="permission" tabindex="-1" role="alertdialog" aria-label=${title} data-testid="permission" data-tool-use-id=${q.toolUseId}>
      <strong>${title}</strong>
      ${preview?.kind === "command"
        ? html`<div class="muted">${t("permission.command")}${preview.description ? ` — ${preview.description}` : ""}</div>
            <pre data-testid="permission-preview">${preview.command}</pre>`
        : preview?.kind === "diff"
          ? html`<div class="muted" title=${preview.path}>${t("permission.changes", { path: preview.path })}</div>
              <div class="diff" data-testid="permission-preview">${preview.lines.map(
                (l) => html`<div class=${l.sign === "+" ? "add" : l.sign === "-" ? "del" : ""}>${l.text}</div>`,
              )}</div>`
          : q.runs
            ? nothing
            : html`<pre data-testid="permission-preview">${JSON.stringify(toolInput, null, 2)}</pre>`}
      ${q.runs
        ? html`<div class="muted">${t("permission.runs")}</div>
            <pre data-testid="permission-runs">${q.runs}</pre>`
        : nothing}
      ${reason ? html`<p class="muted">${t("permission.reason", { reason })}</p>` : nothing}
      ${asker
        ? html`<div class="hook-line muted" data-testid="asked-by">
            <span>${t("permission.askedBy")}</span>${this.renderHookRef(
              { label: asker.event, failed: false, exitCode: null, origin: hookOrigin(asker), command: shortCommand(asker.command), hookId: asker.id },
              asker.matcher,
            )}
          </div>`
        : nothing}
      <div class="buttons">
        <vscode-button data-action="allow" @click=${() => void this.answer(q, { allow: true, always: false, message: null })}
          >${t("permission.allow")}</vscode-button
        >
        <vscode-button secondary data-action="always" @click=${() => void this.answer(q, { allow: true, always: true, message: null })}
          >${t("permission.alwaysScope", { tool: toolName })}</vscode-button
        >
        <vscode-button secondary data-action="deny" @click=${() => void this.answer(q, { allow: false, always: false, message: null })}
          >${t("permission.deny")}</vscode-button
        >
      </div>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-chat-panel": WaveChatPanel;
  }
}
