/** How the chat panel words and groups what the server sends. Pure functions. */

import type { ChatMessage } from "../protocol/chat";
import type { ToolBlock } from "../protocol/generated";

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
