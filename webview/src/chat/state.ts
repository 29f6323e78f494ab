/** The chat panel's state, changed only by the server's updates. Pure functions. */

import type { ChatMessage, ChatOpenResult, ChatUpdate, RunningHook, SessionStatus } from "../protocol/chat";

export interface ChatState {
  sessionId: string | null;
  messages: ChatMessage[];
  status: SessionStatus;
  /** How many of the user's messages wait for the running turn (server's count). */
  queuedCount: number;
  /** The texts of those messages, as this page sent them (oldest first). */
  queuedTexts: string[];
  hooks: RunningHook[];
}

export const EMPTY: ChatState = {
  sessionId: null,
  messages: [],
  status: "idle",
  queuedCount: 0,
  queuedTexts: [],
  hooks: [],
};

export function opened(result: ChatOpenResult): ChatState {
  return {
    ...EMPTY,
    sessionId: result.sessionId,
    messages: result.messages,
    status: result.status,
    queuedCount: result.queued,
  };
}

/** A message the user sent while a turn runs waits in the queue until its turn starts. */
export function sent(state: ChatState, text: string): ChatState {
  if (state.status !== "running") return state;
  return { ...state, queuedTexts: [...state.queuedTexts, text] };
}

export function apply(state: ChatState, update: ChatUpdate): ChatState {
  if (state.sessionId !== null && update.sessionId !== state.sessionId) return state;
  switch (update.kind) {
    case "message": {
      const messages = state.messages.slice();
      if (update.index >= 0 && update.index < messages.length) messages[update.index] = update.message;
      else messages.push(update.message);
      return { ...state, messages };
    }
    case "removed": {
      const messages = state.messages.filter((m) => m.id !== update.messageId);
      return { ...state, messages };
    }
    case "status": {
      // Queued texts leave from the front as their turns start; keep the newest `queued`.
      const keep = Math.max(0, Math.min(update.queued, state.queuedTexts.length));
      return {
        ...state,
        status: update.status,
        queuedCount: update.queued,
        queuedTexts: keep ? state.queuedTexts.slice(-keep) : [],
        hooks: update.status === "idle" ? [] : state.hooks,
      };
    }
    case "hooks":
      return { ...state, hooks: update.running };
  }
}

/** What the conversation shows: isMeta user messages are for the model only. */
export function visibleMessages(state: ChatState): ChatMessage[] {
  return state.messages.filter((m) => !(m.role === "user" && m.isMeta));
}
