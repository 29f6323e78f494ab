/**
 * The chat panel's state: the session's, as the server reports it — the snapshot `wave/chat/open`
 * answers, then the updates after it. Nothing lives only in the page: a re-created page that
 * re-attaches gets all of it back (messages, queue, running hooks, pending questions). Pure.
 */

import type {
  ChatMessage,
  ChatOpenResult,
  ChatRequestPermissionParams,
  ChatUpdatedParams,
  SessionStatus,
} from "../protocol/chat";

export interface ChatState {
  sessionId: string | null;
  /** The snapshot arrived: the session is open and takes messages. */
  open: boolean;
  messages: ChatMessage[];
  status: SessionStatus;
  /** The user's messages waiting for the running turn, oldest first (the server's list). */
  queuedTexts: string[];
  /** The statusMessages of the hooks running now. */
  runningHooks: string[];
  /** Permission questions waiting for an answer. */
  questions: ChatRequestPermissionParams[];
}

export const EMPTY: ChatState = {
  sessionId: null,
  open: false,
  messages: [],
  status: "idle",
  queuedTexts: [],
  runningHooks: [],
  questions: [],
};

/** Before the snapshot arrives: the session's updates are taken, the snapshot replaces them. */
export function attaching(sessionId: string): ChatState {
  return { ...EMPTY, sessionId };
}

export function opened(result: ChatOpenResult): ChatState {
  return {
    sessionId: result.sessionId,
    open: true,
    messages: result.messages.slice(),
    status: result.status,
    queuedTexts: result.queuedTexts.slice(),
    runningHooks: result.runningHooks.slice(),
    questions: result.pendingPermissions.slice(),
  };
}

export function apply(state: ChatState, update: ChatUpdatedParams): ChatState {
  if (update.sessionId !== state.sessionId) return state;
  const messages = state.messages.slice();
  for (const delta of update.deltas) {
    if (delta.op === "remove") {
      const at = messages.findIndex((m) => m.id === delta.messageId);
      if (at >= 0) messages.splice(at, 1);
    } else if (delta.index < messages.length) {
      messages[delta.index] = delta.message;
    } else {
      messages.push(delta.message);
    }
  }
  return {
    ...state,
    messages,
    status: update.status,
    queuedTexts: update.queuedTexts.slice(),
    runningHooks: update.runningHooks.slice(),
    questions: update.pendingPermissions.slice(),
  };
}

/** A question the page was asked directly (it may come before the update that lists it). */
export function asked(state: ChatState, question: ChatRequestPermissionParams): ChatState {
  if (question.sessionId !== state.sessionId) return state;
  if (state.questions.some((q) => q.toolUseId === question.toolUseId)) return state;
  return { ...state, questions: [...state.questions, question] };
}

/** A question this page answered: gone here at once (the server's update confirms it). */
export function answered(state: ChatState, toolUseId: string): ChatState {
  return { ...state, questions: state.questions.filter((q) => q.toolUseId !== toolUseId) };
}

/** What the conversation shows: isMeta user messages are for the model only, except that a
 * compaction summary is shown as a marker. */
export function visibleMessages(state: ChatState): ChatMessage[] {
  return state.messages.filter((m) => !(m.role === "user" && m.isMeta && !m.isCompactSummary));
}
