import { css } from "lit";

/** Shared look: only `--vscode-*` variables (theme.css gives them light/dark defaults). */
export const base = css`
  :host {
    color: var(--vscode-foreground, #cccccc);
    font-family: var(--vscode-font-family, system-ui, sans-serif);
    font-size: var(--vscode-font-size, 13px);
  }
  code,
  pre {
    font-family: var(--vscode-editor-font-family, ui-monospace, monospace);
    font-size: var(--vscode-editor-font-size, 12px);
  }
  .muted {
    color: var(--vscode-descriptionForeground, #9d9d9d);
  }
  .path {
    font-family: var(--vscode-editor-font-family, ui-monospace, monospace);
    font-size: 0.92em;
    word-break: break-all;
    color: var(--vscode-textLink-foreground, #4daafc);
  }
  .alert {
    border: 1px solid var(--vscode-inputValidation-errorBorder, #be1100);
    background: var(--vscode-inputValidation-errorBackground, #5a1d1d);
    color: var(--vscode-foreground, #cccccc); /* errorForeground on this background fails contrast */
    padding: 6px 10px;
    border-radius: 2px;
    margin: 8px 0;
  }
  .alert .muted,
  .warning .muted {
    color: inherit;
  }
  .status {
    border: 1px solid var(--vscode-inputValidation-infoBorder, #007acc);
    background: var(--vscode-inputValidation-infoBackground, #063b49);
    padding: 6px 10px;
    border-radius: 2px;
    margin: 8px 0;
  }
  .warning {
    border: 1px solid var(--vscode-inputValidation-warningBorder, #b89500);
    background: var(--vscode-inputValidation-warningBackground, #352a05);
    padding: 6px 10px;
    border-radius: 2px;
    margin: 8px 0;
  }
  :focus-visible {
    outline: 1px solid var(--vscode-focusBorder, #0078d4);
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
