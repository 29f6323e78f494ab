import { describe, expect, it } from "vitest";

import { apply, opened, sent, visibleMessages } from "../src/chat/state";
import type { AssistantMessage, UserMessage } from "../src/protocol/chat";

const user = (id: string, content: string, isMeta = false): UserMessage => ({ role: "user", id, content, isMeta });
const assistant = (id: string, text: string): AssistantMessage => ({
  role: "assistant",
  id,
  blocks: [{ type: "text", text }],
});

describe("chat state", () => {
  const start = opened({ sessionId: "s", messages: [user("u1", "hi")], status: "idle", queued: 0 });

  it("adds and replaces messages by index as the server streams them", () => {
    let s = apply(start, { sessionId: "s", kind: "message", index: 1, message: assistant("a1", "Hel") });
    s = apply(s, { sessionId: "s", kind: "message", index: 1, message: assistant("a1", "Hello") });
    expect(s.messages).toEqual([user("u1", "hi"), assistant("a1", "Hello")]);
  });

  it("drops a removed message and ignores other sessions' updates", () => {
    let s = apply(start, { sessionId: "s", kind: "removed", index: 0, messageId: "u1" });
    expect(s.messages).toEqual([]);
    s = apply(s, { sessionId: "other", kind: "message", index: 0, message: user("x", "x") });
    expect(s.messages).toEqual([]);
  });

  it("hides isMeta user messages", () => {
    const s = opened({
      sessionId: "s",
      messages: [user("u1", "hi"), user("m1", "<system-reminder>ctx</system-reminder>", true), assistant("a", "ok")],
      status: "idle",
      queued: 0,
    });
    expect(visibleMessages(s).map((m) => m.id)).toEqual(["u1", "a"]);
  });

  it("shows messages sent during a turn as queued until their turn starts", () => {
    let s = apply(start, { sessionId: "s", kind: "status", status: "running", queued: 0 });
    s = sent(s, "second");
    s = sent(s, "third");
    s = apply(s, { sessionId: "s", kind: "status", status: "running", queued: 2 });
    expect(s.queuedTexts).toEqual(["second", "third"]);
    s = apply(s, { sessionId: "s", kind: "status", status: "running", queued: 1 });
    expect(s.queuedTexts).toEqual(["third"]);
    s = apply(s, { sessionId: "s", kind: "status", status: "idle", queued: 0 });
    expect(s.queuedTexts).toEqual([]);
  });

  it("keeps the running hooks' status messages until the turn ends", () => {
    let s = apply(start, { sessionId: "s", kind: "status", status: "running", queued: 0 });
    s = apply(s, { sessionId: "s", kind: "hooks", running: [{ event: "PreToolUse", command: "x", statusMessage: "Checking…" }] });
    expect(s.hooks).toHaveLength(1);
    s = apply(s, { sessionId: "s", kind: "status", status: "idle", queued: 0 });
    expect(s.hooks).toEqual([]);
  });

  it("does not queue a message sent while idle", () => {
    expect(sent(start, "x").queuedTexts).toEqual([]);
  });
});
