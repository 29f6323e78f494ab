import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-progress-ring/index.js";
import "./cards";
import "./hooks-status";
import "./live-hooks";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, query, state } from "lit/decorators.js";
import { guard } from "lit/directives/guard.js";
import { repeat } from "lit/directives/repeat.js";

import { type Lang, lang, t } from "../i18n";
import type {
  ChatAskQuestionParams,
  ChatAskQuestionResult,
  ChatMessage,
  ChatRequestPermissionParams,
  ChatRequestPermissionResult,
  QueuedMessage,
} from "../protocol/chat";
import { METHODS } from "../protocol/generated";
import { plainReason } from "../settings/model";
import { recall, remember } from "../storage";
import { base, controls } from "../styles";
import type { RpcClient } from "../transport/rpc";
import { blockStyles, hookRefStyles, renderAssistant } from "./blocks";
import {
  type ChatState,
  EMPTY,
  answered,
  apply,
  asked,
  attaching,
  cancelling,
  opened,
  questionAnswered,
  questionAsked,
  unqueued,
  visibleMessages,
} from "./state";
import { startsTurn, withPrefill } from "./view";

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
 *
 * Rendering follows what changed, so a long streamed reply stays linear: the panel renders at
 * most once a frame however many updates came, a message that did not change is not rendered
 * again (the state keeps its object), and a text block renders as pieces of Markdown of which
 * only the last, still growing, one is rendered again (blocks.ts, StreamedMarkdown).
 */
@customElement("wave-chat-panel")
export class WaveChatPanel extends LitElement {
  static override styles = [
    base,
    controls,
    hookRefStyles,
    blockStyles,
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
      .user .bubble {
        background: var(--vscode-input-background);
        border: 1px solid var(--vscode-input-border);
        border-radius: 6px;
        padding: 6px 10px;
        white-space: pre-wrap;
        word-break: break-word;
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
      .queue-head {
        display: flex;
        flex-wrap: wrap;
        gap: 4px 8px;
        align-items: center;
      }
      /* A long queue scrolls in place: it never pushes the question or Stop out of the view. */
      .queued ul {
        margin: 4px 0 0;
        padding: 0;
        list-style: none;
        max-height: 25vh;
        overflow-y: auto;
      }
      /* Readable as they are (no dimming): dimmed, they fell below the contrast a text needs. */
      .queued li {
        display: flex;
        gap: 8px;
        align-items: flex-start;
        padding: 2px 0;
        color: var(--vscode-foreground);
      }
      .queued li .text {
        flex: 1;
        min-width: 0;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      .queued li button.btn {
        flex: none;
        padding: 0 6px;
        line-height: 18px;
      }
      .compacted {
        margin: 8px 0 12px;
        padding: 4px 8px;
        border-top: 1px dashed var(--vscode-widget-border);
        border-bottom: 1px dashed var(--vscode-widget-border);
      }
      .compacted .bubble {
        white-space: pre-wrap;
        margin-top: 4px;
      }
      form {
        display: flex;
        gap: 8px;
        padding: 8px 16px 12px;
        border-top: 1px solid var(--vscode-panel-border);
        align-items: flex-end;
      }
      textarea {
        flex: 1;
        field-sizing: content; /* grows with a multi-line prefill (up to max-height) */
        min-height: 3.2em;
        max-height: 40vh;
        resize: vertical;
        font: inherit;
        color: var(--vscode-input-foreground);
        background: var(--vscode-input-background);
        border: 1px solid var(--vscode-input-border);
        border-radius: 2px;
        padding: 4px 6px;
      }
      textarea:focus {
        outline: 1px solid var(--vscode-focusBorder);
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

  /** At most one render a frame: updates that come meanwhile are rendered together. */
  protected override async scheduleUpdate(): Promise<void> {
    await nextFrame();
    super.scheduleUpdate();
  }

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

  /** Esc anywhere in the panel stops the running turn (on a permission card it denies that call
   * alone: the card handles it). */
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
      this.focusInput(); // on load: the user can type at once
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

  private async answerQuestion(params: ChatAskQuestionParams, result: ChatAskQuestionResult): Promise<void> {
    this.chat = questionAnswered(this.chat, params.questionId);
    const { sessionId, questionId } = params;
    const sent = await this.reply(this.questionReplies, questionId, result, () =>
      this.rpc.request(METHODS.CHAT_ANSWER_QUESTION, { sessionId, questionId, answers: result.answers }),
    );
    if (!sent) this.chat = questionAsked(this.chat, params); // still open: shown again
  }

  /** The message box takes focus (on load, after an answer, Stop or Esc), unless a question
   * waits: that card has it. */
  private focusInput(): void {
    void this.updateComplete.then(() => {
      if (!this.chat.questions.length && !this.chat.asked.length) this.input?.focus();
    });
  }

  private async answer(question: ChatRequestPermissionParams, result: ChatRequestPermissionResult): Promise<void> {
    this.chat = answered(this.chat, question.toolUseId);
    this.focusInput();
    const { sessionId, toolUseId } = question;
    const sent = await this.reply(this.held, toolUseId, result, () =>
      this.rpc.request(METHODS.CHAT_ANSWER_PERMISSION, { sessionId, toolUseId, ...result }),
    );
    if (!sent) this.chat = asked(this.chat, question); // still open: shown again
  }

  /** Through the request that asked this page, when it holds one; else with `send` (a question
   * the page learned of from the session's snapshot or updates). False: the answer did not get
   * there (updates only say when the questions change: the question is shown again here). */
  private async reply<R>(held: Map<string, (result: R) => void>, id: string, result: R, send: () => Promise<unknown>): Promise<boolean> {
    const respond = held.get(id);
    if (respond) {
      held.delete(id);
      respond(result);
      return true;
    }
    try {
      await send();
      return true;
    } catch (err) {
      this.error = plainReason(err);
      return false;
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

  /** Cancel one running hook (its process tree is stopped as its timeout would; the turn goes on). */
  private async cancelHook(id: string): Promise<void> {
    const sessionId = this.chat.sessionId;
    if (!sessionId) return;
    this.chat = cancelling(this.chat, id);
    try {
      await this.rpc.request(METHODS.CHAT_CANCEL_HOOK, { sessionId, hookRunId: id });
    } catch (err) {
      this.error = plainReason(err);
    }
  }

  private async cancel(): Promise<void> {
    const sessionId = this.chat.sessionId;
    if (!this.chat.open || !sessionId) return;
    this.focusInput();
    try {
      await this.rpc.request(METHODS.CHAT_CANCEL, { sessionId });
    } catch (err) {
      this.error = plainReason(err);
    }
  }

  /** Take one message out of the queue before it starts; the server's update confirms it. */
  private async removeQueued(message: QueuedMessage): Promise<void> {
    const sessionId = this.chat.sessionId;
    if (!this.chat.open || !sessionId) return;
    this.chat = unqueued(this.chat, message.id);
    this.focusInput();
    try {
      await this.rpc.request(METHODS.CHAT_REMOVE_QUEUED, { sessionId, id: message.id });
    } catch (err) {
      this.error = plainReason(err);
    }
  }

  /** Send the messages Stop held, in order (a new message would send them too, before it). */
  private async sendQueued(): Promise<void> {
    const sessionId = this.chat.sessionId;
    if (!this.chat.open || !sessionId) return;
    this.error = null;
    this.focusInput();
    try {
      await this.rpc.request(METHODS.CHAT_SEND_QUEUED, { sessionId });
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
      this.renderRoot.querySelector<HTMLElement>(`wave-permission-card[data-tool-use-id="${CSS.escape(first)}"]`)?.focus();
    }
    this.focusedQuestion = first;
    if (this.chat.sessionId) this.dataset.sessionId = this.chat.sessionId;
  }

  private renderMessage(m: ChatMessage, heading: boolean) {
    if (m.role === "assistant") return renderAssistant(m, heading, this.showHook);
    return m.isCompactSummary
      ? html`<details class="compacted" data-testid="compacted">
          <summary>${t("chat.compacted")}</summary>
          <div class="bubble">${m.content}</div>
        </details>`
      : html`<div class="msg user" data-role="user">
          <div class="who">${t("chat.you")}</div>
          <div class="bubble">${m.content}</div>
        </div>`;
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
        ${repeat(
          messages,
          (m) => m.id,
          (m, i) => {
            const heading = startsTurn(messages, i);
            // A message is rendered again only when it changed (the state made a new object).
            return guard([m, heading, this.language], () => this.renderMessage(m, heading));
          },
        )}
      </div>
      <wave-live-hooks
        .live=${this.chat.liveHooks}
        .at=${this.chat.liveAt}
        .language=${this.language}
        @cancel-hook=${(e: CustomEvent<{ id: string }>) => void this.cancelHook(e.detail.id)}
      ></wave-live-hooks>
      ${running ? this.renderRunning() : nothing}
      ${this.chat.queue.length ? this.renderQueue() : nothing}
      ${this.chat.questions.map(
        (q) => html`<wave-permission-card
          .question=${q}
          data-tool-use-id=${q.toolUseId}
          @answer=${(e: CustomEvent<ChatRequestPermissionResult>) => void this.answer(q, e.detail)}
        ></wave-permission-card>`,
      )}
      ${this.chat.asked.map(
        (q) => html`<wave-question-card .question=${q} @answer=${(e: CustomEvent<ChatAskQuestionResult>) => void this.answerQuestion(q, e.detail)}></wave-question-card>`,
      )}
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : nothing}
      ${this.draftKept ? html`<p class="muted draft-note" role="status" data-testid="draft-kept">${t("chat.draftKept")}</p>` : nothing}
      <wave-hooks-status .rpc=${this.rpc} .language=${this.language} ?canTrust=${this.rpc.transportName !== "websocket"}></wave-hooks-status>
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

  /** The queue: each message with its Remove; after Stop it waits for the user, who sends it. */
  private renderQueue() {
    const { queue, queueHeld } = this.chat;
    const heading = queueHeld ? t("chat.queuedHeld", { n: queue.length }) : `${t("chat.queued")} (${queue.length})`;
    return html`<section class="queued muted" data-testid="queued" data-held=${queueHeld ? "true" : "false"} aria-label=${heading}>
      <div class="queue-head">
        <span data-testid="queued-heading">${heading}</span>
        ${queueHeld
          ? html`<button type="button" class="btn" data-action="send-queued" @click=${() => void this.sendQueued()}>${t("chat.sendQueued")}</button>`
          : nothing}
      </div>
      <ul>
        ${repeat(
          queue,
          (q) => q.id,
          (q) => html`<li data-testid="queued-item" data-queue-id=${q.id}>
            <span class="text">${q.text}</span>
            <button
              type="button"
              class="btn"
              data-action="remove-queued"
              title=${t("chat.removeQueued")}
              aria-label=${t("chat.removeQueuedLabel", { text: q.text })}
              @click=${() => void this.removeQueued(q)}
            >
              ${t("chat.removeQueued")}
            </button>
          </li>`,
        )}
      </ul>
    </section>`;
  }

  private renderRunning() {
    const messages = this.chat.runningHooks;
    return html`<div class="running" role="status" data-testid="running">
      <vscode-progress-ring></vscode-progress-ring>
      <span>${this.chat.questions.length || this.chat.asked.length ? t("chat.waitingApproval") : messages.length ? messages.join(" · ") : t("chat.running")}</span>
    </div>`;
  }

  /** Ask the page to show this hook's row on the settings page. */
  private showHook = (hookId: string): void => {
    this.dispatchEvent(new CustomEvent("show-hook", { detail: { hookId }, bubbles: true, composed: true }));
  };
}

/** The next animation frame (or a moment, where frames are not drawn: a hidden page). */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 50);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-chat-panel": WaveChatPanel;
  }
}
