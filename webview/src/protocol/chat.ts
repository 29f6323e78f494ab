/**
 * The chat panel's view of the `wave/chat/*` protocol.
 *
 * The wire types are generated (generated.ts). Fields the server always fills but whose schema
 * has a default (`role`, `type`, `status`, `blocks`, …) come out optional there, so messages are
 * normalised once at the boundary into the strict shapes below, which the panel renders.
 */

import type {
  AssistantMessage as WireAssistant,
  ChatUpdatedParams,
  NoticeBlock as WireNotice,
  TextBlock as WireText,
  ToolBlock as WireTool,
  UserMessage as WireUser,
} from "./generated";

export type {
  ChatCancelResult,
  ChatCompactResult,
  ChatOpenParams,
  ChatOpenResult,
  ChatRequestPermissionParams,
  ChatRequestPermissionResult,
  ChatSendResult,
  ChatUpdatedParams,
} from "./generated";

export type NoticeLevel = WireNotice["level"];
export type ToolStatus = NonNullable<WireTool["status"]>;
export type SessionStatus = ChatUpdatedParams["status"];

export interface TextBlock {
  type: "text";
  text: string;
}

export interface ToolBlock {
  type: "tool";
  id: string;
  name: string;
  input: Record<string, unknown>;
  status: ToolStatus;
  result: string | null;
  /** The failure text; when set, it is what the model saw. */
  error: string | null;
}

export interface NoticeBlock {
  type: "notice";
  level: NoticeLevel;
  text: string;
  event: string | null;
}

export type Block = TextBlock | ToolBlock | NoticeBlock;

export interface UserMessage {
  role: "user";
  id: string;
  content: string;
  /** Hook text for the model only: never shown. */
  isMeta: boolean;
  /** Compaction's summary (also isMeta): shown as a marker, its text folded. */
  isCompactSummary: boolean;
}

export interface AssistantMessage {
  role: "assistant";
  id: string;
  blocks: Block[];
}

export type ChatMessage = UserMessage | AssistantMessage;

type WireBlock = WireText | WireTool | WireNotice;

function block(b: WireBlock): Block {
  if (b.type === "tool" || "name" in b) {
    const tool = b as WireTool;
    return {
      type: "tool",
      id: tool.id,
      name: tool.name,
      input: tool.input as Record<string, unknown>,
      status: tool.status ?? "pending",
      result: tool.result ?? null,
      error: tool.error ?? null,
    };
  }
  if (b.type === "notice" || "level" in b) {
    const notice = b as WireNotice;
    return { type: "notice", level: notice.level, text: notice.text, event: notice.event ?? null };
  }
  return { type: "text", text: (b as WireText).text ?? "" };
}

export function normalizeMessage(m: WireUser | WireAssistant, index: number): ChatMessage {
  if (m.role === "user" || "content" in m) {
    const user = m as WireUser;
    return {
      role: "user",
      id: user.id ?? `m${index}`,
      content: user.content,
      isMeta: !!user.isMeta,
      isCompactSummary: !!user.isCompactSummary,
    };
  }
  const assistant = m as WireAssistant;
  return { role: "assistant", id: assistant.id ?? `m${index}`, blocks: (assistant.blocks ?? []).map(block) };
}

export const CHAT_METHODS = {
  open: "wave/chat/open",
  send: "wave/chat/send",
  cancel: "wave/chat/cancel",
  compact: "wave/chat/compact",
  updated: "wave/chat/updated",
  requestPermission: "wave/chat/requestPermission",
} as const;
