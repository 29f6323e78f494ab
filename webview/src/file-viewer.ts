import "@vscode-elements/elements/dist/vscode-button/index.js";

import { LitElement, css, html } from "lit";
import { customElement, property } from "lit/decorators.js";

import { type Lang, lang, t } from "./i18n";
import { base } from "./styles";

/** Browser mode's stand-in for an editor tab: a file shown read-only (window/showDocument). */
@customElement("wave-file-viewer")
export class WaveFileViewer extends LitElement {
  static override styles = [
    base,
    css`
      :host {
        display: flex;
        flex-direction: column;
        min-height: 0;
        border-left: 1px solid var(--vscode-panel-border);
        background: var(--vscode-editor-background);
      }
      header {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 4px 8px;
        padding: 6px 10px;
        border-bottom: 1px solid var(--vscode-panel-border);
      }
      /* The path takes a line of its own in a narrow panel rather than a column a word wide. */
      header .path {
        flex: 1 1 14em;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .marked {
        background: var(--vscode-inputValidation-errorBackground);
        outline: 1px solid var(--vscode-inputValidation-errorBorder);
      }
      /* A range (a hook's entry, Edit's): shown, not an error. */
      .marked.entry {
        display: block; /* the whole width; its line ends with the block, not a newline */
        background: var(--vscode-inputValidation-infoBackground);
        outline: none;
        box-shadow: inset 3px 0 var(--vscode-inputValidation-infoBorder);
      }
      pre {
        margin: 0;
        padding: 8px 12px;
        overflow: auto;
        flex: 1;
        color: var(--vscode-editor-foreground);
      }
    `,
  ];

  @property({ attribute: false }) language: Lang = lang();
  @property() path = "";
  @property() content = "";
  /** The 1-based line to show and mark (a parse error's, a hook's first), if any. */
  @property({ attribute: false }) line: number | null = null;
  /** The last line to mark with it (a hook's whole entry). */
  @property({ attribute: false }) endLine: number | null = null;

  protected override updated(): void {
    if (this.line !== null) {
      this.renderRoot.querySelector(".marked")?.scrollIntoView({ block: "center" });
    }
  }

  override render() {
    return html`
      <header>
        <strong>${t("viewer.title")}</strong>
        <span class="path" data-testid="viewer-path">${this.path}</span>
        <vscode-button secondary @click=${() => this.dispatchEvent(new CustomEvent("close"))}
          >${t("viewer.close")}</vscode-button
        >
      </header>
      <pre tabindex="0" role="region" aria-label=${t("viewer.contentLabel", { path: this.path })} data-testid="viewer-content">${this.line === null
        ? this.content
        : this.content.split("\n").map((text, i) => {
            const marked = i + 1 >= this.line! && i + 1 <= Math.max(this.line!, this.endLine ?? this.line!);
            if (marked && this.endLine) return html`<span class="marked entry" data-line=${i + 1}>${text || " "}</span>`;
            return html`<span class=${marked ? "marked" : ""} data-line=${i + 1}>${text}\n</span>`;
          })}</pre>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-file-viewer": WaveFileViewer;
  }
}
