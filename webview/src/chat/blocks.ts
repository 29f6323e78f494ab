/**
 * The conversation as the chat panel draws it: a message's blocks (Markdown text, tool calls,
 * notices) and the line naming the hook behind a notice, a blocked call or a question. Templates
 * with their styles; the panel owns the state.
 */

import { css, html, nothing } from "lit";
import { unsafeHTML } from "lit/directives/unsafe-html.js";

import { t } from "../i18n";
import type { AssistantMessage, Block, NoticeBlock, TextBlock, ToolBlock } from "../protocol/chat";
import type { HookRef } from "../protocol/generated";
import { StreamedMarkdown } from "./markdown";
import { streamOf } from "./state";
import { type HookLine, collapseNotices, hookLine, hookOrigin, shortCommand, toolTitle } from "./view";

/** What a "Show in settings" link does (the panel, or a card, tells its page). */
export type ShowHook = (hookId: string) => void;

/** The hook line's look: the conversation's and the cards' (they draw it too). */
export const hookRefStyles = css`
  .hook-line {
    display: flex;
    flex-wrap: wrap;
    gap: 0 6px;
    align-items: baseline;
    font-size: 0.92em;
  }
  .hook-line code {
    font-family: var(--vscode-editor-font-family);
    overflow-wrap: anywhere;
  }
  .link {
    background: none;
    border: none;
    padding: 0;
    font: inherit;
    color: var(--vscode-textLink-foreground);
    text-decoration: underline;
    cursor: pointer;
  }
`;

export const blockStyles = css`
  .msg {
    margin-bottom: 12px;
  }
  .who {
    font-weight: 600;
    font-size: 0.9em;
    margin-bottom: 2px;
  }
  .markdown :is(p, ul, ol, pre) {
    margin: 4px 0;
  }
  .markdown pre {
    background: var(--vscode-textCodeBlock-background);
    padding: 6px 8px;
    border-radius: 3px;
    overflow-x: auto;
  }
  .markdown a {
    color: var(--vscode-textLink-foreground);
  }
  .tool {
    border: 1px solid var(--vscode-widget-border);
    border-left-width: 3px;
    border-radius: 3px;
    margin: 6px 0;
    padding: 4px 8px;
  }
  .tool[data-status="success"] {
    border-left-color: var(--vscode-testing-iconPassed);
  }
  .tool[data-status="error"] {
    border-left-color: var(--vscode-testing-iconFailed);
  }
  .tool[data-status="blocked"] {
    border-left-color: var(--vscode-inputValidation-warningBorder);
    border-left-style: double;
    border-left-width: 4px;
  }
  .tool[data-status="running"],
  .tool[data-status="pending"] {
    border-left-color: var(--vscode-progressBar-background);
  }
  .tool-head {
    display: flex;
    gap: 8px;
    align-items: baseline;
  }
  .tool-name {
    font-weight: 600;
    font-family: var(--vscode-editor-font-family);
  }
  .tool pre {
    white-space: pre-wrap;
    word-break: break-word;
    margin: 4px 0;
    max-height: 240px;
    overflow: auto;
  }
  .tool .failure {
    color: var(--vscode-errorForeground);
  }
  .notice {
    border-radius: 3px;
    padding: 4px 8px;
    margin: 6px 0;
    border: 1px solid;
  }
  .notice[data-level="info"] {
    border-color: var(--vscode-inputValidation-infoBorder);
    background: var(--vscode-inputValidation-infoBackground);
  }
  .notice[data-level="warning"] {
    border-color: var(--vscode-inputValidation-warningBorder);
    background: var(--vscode-inputValidation-warningBackground);
  }
  .notice[data-level="error"] {
    border-color: var(--vscode-inputValidation-errorBorder);
    background: var(--vscode-inputValidation-errorBackground);
  }
  .notice .link {
    color: inherit;
  }
  .notice-level {
    font-weight: 600;
    margin-right: 6px;
  }
  .notice.continued {
    border-style: dashed;
  }
  .notice.continued .reason {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    margin-top: 2px;
  }
`;

/** "PostToolUse:Write hook failed (exit 1) · project · `prettier …`" and a link to its row. */
export function renderHookRef(hook: HookLine, matcher: string | null, show: ShowHook) {
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
      @click=${() => show(hook.hookId)}
    >
      ${t("hook.show")}
    </button>`;
}

/** The hook line of a hook that acted on a call (refused it, asked about it). */
export function refLine(ref: HookRef): HookLine {
  return { label: ref.event, failed: false, exitCode: null, origin: hookOrigin(ref), command: shortCommand(ref.command), hookId: ref.id };
}

export function renderAssistant(message: AssistantMessage, heading: boolean, show: ShowHook) {
  return html`<div class="msg assistant" data-role="assistant">
    ${heading ? html`<div class="who">${t("chat.assistant")}</div>` : nothing}
    ${collapseNotices(message.blocks).map(({ block, times }) => renderBlock(block, times, show))}
  </div>`;
}

function renderBlock(block: Block, times: number, show: ShowHook) {
  switch (block.type) {
    case "text":
      return renderText(block);
    case "tool":
      return renderTool(block, show);
    case "notice":
      return renderNotice(block, times, show);
  }
}

/** Each text's rendering, by its stream (the blocks a streamed text grew through share one). */
const texts = new WeakMap<object, StreamedMarkdown>();

/** A text block's Markdown, as pieces: only the piece still growing is new HTML. */
function renderText(block: TextBlock) {
  const stream = streamOf(block);
  let text = texts.get(stream);
  if (!text) texts.set(stream, (text = new StreamedMarkdown()));
  text.update(block.text);
  return html`<div class="markdown">${text.pieces.map((piece) => unsafeHTML(piece))}</div>`;
}

function renderTool(block: ToolBlock, show: ShowHook) {
  const input = JSON.stringify(block.input, null, 2);
  return html`<div class="tool" data-status=${block.status} data-tool=${block.name}>
    <div class="tool-head">
      <span class="tool-name" data-testid="tool-title">${toolTitle(block)}</span>
      <span class="muted" data-testid="tool-status">${t(`tool.${block.status}`)}</span>
    </div>
    ${block.status === "blocked" && block.blockedBy
      ? html`<div class="hook-line muted" data-testid="blocked-by">
          <span>${t("tool.blockedBy")}</span>${renderHookRef(refLine(block.blockedBy), block.blockedBy.matcher, show)}
        </div>`
      : nothing}
    <details>
      <summary>${t("tool.input")}</summary>
      <pre>${input}</pre>
    </details>
    ${block.error
      ? html`<pre class="failure" data-testid="tool-error">${block.error}</pre>
          ${block.status === "cancelled" && block.result
            ? html`<div class="muted">${t("tool.partialOutput")}</div>
                <pre data-testid="tool-partial-output">${block.result}</pre>`
            : nothing}`
      : block.result
        ? html`<details><summary>${t("tool.result")}</summary><pre>${block.result}</pre></details>`
        : nothing}
  </div>`;
}

/** A Stop hook made the agent go on: a line between the two replies, with its reason. */
function renderContinued(block: NoticeBlock, show: ShowHook) {
  return html`<div class="notice continued" data-level="info" role="note" data-testid="stop-continue">
    <div class="hook-line">
      <strong>${t("notice.stopContinue", { event: block.event ?? "Stop" })}</strong>
      ${block.hook ? renderHookRef(refLine(block.hook), block.hook.matcher, show) : nothing}
    </div>
    <div class="reason" data-testid="stop-continue-reason">${block.text}</div>
  </div>`;
}

function renderNotice(block: NoticeBlock, times: number, show: ShowHook) {
  if (block.kind === "stopContinue") return renderContinued(block, show);
  const hook = hookLine(block);
  return html`<div class="notice" data-level=${block.level} role=${block.level === "error" ? "alert" : "note"} data-hook-id=${hook?.hookId ?? nothing}>
    ${hook
      ? html`<div class="hook-line" data-testid="notice-hook">${renderHookRef(hook, null, show)}</div>`
      : html`<span class="notice-level">${t(`notice.${block.level}`)}</span>`}${block.text}${times > 1
      ? html` <span class="muted" data-testid="notice-times">${t("hook.times", { n: times })}</span>`
      : nothing}
  </div>`;
}
