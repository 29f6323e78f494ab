import { describe, expect, it } from "vitest";

import { apply, opened, queued, visibleMessages } from "../src/chat/state";
import type { ChatOpenResult, ChatUpdatedParams } from "../src/protocol/chat";
import type { AssistantMessage, UserMessage } from "../src/protocol/generated";

// Wire shapes as the server sends them (generated types).
const user = (id: string, content: string, isMeta = false): UserMessage => ({
  role: "user",
  id,
  content,
  isMeta,
  isCompactSummary: false,
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
    permissionMode: "default",
    provider: "scripted",
    model: "scripted",
    messages,
  };
}

function update(over: Partial<ChatUpdatedParams>): ChatUpdatedParams {
  return { sessionId: "s", deltas: [], status: "running", queued: 0, runningHooks: [], ...over };
}

describe("chat state", () => {
  const start = opened(openResult([user("u1", "hi")]));

  it("keeps the server's messages as they are: every field, discriminators set", () => {
    const tool = { type: "tool", id: "x", name: "Bash", input: {}, status: "pending", result: null, error: null } as const;
    const notice = { type: "notice", level: "info", text: "n", event: null, command: null, exitCode: null } as const;
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

  it("shows queued messages until their turn starts", () => {
    let s = apply(start, update({ status: "running" }));
    s = queued(s, "second");
    s = queued(s, "third");
    s = apply(s, update({ queued: 2 }));
    expect(s.queuedTexts).toEqual(["second", "third"]);
    s = apply(s, update({ queued: 1 }));
    expect(s.queuedTexts).toEqual(["third"]);
    s = apply(s, update({ status: "idle", queued: 0 }));
    expect([s.queuedTexts, s.status]).toEqual([[], "idle"]);
  });

  it("keeps the running hooks' status messages as the server reports them", () => {
    let s = apply(start, update({ runningHooks: ["Checking the command…"] }));
    expect(s.runningHooks).toEqual(["Checking the command…"]);
    s = apply(s, update({ status: "idle" }));
    expect(s.runningHooks).toEqual([]);
  });
});
