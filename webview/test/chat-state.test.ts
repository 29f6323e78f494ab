import { describe, expect, it } from "vitest";

import {
  answered,
  apply,
  asked,
  attaching,
  cancelling,
  opened,
  questionAnswered,
  questionAsked,
  streamOf,
  unqueued,
  visibleMessages,
} from "../src/chat/state";
import type { ChatOpenResult, ChatUpdatedParams } from "../src/protocol/chat";
import type { AssistantMessage, UserMessage } from "../src/protocol/generated";

// Wire shapes as the server sends them (generated types).
const user = (id: string, content: string, isMeta = false): UserMessage => ({
  role: "user",
  id,
  content,
  isMeta,
  isCompactSummary: false,
  modelContent: null,
});
const assistant = (id: string, text: string): AssistantMessage => ({
  role: "assistant",
  id,
  blocks: [{ type: "text", text }],
});

function openResult(messages: (UserMessage | AssistantMessage)[], status: "idle" | "running" = "idle"): ChatOpenResult {
  return {
    sessionId: "s",
    transcriptPath: "/h/.wave/sessions/session_s.json",
    status,
    queued: 0,
    queuedTexts: [],
    queuedMessages: [],
    queueHeld: false,
    runningHooks: [],
    liveHooks: { hooks: [], more: 0 },
    pendingPermissions: [],
    pendingQuestions: [],
    permissionMode: "default",
    provider: "scripted",
    model: "scripted",
    messages,
  };
}

function question(toolUseId: string) {
  return { sessionId: "s", toolUseId, toolName: "Write", toolInput: {}, mode: "default" as const, reason: null, askedBy: null, mcpServer: null, mcpTool: null, runs: null };
}

function ask(questionId: string) {
  const options = [{ label: "Docker", description: "" }, { label: "Kubernetes", description: "" }];
  return { sessionId: "s", questionId, questions: [{ question: "Which?", header: "", options, multiSelect: false }] };
}

function update(over: Partial<ChatUpdatedParams>): ChatUpdatedParams {
  const params = { sessionId: "s", deltas: [], status: "running", queued: 0, queuedTexts: [], queuedMessages: [], queueHeld: false, runningHooks: [], liveHooks: null };
  return { ...params, pendingPermissions: [], pendingQuestions: [], ...over } as ChatUpdatedParams;
}

/** An update that changes nothing but what it is given (every state field null: unchanged). */
function only(over: Partial<ChatUpdatedParams>): ChatUpdatedParams {
  const none = { status: null, queued: null, queuedTexts: null, queuedMessages: null, queueHeld: null, runningHooks: null, liveHooks: null, pendingPermissions: null, pendingQuestions: null };
  return { sessionId: "s", deltas: [], ...none, ...over };
}

describe("chat state", () => {
  const start = opened(openResult([user("u1", "hi")]));

  it("appends streamed text to its block, puts a block by its number, keeps every message it did not change", () => {
    let s = apply(start, only({ deltas: [{ op: "put", index: 1, message: { role: "assistant", id: "a1", blocks: [] } }] }));
    const first = s.messages[0];
    s = apply(s, only({ deltas: [{ op: "block", index: 1, block: 0, value: { type: "text", text: "Hel" } }] }));
    const begun = (s.messages[1] as AssistantMessage).blocks[0]!;
    s = apply(s, only({ deltas: [{ op: "text", index: 1, block: 0, text: "lo" }] }));
    s = apply(s, only({ deltas: [{ op: "text", index: 1, block: 0, text: ", world" }] }));
    const tool = { type: "tool", id: "x", name: "Bash", input: {}, status: "pending", result: null, error: null, blockedBy: null } as const;
    s = apply(s, only({ deltas: [{ op: "block", index: 1, block: 1, value: tool }] }));
    s = apply(s, only({ deltas: [{ op: "block", index: 1, block: 1, value: { ...tool, status: "success", result: "ok" } }] }));
    const reply = s.messages[1] as AssistantMessage;
    expect(reply.blocks).toEqual([{ type: "text", text: "Hello, world" }, { ...tool, status: "success", result: "ok" }]);
    expect(s.messages[0]).toBe(first); // not changed: the same object (a view renders it once)
    expect(streamOf(reply.blocks[0] as never)).toBe(begun); // the text grew from the block it began as
    expect(s.status).toBe("idle"); // null: unchanged since the snapshot
  });

  it("leaves the state fields an update sends as null as they were, and takes the others", () => {
    const next = [{ id: "q1", text: "next" }];
    const before = opened({ ...openResult([]), status: "running", queued: 1, queuedTexts: ["next"], queuedMessages: next, runningHooks: ["Checking"] });
    const s = apply(before, only({ pendingPermissions: [question("t1")], pendingQuestions: [] }));
    expect([s.status, s.queue, s.runningHooks]).toEqual(["running", next, ["Checking"]]);
    expect(s.questions.map((q) => q.toolUseId)).toEqual(["t1"]);
    const after = apply(s, only({ status: "idle", queued: 0, queuedTexts: [], queuedMessages: [], queueHeld: false, runningHooks: [] }));
    expect([after.status, after.queue, after.runningHooks, after.questions.length]).toEqual(["idle", [], [], 1]);
  });

  it("ignores text for a block that is not a text block, and deltas for a message it does not have", () => {
    const s = apply(start, only({ deltas: [{ op: "text", index: 0, block: 0, text: "x" }, { op: "text", index: 5, block: 0, text: "y" }] }));
    expect(s.messages).toEqual(start.messages);
  });

  it("keeps the server's messages as they are: every field, discriminators set", () => {
    const tool = { type: "tool", id: "x", name: "Bash", input: {}, status: "pending", result: null, error: null, blockedBy: null } as const;
    const notice = { type: "notice", level: "info", text: "n", event: null, command: null, exitCode: null, label: null, hook: null, kind: null } as const;
    const reply: AssistantMessage = { role: "assistant", id: "a1", blocks: [{ type: "text", text: "t" }, tool, notice] };
    const s = opened(openResult([user("u1", "hi"), reply]));
    expect(s.messages).toEqual([user("u1", "hi"), reply]);
    expect(s.messages[1]).not.toBe(undefined);
  });

  it("puts messages by index (append or replace) in the order of the deltas", () => {
    const s = apply(
      start,
      update({
        deltas: [
          { op: "put", index: 1, message: assistant("a1", "Hel") },
          { op: "put", index: 1, message: assistant("a1", "Hello") },
        ],
      }),
    );
    expect(s.messages.map((m) => (m.role === "assistant" ? m.blocks : m.content))).toEqual([
      "hi",
      [{ type: "text", text: "Hello" }],
    ]);
  });

  it("removes a message and ignores other sessions' updates", () => {
    let s = apply(start, update({ deltas: [{ op: "remove", index: 0, messageId: "u1" }] }));
    expect(s.messages).toEqual([]);
    s = apply(s, update({ sessionId: "other", deltas: [{ op: "put", index: 0, message: user("x", "x") }] }));
    expect(s.messages).toEqual([]);
  });

  it("hides isMeta user messages, but shows where the conversation was compacted", () => {
    const summary: UserMessage = { ...user("c1", "Summary: …", true), isCompactSummary: true };
    const s = opened(
      openResult([user("u1", "hi"), user("m1", "<system-reminder>ctx</system-reminder>", true), assistant("a", "ok"), summary]),
    );
    expect(visibleMessages(s).map((m) => m.id)).toEqual(["u1", "a", "c1"]);
  });

  it("shows the queue as the server lists it, texts and ids included, and whether Stop held it", () => {
    const second = { id: "q2", text: "second" };
    const third = { id: "q3", text: "third" };
    let s = apply(start, update({ status: "running", queued: 2, queuedTexts: ["second", "third"], queuedMessages: [second, third] }));
    expect([s.queue, s.queueHeld]).toEqual([[second, third], false]);
    s = apply(s, only({ status: "idle", queueHeld: true }));
    expect([s.queue, s.queueHeld, s.status]).toEqual([[second, third], true, "idle"]);
    s = unqueued(s, "q2"); // removed by this page: gone at once
    expect(s.queue).toEqual([third]);
    s = apply(s, update({ queued: 1, queuedTexts: ["third"], queuedMessages: [third], queueHeld: true }));
    expect(s.queue).toEqual([third]);
    s = apply(s, update({ status: "idle" }));
    expect([s.queue, s.queueHeld, s.status]).toEqual([[], false, "idle"]);
  });

  it("takes the whole session from the snapshot: queue, running hooks, pending questions", () => {
    const s = opened({
      ...openResult([user("u1", "hi")], "running"),
      queued: 1,
      queuedTexts: ["next"],
      queuedMessages: [{ id: "q1", text: "next" }],
      queueHeld: true,
      runningHooks: ["Checking…"],
      pendingPermissions: [question("t1")],
    });
    expect([s.queue, s.queueHeld, s.runningHooks, s.questions]).toEqual([[{ id: "q1", text: "next" }], true, ["Checking…"], [question("t1")]]);
  });

  it("keeps pending questions as the server lists them; an answered one leaves at once", () => {
    let s = apply(start, update({ pendingPermissions: [question("t1"), question("t2")] }));
    expect(s.questions.map((q) => q.toolUseId)).toEqual(["t1", "t2"]);
    s = answered(s, "t1");
    expect(s.questions.map((q) => q.toolUseId)).toEqual(["t2"]);
    s = asked(s, question("t2")); // asked again directly: still once
    s = asked(s, { ...question("t3"), sessionId: "other" }); // another session's: never here
    expect(s.questions.map((q) => q.toolUseId)).toEqual(["t2"]);
    s = apply(s, update({ pendingPermissions: [] })); // withdrawn (Stop)
    expect(s.questions).toEqual([]);
  });

  it("keeps the model's questions as session state: from the snapshot, updates, and asked directly", () => {
    let s = opened({ ...openResult([user("u1", "hi")], "running"), pendingQuestions: [ask("q1")] });
    expect(s.asked.map((q) => q.questionId)).toEqual(["q1"]); // a re-attached page sees it
    s = questionAsked(s, ask("q1")); // the request that asked it: still once
    s = questionAsked(s, { ...ask("q2"), sessionId: "other" }); // another session's: never here
    expect(s.asked.map((q) => q.questionId)).toEqual(["q1"]);
    s = questionAnswered(s, "q1");
    expect(s.asked).toEqual([]);
    s = apply(s, update({ pendingQuestions: [ask("q3")] }));
    expect(s.asked.map((q) => q.questionId)).toEqual(["q3"]);
    s = apply(s, update({ pendingQuestions: [] })); // answered elsewhere, or its turn cancelled
    expect(s.asked).toEqual([]);
  });

  it("takes updates of its own session only, even before the snapshot", () => {
    let s = attaching("s");
    s = apply(s, update({ deltas: [{ op: "put", index: 0, message: user("u1", "hi") }] }));
    s = apply(s, update({ sessionId: "t", deltas: [{ op: "put", index: 0, message: user("x", "x") }] }));
    expect(s.messages.map((m) => m.id)).toEqual(["u1"]);
    // A removal of a message the state does not have changes nothing.
    s = apply(s, update({ deltas: [{ op: "remove", index: 0, messageId: "gone" }] }));
    expect(s.messages.map((m) => m.id)).toEqual(["u1"]);
  });

  it("keeps the running hooks' status messages as the server reports them", () => {
    let s = apply(start, update({ runningHooks: ["Checking the command…"] }));
    expect(s.runningHooks).toEqual(["Checking the command…"]);
    s = apply(s, update({ status: "idle" }));
    expect(s.runningHooks).toEqual([]);
  });

  it("takes the running hooks' live lines when an update has them and keeps them when it says null", () => {
    const ref = { id: "h1", event: "PreToolUse", matcher: "Bash", source: "project", plugin: null, command: "./check.sh" };
    const hook = { id: "hook-1", hook: ref, elapsedMs: 1200, lines: ["checking 1/3"], moreLines: 0, cancelling: false };
    let s = apply(start, only({ liveHooks: { hooks: [hook], more: 0 } }));
    expect(s.liveHooks.hooks.map((h) => h.lines)).toEqual([["checking 1/3"]]);
    const at = s.liveAt;
    s = apply(s, only({ status: "running" }));
    expect(s.liveHooks.hooks).toHaveLength(1);
    expect(s.liveAt).toBe(at);
    s = cancelling(s, "hook-1");
    expect(s.liveHooks.hooks[0]!.cancelling).toBe(true);
    s = apply(s, only({ liveHooks: { hooks: [], more: 0 } }));
    expect(s.liveHooks.hooks).toEqual([]);
  });

  it("opens a snapshot without liveHooks (a server from before them) with no running hooks", () => {
    const { liveHooks: _, ...older } = openResult([user("u1", "hi")]);
    const s = opened(older as ChatOpenResult);
    expect(s.liveHooks).toEqual({ hooks: [], more: 0 });
  });
});
