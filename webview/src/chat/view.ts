/** How the chat panel words and groups what the server sends. Pure functions. */

import type { ChatMessage } from "../protocol/chat";
import { CHAT_TOOLS, type HookRef, type NoticeBlock, type ToolBlock } from "../protocol/generated";

const SUMMARY_CHARS = 80;

function oneLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  const more = line.length > SUMMARY_CHARS || text.trim().includes("\n");
  return more ? `${line.slice(0, SUMMARY_CHARS - 1).trimEnd()}…` : line;
}

/** What a tool call ran, for its header: the command of Bash, the file of Write/Edit/Read, the
 * pattern of Glob/Grep; null when the input says nothing short. */
export function toolSummary(block: Pick<ToolBlock, "name" | "input">): string | null {
  const input = block.input;
  const field = ["command", "file_path", "pattern", "path", "url", "description"].find((k) => typeof input[k] === "string" && input[k]);
  return field ? oneLine(String(input[field])) : null;
}

/** The header of a tool call: `Bash · rm -rf build`, `Write · PLAN.md`. */
export function toolTitle(block: Pick<ToolBlock, "name" | "input">, shortPath: (path: string) => string = (p) => p): string {
  const summary = toolSummary(block);
  if (!summary) return block.name;
  const isPath = typeof block.input.file_path === "string" && summary === oneLine(String(block.input.file_path));
  return `${block.name} · ${isPath ? shortPath(summary) : summary}`;
}

/** Whether a message starts a new speaker run (the header "Wave" once per turn, not per message). */
export function startsTurn(messages: ChatMessage[], index: number): boolean {
  const message = messages[index];
  const before = messages[index - 1];
  if (!message || !before) return true;
  return message.role !== before.role;
}

/** The text the input gets when a prefill arrives: the prefill, or (over a draft of the user's)
 * the draft kept with the prefill below it — never a silent replacement. */
export function withPrefill(draft: string, prefill: string): { text: string; kept: boolean } {
  const mine = draft.trim();
  if (!mine || mine === prefill.trim() || prefill.includes(mine)) return { text: prefill, kept: false };
  return { text: `${draft.trimEnd()}\n\n${prefill}`, kept: true };
}

/** Where a hook is configured, as a person names it: `project`, `user`, the plugin's name. */
export function hookOrigin(hook: Pick<HookRef, "source" | "plugin">): string {
  return hook.source === "plugin" && hook.plugin ? hook.plugin : hook.source;
}

/** A command cut to one short line, for a header. */
export function shortCommand(command: string): string {
  return oneLine(command);
}

/** The parts of a hook notice's header: "PostToolUse:Write hook failed (exit 1)" is the page's
 * wording of `label`, `exitCode` and `level`; then origin and command. */
export interface HookLine {
  label: string;
  failed: boolean;
  exitCode: number | null;
  origin: string;
  command: string;
  hookId: string;
}

export function hookLine(notice: Pick<NoticeBlock, "label" | "event" | "level" | "exitCode" | "hook" | "command">): HookLine | null {
  const hook = notice.hook;
  if (!hook) return null;
  return {
    label: notice.label ?? notice.event ?? hook.event,
    failed: notice.level === "error",
    exitCode: notice.exitCode ?? null,
    origin: hookOrigin(hook),
    command: shortCommand(notice.command ?? hook.command),
    hookId: hook.id,
  };
}

/** Consecutive identical notices (same hook, level and text) shown once with a count. */
export function collapseNotices<B extends { type: string }>(blocks: B[]): { block: B; times: number }[] {
  const out: { block: B; times: number }[] = [];
  for (const block of blocks) {
    const last = out[out.length - 1];
    if (last && block.type === "notice" && last.block.type === "notice" && sameNotice(last.block, block)) last.times++;
    else out.push({ block, times: 1 });
  }
  return out;
}

function sameNotice(a: object, b: object): boolean {
  const x = a as NoticeBlock;
  const y = b as NoticeBlock;
  return x.level === y.level && x.text === y.text && (x.hook?.id ?? null) === (y.hook?.id ?? null) && x.label === y.label;
}

/** What a permission card shows instead of raw JSON: the command of Bash, a diff of Edit, the
 * new file of Write; null for tools with nothing better than their input. */
export type Preview =
  | { kind: "command"; command: string; description: string | null }
  | { kind: "diff"; path: string; lines: { sign: "-" | "+" | " "; text: string }[] }
  | null;

const PREVIEW_LINES = 200;

export function permissionPreview(name: string, input: Record<string, unknown>): Preview {
  const str = (key: string) => (typeof input[key] === "string" ? (input[key] as string) : null);
  const tool = Object.hasOwn(CHAT_TOOLS, name) ? CHAT_TOOLS[name] : undefined;
  if (tool?.shell && str("command") !== null) return { kind: "command", command: str("command")!, description: str("description") };
  const path = str("file_path");
  if (path === null) return null;
  if (tool?.change === "write" && str("content") !== null) {
    return { kind: "diff", path, lines: capped(str("content")!.split("\n").map((text) => ({ sign: "+" as const, text }))) };
  }
  if (tool?.change === "edit" && str("old_string") !== null && str("new_string") !== null) {
    const old = str("old_string")!.split("\n").map((text) => ({ sign: "-" as const, text }));
    const added = str("new_string")!.split("\n").map((text) => ({ sign: "+" as const, text }));
    return { kind: "diff", path, lines: capped([...old, ...added]) };
  }
  return null;
}

function capped<T extends { sign: "-" | "+" | " "; text: string }>(lines: T[]): { sign: "-" | "+" | " "; text: string }[] {
  if (lines.length <= PREVIEW_LINES) return lines;
  return [...lines.slice(0, PREVIEW_LINES), { sign: " ", text: `… ${lines.length - PREVIEW_LINES} more lines` }];
}
