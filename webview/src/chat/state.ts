/**
 * The chat panel's state: the session's, as the server reports it — the snapshot `wave/chat/open`
 * answers, then the updates after it (deltas: a message put or removed, one block put, text
 * appended; state fields only when they changed). Nothing lives only in the page: a re-created
 * page that re-attaches gets all of it back (messages, queue, running hooks, pending questions of
 * both kinds). Pure: an update makes new objects of what it changed and keeps every other one, so
 * a view can tell what changed by identity.
 */

import type {
  Block,
  ChatAskQuestionParams,
  ChatMessage,
  ChatOpenResult,
  ChatRequestPermissionParams,
  ChatUpdatedParams,
  QueuedMessage,
  SessionStatus,
  TextBlock,
} from "../protocol/chat";
import type { LiveHooks } from "../protocol/generated";

export interface ChatState {
  sessionId: string | null;
  /** The snapshot arrived: the session is open and takes messages. */
  open: boolean;
  messages: ChatMessage[];
  status: SessionStatus;
  /** The user's messages waiting for the running turn, oldest first (the server's list), each
   * with its id (for removing it). */
  queue: QueuedMessage[];
  /** Stop held the queue: its messages wait for the user to send (or remove) them. */
  queueHeld: boolean;
  /** The statusMessages of the hooks running now. */
  runningHooks: string[];
  /** The hook processes running a while, with their last stderr lines (each Cancel-able). */
  liveHooks: LiveHooks;
  /** When they were reported (performance.now()): their elapsed times count on from there. */
  liveAt: number;
  /** Permission questions waiting for an answer. */
  questions: ChatRequestPermissionParams[];
  /** The model's questions (AskUserQuestion) and hooks' prompts waiting for the user. */
  asked: ChatAskQuestionParams[];
}

export const EMPTY: ChatState = {
  sessionId: null,
  open: false,
  messages: [],
  status: "idle",
  queue: [],
  queueHeld: false,
  runningHooks: [],
  liveHooks: { hooks: [], more: 0 },
  liveAt: 0,
  questions: [],
  asked: [],
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
    queue: result.queuedMessages.slice(),
    queueHeld: result.queueHeld,
    runningHooks: result.runningHooks.slice(),
    liveHooks: result.liveHooks ?? EMPTY.liveHooks, // a server from before liveHooks sends none
    liveAt: now(),
    questions: result.pendingPermissions.slice(),
    asked: result.pendingQuestions.slice(),
  };
}

export function apply(state: ChatState, update: ChatUpdatedParams): ChatState {
  if (update.sessionId !== state.sessionId) return state;
  const messages = update.deltas.length ? state.messages.slice() : state.messages;
  for (const delta of update.deltas) {
    switch (delta.op) {
      case "remove": {
        const at = messages[delta.index]?.id === delta.messageId ? delta.index : messages.findIndex((m) => m.id === delta.messageId);
        if (at >= 0) messages.splice(at, 1);
        break;
      }
      case "put":
        if (delta.index < messages.length) messages[delta.index] = delta.message;
        else messages.push(delta.message);
        break;
      case "block":
        withBlock(messages, delta.index, delta.block, () => delta.value);
        break;
      case "text":
        withBlock(messages, delta.index, delta.block, (block) => {
          if (block?.type !== "text") return undefined; // not what the server grew: left as it is
          const grown: TextBlock = { ...block, text: block.text + delta.text };
          streams.set(grown, streamOf(block));
          return grown;
        });
        break;
    }
  }
  return {
    ...state,
    messages,
    status: update.status ?? state.status,
    queue: update.queuedMessages?.slice() ?? state.queue,
    queueHeld: update.queueHeld ?? state.queueHeld,
    runningHooks: update.runningHooks?.slice() ?? state.runningHooks,
    ...(update.liveHooks ? { liveHooks: update.liveHooks, liveAt: now() } : {}),
    questions: update.pendingPermissions?.slice() ?? state.questions,
    asked: update.pendingQuestions?.slice() ?? state.asked,
  };
}

function now(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

/** A hook this page asked to cancel: shown as being stopped at once (the server's update
 * confirms it, or says it had ended). */
export function cancelling(state: ChatState, id: string): ChatState {
  const hooks = state.liveHooks.hooks.map((h) => (h.id === id ? { ...h, cancelling: true } : h));
  return { ...state, liveHooks: { ...state.liveHooks, hooks } };
}

/** The assistant message at `index` with its block `at` replaced by `change`'s (a new block at the end). */
function withBlock(messages: ChatMessage[], index: number, at: number, change: (block: Block | undefined) => Block | undefined): void {
  const message = messages[index];
  if (message?.role !== "assistant" || at > message.blocks.length) return;
  const block = change(message.blocks[at]);
  if (block === undefined) return;
  const blocks = message.blocks.slice();
  blocks[at] = block;
  messages[index] = { ...message, blocks };
}

/** Text blocks grown from one another by streamed text share one stream (what a view renders
 * incrementally: the text only ever grew at its end). */
const streams = new WeakMap<TextBlock, object>();

/** The stream a text block belongs to: the first block it grew from. */
export function streamOf(block: TextBlock): object {
  return streams.get(block) ?? block;
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

/** A question of the model's the page was asked directly (before or after the update listing it). */
export function questionAsked(state: ChatState, question: ChatAskQuestionParams): ChatState {
  if (question.sessionId !== state.sessionId) return state;
  if (state.asked.some((q) => q.questionId === question.questionId)) return state;
  return { ...state, asked: [...state.asked, question] };
}

/** A question of the model's this page answered: gone here at once. */
export function questionAnswered(state: ChatState, questionId: string): ChatState {
  return { ...state, asked: state.asked.filter((q) => q.questionId !== questionId) };
}

/** A queued message this page removed: gone here at once (the server's update confirms it). */
export function unqueued(state: ChatState, id: string): ChatState {
  return { ...state, queue: state.queue.filter((q) => q.id !== id) };
}

/** What the conversation shows: isMeta user messages are for the model only, except that a
 * compaction summary is shown as a marker. */
export function visibleMessages(state: ChatState): ChatMessage[] {
  return state.messages.filter((m) => !(m.role === "user" && m.isMeta && !m.isCompactSummary));
}
