/**
 * The chat methods' shapes, as the page uses them.
 *
 * PROVISIONAL: the `wave/chat/*` models belong to the session issue (issue 4) and will be
 * generated into generated.ts like the settings methods once the server defines them. Until then
 * this module mirrors the session runtime's message model (server/wavehost/session/messages.py on
 * the session branch: user messages with isMeta; assistant messages of text / tool / notice
 * blocks; StatusChanged with a queued count) so the panel can be adapted by changing this file.
 */

export type NoticeLevel = "info" | "warning" | "error";
export type ToolStatus = "pending" | "running" | "success" | "error" | "cancelled";
export type SessionStatus = "idle" | "running";

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
  result?: string | null;
  /** The failure text; when set, it is what the model saw. */
  error?: string | null;
}

export interface NoticeBlock {
  type: "notice";
  level: NoticeLevel;
  text: string;
  event?: string | null;
  command?: string | null;
  exitCode?: number | null;
}

export type Block = TextBlock | ToolBlock | NoticeBlock;

export interface UserMessage {
  role: "user";
  id: string;
  content: string;
  /** Hook text for the model only: never shown. */
  isMeta?: boolean;
}

export interface AssistantMessage {
  role: "assistant";
  id: string;
  blocks: Block[];
}

export type ChatMessage = UserMessage | AssistantMessage;

/** A hook that is running now, with the statusMessage its config gives. */
export interface RunningHook {
  event: string;
  command: string;
  statusMessage?: string | null;
}

export interface ChatOpenParams {
  sessionId?: string | null;
}

export interface ChatOpenResult {
  sessionId: string;
  messages: ChatMessage[];
  status: SessionStatus;
  queued: number;
}

export interface ChatSendParams {
  sessionId: string;
  text: string;
}

export interface ChatSessionParams {
  sessionId: string;
}

/** `wave/chat/updated`: one change to one session. */
export type ChatUpdate =
  | { sessionId: string; kind: "message"; index: number; message: ChatMessage }
  | { sessionId: string; kind: "removed"; index: number; messageId: string }
  | { sessionId: string; kind: "status"; status: SessionStatus; queued: number }
  | { sessionId: string; kind: "hooks"; running: RunningHook[] };

/** `wave/chat/requestPermission` (server → page request). */
export interface PermissionRequestParams {
  sessionId: string;
  toolUseId: string;
  toolName: string;
  toolInput: Record<string, unknown>;
  permissionMode: string;
  reason?: string | null;
}

export interface PermissionRequestResult {
  decision: "allow" | "deny" | "alwaysAllow";
  message?: string | null;
}

export const CHAT_METHODS = {
  open: "wave/chat/open",
  send: "wave/chat/send",
  cancel: "wave/chat/cancel",
  compact: "wave/chat/compact",
  updated: "wave/chat/updated",
  requestPermission: "wave/chat/requestPermission",
} as const;
