/**
 * The chat's honesty line: when hooks the user set up do not run for this session — every hook
 * off (`disableAllHooks`), project hooks of an untrusted workspace, a file that does not parse, a
 * dialect switched off — the chat says so above its input, before and during a turn, in one line
 * with "Why?" (the settings page, which opens where the problem is) and the way out where there
 * is one: the file at the error's line, the IDE's own trust action.
 *
 * It reads the same list the settings page shows (wave/hooks/list, again on wave/hooks/changed):
 * what it says is what the engine would load now.
 */

import "@vscode-elements/elements/dist/vscode-button/index.js";

import { LitElement, css, html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";

import { type Lang, lang, t } from "../i18n";
import { METHODS, SHELL_COMMANDS } from "../protocol/generated";
import { type HooksList, listOf } from "../settings/model";
import { base } from "../styles";
import type { RpcClient } from "../transport/rpc";
import { type HooksOff, hooksOff, offText } from "./hooks-off";

@customElement("wave-hooks-status")
export class WaveHooksStatus extends LitElement {
  static override styles = [
    base,
    css`
      :host {
        display: block;
      }
      .off {
        display: flex;
        flex-wrap: wrap;
        gap: 4px 10px;
        align-items: baseline;
        margin: 0 16px 6px;
        padding: 4px 8px;
        border-left: 3px solid var(--vscode-inputValidation-warningBorder);
        background: var(--vscode-inputValidation-warningBackground);
      }
      .off span {
        flex: 1 1 16em;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .off .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
      }
    `,
  ];

  @property({ attribute: false }) rpc!: RpcClient;
  /** The language rendered in (set by the panel, so that a new locale re-renders the line). */
  @property({ attribute: false }) language: Lang = lang();
  /** Whether the shell has a trust action of its own (VS Code, JetBrains; not a browser). */
  @property({ type: Boolean }) canTrust = false;
  @state() private list: HooksList | null = null;
  private seq = 0;
  private unsubscribe: (() => void) | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = this.rpc.onNotification(METHODS.HOOKS_CHANGED, () => void this.load());
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  /** The list again (a later answer wins over an earlier slow one); a failed read says nothing
   * here: the settings page is where a list that cannot load is told. */
  async load(): Promise<void> {
    const seq = ++this.seq;
    try {
      const list = await this.rpc.request(METHODS.HOOKS_LIST, {});
      if (seq === this.seq) this.list = listOf(list);
    } catch {
      if (seq === this.seq) this.list = null;
    }
  }

  private why(): void {
    this.rpc.shell(SHELL_COMMANDS.OPEN_SETTINGS, {});
  }

  private open(path: string, line: number | null, pointer: string | null = null): void {
    void this.rpc.request(METHODS.OPEN_CONFIG_FILE, { path, ...(line !== null ? { line } : {}), ...(pointer ? { pointer } : {}) }).catch(() => {});
  }

  override render() {
    const reasons = this.list ? hooksOff(this.list) : [];
    const first = reasons[0];
    if (!first) return nothing;
    const more = reasons.length - 1;
    const { dir, home } = this.list!.project;
    return html`<div class="off" role="status" data-testid="hooks-off" data-kind=${first.kind}>
      <span>${offText(first, dir, home ?? null)}${more ? ` ${t("hooksOff.more", { n: more })}` : ""}</span>
      <div class="actions">
        <vscode-button secondary data-action="hooks-why" @click=${() => this.why()}>${t("hooksOff.why")}</vscode-button>
        ${this.wayOut(first)}
      </div>
    </div>`;
  }

  private wayOut(off: HooksOff) {
    switch (off.kind) {
      case "disabled":
        return html`<vscode-button secondary data-action="hooks-open" @click=${() => this.open(off.file, null, "/disableAllHooks")}>${t("settings.openFile")}</vscode-button>`;
      case "broken":
        return html`<vscode-button secondary data-action="hooks-open" @click=${() => this.open(off.file, off.line)}>${off.line === null ? t("settings.openFile") : t("hooksOff.openAt", { line: off.line })}</vscode-button>`;
      case "dialectOff":
        return html`<vscode-button secondary data-action="hooks-open" @click=${() => this.open(off.file, null, "/hookDialects")}>${t("settings.openFile")}</vscode-button>`;
      case "untrusted":
        return this.canTrust
          ? html`<vscode-button secondary data-action="hooks-trust" @click=${() => this.rpc.shell(SHELL_COMMANDS.MANAGE_TRUST, {})}>${t("hooksOff.trust")}</vscode-button>`
          : nothing;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "wave-hooks-status": WaveHooksStatus;
  }
}
