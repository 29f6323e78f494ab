/** The chat panel's state, changed only by the server's answers and updates. Pure functions. */

import type { ChatMessage, ChatOpenResult, ChatUpdatedParams, SessionStatus } from "../protocol/chat";

export interface ChatState {
  sessionId: string | null;
  messages: ChatMessage[];
  status: SessionStatus;
  /** How many of the user's messages wait for the running turn (the server's count). */
  queuedCount: number;
  /** The texts of those messages, as this page sent them (oldest first). */
  queuedTexts: string[];
  /** The statusMessages of the hooks running now. */
  runningHooks: string[];
}

export const EMPTY: ChatState = {
  sessionId: null,
  messages: [],
  status: "idle",
  queuedCount: 0,
  queuedTexts: [],
  runningHooks: [],
};

export function opened(result: ChatOpenResult): ChatState {
  return {
    ...EMPTY,
    sessionId: result.sessionId,
    messages: result.messages.slice(),
    status: result.status,
    queuedCount: result.queued,
  };
}

/** The server queued a message the user sent while a turn runs: show it until its turn starts. */
export function queued(state: ChatState, text: string): ChatState {
  return { ...state, queuedTexts: [...state.queuedTexts, text] };
}

export function apply(state: ChatState, update: ChatUpdatedParams): ChatState {
  if (state.sessionId !== null && update.sessionId !== state.sessionId) return state;
  const messages = state.messages.slice();
  for (const delta of update.deltas) {
    if (delta.op === "remove") {
      const at = messages.findIndex((m) => m.id === delta.messageId);
      messages.splice(at >= 0 ? at : delta.index, 1);
    } else if (delta.index < messages.length) {
      messages[delta.index] = delta.message;
    } else {
      messages.push(delta.message);
    }
  }
  // Queued texts leave from the front as their turns start: keep the newest `queued`.
  const keep = Math.max(0, Math.min(update.queued, state.queuedTexts.length));
  return {
    ...state,
    messages,
    status: update.status,
    queuedCount: update.queued,
    queuedTexts: keep ? state.queuedTexts.slice(-keep) : [],
    runningHooks: update.runningHooks,
  };
}

/** What the conversation shows: isMeta user messages are for the model only, except that a
 * compaction summary is shown as a marker. */
export function visibleMessages(state: ChatState): ChatMessage[] {
  return state.messages.filter((m) => !(m.role === "user" && m.isMeta && !m.isCompactSummary));
}
