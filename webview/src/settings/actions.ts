/**
 * What the settings page's buttons do, in the order the shells need (docs/architecture.md, "Protocol").
 *
 * The prompts come in the page's language (it may differ from the workspace's: `?locale=`).
 *
 * New:    wave/hooks/prefill → shell openChat {prefill} → shell closeSettings
 * Edit:   wave/hooks/prefill → wave/openConfigFile at the hook's entry (awaited, bounded) →
 *         openChat → closeSettings
 *         Closing destroys the settings page (VS Code disposes the panel, JetBrains closes the
 *         editor): anything sent after it is lost, so `closeSettings` is always the page's last
 *         message — the open request goes first and its answer is awaited, then the chat is
 *         opened (a shell handles messages in order). With no config path, only the prompt is
 *         prefilled (no invented path).
 * Delete: wave/hooks/delete, whose answer carries the list as it is now; after a failure the
 *         list is reloaded from the server.
 */

import { lang } from "../i18n";
import {
  type HookRunEntry,
  type HooksPrefillParams,
  type HooksPrefillResult,
  METHODS,
  type OpenConfigFileResult,
  SHELL_COMMANDS,
} from "../protocol/generated";
import type { RpcClient } from "../transport/rpc";
import { type HookRow, type HooksList, listOf, rowOf } from "./model";

/** How long Edit waits for the config file to open before it closes the page anyway. */
export const OPEN_CONFIG_TIMEOUT_MS = 5_000;

export interface EditOutcome {
  prompt: string;
  configPath: string | null;
  /** Set when the file could not be opened (the prompt is still prefilled). */
  openError: unknown;
  opened: OpenConfigFileResult | null;
}

export class HooksActions {
  constructor(
    private readonly rpc: RpcClient,
    private readonly openTimeoutMs = OPEN_CONFIG_TIMEOUT_MS,
  ) {}

  /** The list, its compact rows filled in from their files. */
  async list(): Promise<HooksList> {
    return listOf(await this.rpc.request(METHODS.HOOKS_LIST, {}));
  }

  /** New: the seed's template, or a starter hook's prompt (the template filled in). */
  async newHook(source: "user" | "project", starter: HooksPrefillParams["starter"] = null): Promise<HooksPrefillResult> {
    const prefill = await this.rpc.request(METHODS.HOOKS_PREFILL, { action: "new", source, locale: lang(), ...(starter ? { starter } : {}) });
    this.handOverToChat(prefill.prompt);
    return prefill;
  }

  async editHook(hook: HookRow): Promise<EditOutcome> {
    const prefill = await this.rpc.request(METHODS.HOOKS_PREFILL, {
      action: "edit",
      source: hook.source,
      id: hook.id,
      locale: lang(),
    });
    // The hook's own file, as the list reported it (absolute); the server's answer otherwise.
    const configPath = hook.path || prefill.configPath || null;
    let opened: OpenConfigFileResult | null = null;
    let openError: unknown = null;
    if (configPath) {
      try {
        // At the hook's own lines (its entry, found by its JSON pointer in its file).
        const at = configPath === hook.path ? { pointer: hook.pointer } : {};
        opened = await this.rpc.request(METHODS.OPEN_CONFIG_FILE, { path: configPath, ...at }, this.openTimeoutMs);
      } catch (err) {
        openError = err; // a file that will not open must not keep the user from the chat
      }
    }
    this.handOverToChat(prefill.prompt);
    return { prompt: prefill.prompt, configPath, openError, opened };
  }

  /** Delete, and the list as it is now with the last runs under its ids (one round trip). */
  async deleteHook(hook: HookRow): Promise<{ deleted: HookRow; listing: HooksList; lastRuns: HookRunEntry[] }> {
    const { deleted, listing, lastRuns } = await this.rpc.request(METHODS.HOOKS_DELETE, { id: hook.id });
    return { deleted: rowOf(deleted, listing.configFiles), listing: listOf(listing), lastRuns };
  }

  /** Open a listed config file in the IDE, at `line` when known (a parse error's line). */
  openFile(path: string, line: number | null): Promise<OpenConfigFileResult> {
    return this.rpc.request(METHODS.OPEN_CONFIG_FILE, { path, line }, this.openTimeoutMs);
  }

  /** Hand a prompt to the chat (e.g. "fix this file"), like New does. */
  askWave(prompt: string): void {
    this.handOverToChat(prompt);
  }

  private handOverToChat(prompt: string): void {
    this.rpc.shell(SHELL_COMMANDS.OPEN_CHAT, { prefill: prompt });
    this.rpc.shell(SHELL_COMMANDS.CLOSE_SETTINGS, {}); // last: the page may be destroyed now
  }
}
