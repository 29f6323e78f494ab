/**
 * The chat panel's view of the `wave/chat/*` protocol: the generated wire types, exactly as the
 * server writes them (every field present, nulls explicit, discriminators required), so the panel
 * renders them as they come: `role`, `type` and `op` say what a value is.
 */

import type { AssistantMessage, ChatUpdatedParams, UserMessage } from "./generated";

export type {
  AssistantMessage,
  ChatAskQuestionParams,
  ChatAskQuestionResult,
  ChatCancelResult,
  ChatCompactResult,
  ChatOpenParams,
  ChatOpenResult,
  ChatRequestPermissionParams,
  ChatRequestPermissionResult,
  ChatSendResult,
  ChatUpdatedParams,
  QueuedMessage,
  NoticeBlock,
  TextBlock,
  ToolBlock,
  UserMessage,
} from "./generated";

export type ChatMessage = UserMessage | AssistantMessage;
export type Block = AssistantMessage["blocks"][number];
export type SessionStatus = ChatUpdatedParams["status"];
