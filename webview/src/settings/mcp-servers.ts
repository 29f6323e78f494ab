import "@vscode-elements/elements/dist/vscode-button/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";

import { type Key, type Lang, lang, t } from "../i18n";
import { METHODS, type McpListResult, type McpServerEntry, type OpenConfigFileResult } from "../protocol/generated";
import { base } from "../styles";
import type { RpcClient } from "../transport/rpc";
import { plainReason } from "./model";

/** Statuses that mean "something is wrong", shown as a problem. */
const BAD = new Set<McpServerEntry["status"]>(["failed", "invalid"]);

/**
 * The settings page's "MCP servers" list (beside the hooks): each configured server, where it is
 * configured (Open config file), and where it is — connected with its tools, failed and why,
 * starting, or never started (an untrusted workspace, a wrong entry). Listed again whenever the
 * hook config or a chat session's MCP server changes.
 */
@customElement("wave-mcp-servers")
export class WaveMcpServers extends LitElement {
  static override styles = [
    base,
    css`
      :host {
        display: block;
        margin-top: 24px;
      }
      h2 {
        font-size: 1.15em;
        font-weight: 600;
        margin: 0 0 6px;
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      li.server {
        border: 1px solid var(--vscode-widget-border);
        border-radius: 3px;
        padding: 8px 10px;
        margin-bottom: 8px;
      }
      .line {
        display: flex;
        align-items: baseline;
        gap: 8px;
        flex-wrap: wrap;
      }
      .name {
        font-weight: 600;
      }
      .chip {
        border-radius: 8px;
        padding: 0 6px;
        font-size: 0.9em;
        background: var(--vscode-badge-background);
        color: var(--vscode-badge-foreground);
      }
      .state.ok {
        color: var(--vscode-testing-iconPassed);
      }
      .state.bad {
        color: var(--vscode-errorForeground);
      }
      .target {
        font-family: var(--vscode-editor-font-family);
        font-size: 0.92em;
        overflow-wrap: anywhere;
        margin: 4px 0;
      }
      details {
        margin-top: 4px;
      }
      details ul {
        padding-left: 18px;
        list-style: disc;
      }
      .actions {
        margin-top: 6px;
      }
    `,
  ];

  @property({ attribute: false }) rpc!: RpcClient;
  @property({ attribute: false }) language: Lang = lang();
  @property({ type: Boolean }) connected = true;
  @property({ attribute: false }) shortPath: (path: string) => string = (p) => p;
  @state() private list: McpListResult | null = null;
  @state() private loadError: string | null = null;
  @state() private openError: string | null = null;

  private unsubscribe: Array<() => void> = [];
  private loadSeq = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    const again = () => void this.reload();
    this.unsubscribe = [this.rpc.onNotification(METHODS.HOOKS_CHANGED, again), this.rpc.onNotification(METHODS.MCP_CHANGED, again)];
    void this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const stop of this.unsubscribe) stop();
    this.unsubscribe = [];
  }

  /** Lists from the server; a later reload wins over an earlier slow one. */
  async reload(): Promise<void> {
    const seq = ++this.loadSeq;
    try {
      const list = await this.rpc.request(METHODS.MCP_LIST, {});
      if (seq !== this.loadSeq) return;
      this.list = list;
      this.loadError = null;
    } catch (err) {
      if (seq === this.loadSeq) this.loadError = plainReason(err);
    }
  }

  private async open(server: McpServerEntry): Promise<void> {
    try {
      const opened: OpenConfigFileResult = await this.rpc.request(METHODS.OPEN_CONFIG_FILE, { path: server.path, line: server.line });
      this.openError = opened.opened ? null : t("edit.openFailed", { reason: opened.reason ?? "" });
    } catch (err) {
      this.openError = t("edit.openFailed", { reason: plainReason(err) });
    }
  }

  override render() {
    const servers = this.list?.servers ?? [];
    return html`<section aria-labelledby="mcp-title" data-testid="mcp-servers">
      <h2 id="mcp-title">${t("mcp.title")}</h2>
      ${this.loadError ? html`<div class="alert" role="alert">${t("mcp.loadFailed", { reason: this.loadError })}</div>` : nothing}
      ${this.openError ? html`<div class="alert" role="alert">${this.openError}</div>` : nothing}
      ${this.list && servers.length === 0 ? html`<p class="muted" data-testid="mcp-empty">${t("mcp.none")}</p>` : nothing}
      <ul>
        ${servers.map((s) => this.renderServer(s))}
      </ul>
    </section>`;
  }

  private renderServer(server: McpServerEntry) {
    const bad = BAD.has(server.status);
    const status = t(`mcp.status.${server.status}` as Key, { count: String(server.tools.length) });
    return html`<li class="server" data-testid="mcp-server" data-name=${server.name} data-status=${server.status}>
      <div class="line">
        <span class="name">${server.name}</span>
        <span class="chip">${t(`mcp.source.${server.source}` as Key)}</span>
        <span class="chip">${server.transport === "http" ? "HTTP" : "stdio"}</span>
        <span class="state ${server.status === "connected" ? "ok" : bad ? "bad" : "muted"}" data-testid="mcp-status">${status}</span>
      </div>
      ${server.target ? html`<div class="target muted">${server.target}</div>` : nothing}
      ${server.error ? html`<div class=${bad ? "alert" : "warning"} data-testid="mcp-error">${server.error}</div>` : nothing}
      ${server.tools.length
        ? html`<details>
            <summary>${t("mcp.tools", { count: String(server.tools.length) })}</summary>
            <ul>
              ${server.tools.map((tool) => html`<li><code>${tool}</code></li>`)}
            </ul>
          </details>`
        : nothing}
      <div class="actions line">
        <span class="path" title=${server.path}>${this.shortPath(server.path)}</span>
        <vscode-button secondary ?disabled=${!this.connected} data-action="open-mcp" @click=${() => void this.open(server)}
          >${t("mcp.open")}</vscode-button
        >
      </div>
    </li>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-mcp-servers": WaveMcpServers;
  }
}
