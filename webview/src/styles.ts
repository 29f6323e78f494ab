import { css } from "lit";

/**
 * The page's look, shared by every component. Colours are only `--vscode-*` variables, never a
 * fallback: `theme.css` is the one map of their light and dark defaults (VS Code sets them all,
 * the JetBrains plugin sets every one it defines). A unit test holds the two to each other.
 */
export const base = css`
  :host {
    color: var(--vscode-foreground);
    font-family: var(--vscode-font-family);
    font-size: var(--vscode-font-size);
  }
  code,
  pre {
    font-family: var(--vscode-editor-font-family);
    font-size: var(--vscode-editor-font-size);
  }
  .muted {
    color: var(--vscode-descriptionForeground);
  }
  .path {
    font-family: var(--vscode-editor-font-family);
    font-size: 0.92em;
    word-break: break-all;
    color: var(--vscode-textLink-foreground);
  }
  .alert {
    border: 1px solid var(--vscode-inputValidation-errorBorder);
    background: var(--vscode-inputValidation-errorBackground);
    color: var(--vscode-foreground); /* errorForeground on this background fails contrast */
    padding: 6px 10px;
    border-radius: 2px;
    margin: 8px 0;
  }
  .alert .muted,
  .warning .muted {
    color: inherit;
  }
  .status {
    border: 1px solid var(--vscode-inputValidation-infoBorder);
    background: var(--vscode-inputValidation-infoBackground);
    padding: 6px 10px;
    border-radius: 2px;
    margin: 8px 0;
  }
  .warning {
    border: 1px solid var(--vscode-inputValidation-warningBorder);
    background: var(--vscode-inputValidation-warningBackground);
    padding: 6px 10px;
    border-radius: 2px;
    margin: 8px 0;
  }
  :focus-visible {
    outline: 1px solid var(--vscode-focusBorder);
    outline-offset: 1px;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;

/** Small controls several components draw: chips and badges, native buttons styled as VS Code's
 * secondary ones, link buttons, modal dialogs. */
export const controls = css`
  .chip,
  .badge {
    display: inline-block;
    padding: 0 6px;
    border-radius: 8px;
    font-size: 0.9em;
    background: var(--vscode-badge-background);
    color: var(--vscode-badge-foreground);
    overflow-wrap: anywhere;
  }
  .chip.warn,
  .badge.warn {
    background: var(--vscode-inputValidation-warningBackground);
    color: var(--vscode-foreground);
    border: 1px solid var(--vscode-inputValidation-warningBorder);
  }
  .badge.problem {
    background: var(--vscode-inputValidation-errorBackground);
    color: var(--vscode-foreground);
    border: 1px solid var(--vscode-inputValidation-errorBorder);
  }
  /* Native buttons, not <vscode-button>: hundreds of rows × custom elements with their own
     shadow roots made the first render several times slower. */
  button.btn {
    font: inherit;
    color: var(--vscode-button-secondaryForeground);
    background: var(--vscode-button-secondaryBackground);
    border: 1px solid var(--vscode-button-border);
    border-radius: 2px;
    padding: 2px 10px;
    line-height: 20px;
    cursor: pointer;
  }
  button.btn:hover:not(:disabled) {
    background: var(--vscode-button-secondaryHoverBackground);
  }
  button.btn:disabled {
    opacity: 0.55;
    cursor: default;
  }
  button.link {
    background: none;
    border: none;
    padding: 0;
    font: inherit;
    color: var(--vscode-textLink-foreground);
    cursor: pointer;
    text-decoration: underline;
  }
  button.link:disabled {
    color: inherit;
    cursor: default;
    text-decoration: none;
  }
  dialog {
    color: var(--vscode-foreground);
    background: var(--vscode-editorWidget-background);
    border: 1px solid var(--vscode-widget-border);
    border-radius: 4px;
    box-sizing: border-box;
  }
  dialog::backdrop {
    background: rgba(0, 0, 0, 0.4);
  }
  .command {
    display: block;
    margin: 6px 0 4px;
    padding: 4px 6px;
    background: var(--vscode-textCodeBlock-background);
    border-radius: 3px;
    white-space: pre-wrap;
    word-break: normal;
    overflow-wrap: normal;
    overflow-x: auto;
  }
`;
