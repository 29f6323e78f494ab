/**
 * The questions a turn waits on, each a card of its own: may this tool call run (a permission
 * question), and the model's questions or a hook's prompt (choices, or the user's words). A card
 * answers by firing `answer` with its result; the panel sends it.
 */

import "@vscode-elements/elements/dist/vscode-button/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property } from "lit/decorators.js";

import { t } from "../i18n";
import type { ChatAskQuestionParams, ChatAskQuestionResult, ChatRequestPermissionParams, ChatRequestPermissionResult } from "../protocol/chat";
import { base } from "../styles";
import { hookRefStyles, refLine, renderHookRef } from "./blocks";
import { permissionPreview } from "./view";

const cardStyles = css`
  :host {
    display: block;
  }
  .permission {
    margin: 8px 16px;
    padding: 8px 12px;
    border: 1px solid var(--vscode-focusBorder);
    border-radius: 4px;
  }
  /* They wrap in a narrow panel (VS Code's sidebar is 297 px): every answer stays in reach. */
  .buttons {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    margin-top: 8px;
  }
`;

function showHook(from: HTMLElement, hookId: string): void {
  from.dispatchEvent(new CustomEvent("show-hook", { detail: { hookId }, bubbles: true, composed: true }));
}

/** May this tool call run? Allow, always allow (this tool), deny. */
@customElement("wave-permission-card")
export class WavePermissionCard extends LitElement {
  static override styles = [
    base,
    hookRefStyles,
    cardStyles,
    css`
      .diff {
        font-family: var(--vscode-editor-font-family);
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
    `,
  ];

  @property({ attribute: false }) question!: ChatRequestPermissionParams;

  /** The card takes focus once it has drawn (a new card is asked to before its first render). */
  override focus(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(".permission")?.focus());
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener("keydown", this.onEscape);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener("keydown", this.onEscape);
  }

  /** Esc on the card denies this call, as Deny would: the turn goes on (the panel's own Esc,
   * which stops the whole turn, never hears it). */
  private onEscape = (event: KeyboardEvent): void => {
    if (event.key !== "Escape" || event.isComposing) return;
    event.preventDefault();
    event.stopPropagation();
    this.answer({ allow: false, always: false, message: null });
  };

  private answer(result: ChatRequestPermissionResult): void {
    this.dispatchEvent(new CustomEvent<ChatRequestPermissionResult>("answer", { detail: result }));
  }

  override render() {
    const q = this.question;
    const { toolName, toolInput, reason } = q;
    const preview = permissionPreview(toolName, toolInput);
    const asker = q.askedBy;
    const title = q.mcpServer && q.mcpTool ? t("permission.mcpTitle", { server: q.mcpServer, tool: q.mcpTool }) : t("permission.title", { tool: toolName });
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
            <span>${t("permission.askedBy")}</span>${renderHookRef(refLine(asker), asker.matcher, (id) => showHook(this, id))}
          </div>`
        : nothing}
      <div class="buttons">
        <vscode-button data-action="allow" @click=${() => this.answer({ allow: true, always: false, message: null })}>${t("permission.allow")}</vscode-button>
        <vscode-button secondary data-action="always" @click=${() => this.answer({ allow: true, always: true, message: null })}
          >${t("permission.alwaysScope", { tool: toolName })}</vscode-button
        >
        <vscode-button secondary data-action="deny" @click=${() => this.answer({ allow: false, always: false, message: null })}>${t("permission.deny")}</vscode-button>
      </div>
    </div>`;
  }
}

/** The model's questions (AskUserQuestion) or a hook's prompt: choices and/or the user's words. */
@customElement("wave-question-card")
export class WaveQuestionCard extends LitElement {
  static override styles = [
    base,
    cardStyles,
    css`
      fieldset {
        border: none;
        margin: 6px 0;
        padding: 0;
      }
      legend {
        font-weight: 600;
      }
      .chip {
        font-size: 0.85em;
        padding: 0 6px;
        margin-right: 6px;
        border-radius: 8px;
        background: var(--vscode-badge-background);
        color: var(--vscode-badge-foreground);
      }
      label {
        display: block;
        margin: 2px 0;
      }
      input[type="text"] {
        width: 100%;
        box-sizing: border-box;
        margin-top: 4px;
        font: inherit;
        color: var(--vscode-input-foreground);
        background: var(--vscode-input-background);
        border: 1px solid var(--vscode-input-border);
      }
    `,
  ];

  @property({ attribute: false }) question!: ChatAskQuestionParams;

  /** The answers: the chosen options (joined by ", "), or the words typed instead; none if dismissed. */
  private submit(dismissed: boolean): void {
    const answers: Record<string, string> = {};
    if (!dismissed) {
      this.question.questions.forEach((q, index) => {
        const chosen = [...this.renderRoot.querySelectorAll<HTMLInputElement>(`input[data-question="${index}"]:checked`)].map((input) => input.value);
        const typed = this.renderRoot.querySelector<HTMLInputElement>(`input[type=text][data-question="${index}"]`)?.value.trim();
        const answer = typed || chosen.join(", ");
        if (answer) answers[q.question] = answer;
      });
    }
    this.dispatchEvent(new CustomEvent<ChatAskQuestionResult>("answer", { detail: { answers } }));
  }

  override render() {
    const params = this.question;
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
        <vscode-button data-action="answer" @click=${() => this.submit(false)}>${t("question.send")}</vscode-button>
        <vscode-button secondary data-action="dismiss" @click=${() => this.submit(true)}>${t("question.dismiss")}</vscode-button>
      </div>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-permission-card": WavePermissionCard;
    "wave-question-card": WaveQuestionCard;
  }
}
