import { describe, expect, it } from "vitest";

import { startsTurn, toolTitle, withPrefill } from "../src/chat/view";
import type { ChatMessage } from "../src/protocol/chat";

describe("tool headers say what ran", () => {
  it("shows the command of Bash and the file of Write", () => {
    expect(toolTitle({ name: "Bash", input: { command: "rm -rf build" } })).toBe("Bash · rm -rf build");
    expect(toolTitle({ name: "Write", input: { file_path: "/work/app/PLAN.md", content: "x" } }, (p) => p.replace("/work/app/", ""))).toBe(
      "Write · PLAN.md",
    );
    expect(toolTitle({ name: "Grep", input: { pattern: "TODO", path: "src" } })).toBe("Grep · TODO");
  });

  it("keeps a long or multi-line command to one short line, and a bare name when there is nothing short", () => {
    const title = toolTitle({ name: "Bash", input: { command: `echo ${"a".repeat(200)}\nls` } });
    expect(title.length).toBeLessThan(90);
    expect(title.endsWith("…")).toBe(true);
    expect(toolTitle({ name: "Bash", input: { command: "make\nmake test" } })).toBe("Bash · make…");
    expect(toolTitle({ name: "TodoWrite", input: { todos: [] } })).toBe("TodoWrite");
  });
});

describe("one Wave header per turn", () => {
  const a = (id: string): ChatMessage => ({ role: "assistant", id, blocks: [{ type: "text", text: id }] });
  const u = (id: string): ChatMessage => ({ role: "user", id, content: id, isMeta: false, isCompactSummary: false });
  it("heads only the first of consecutive assistant messages", () => {
    const messages = [u("q"), a("1"), a("2"), a("3"), u("r"), a("4")];
    expect(messages.map((_, i) => startsTurn(messages, i))).toEqual([true, true, false, false, true, true]);
  });
});

describe("a prefill never silently replaces a draft", () => {
  it("fills an empty input", () => {
    expect(withPrefill("", "Add a hook")).toEqual({ text: "Add a hook", kept: false });
    expect(withPrefill("  \n", "Add a hook")).toEqual({ text: "Add a hook", kept: false });
  });
  it("keeps the user's draft above the prefill and says so", () => {
    expect(withPrefill("my half-written question", "Edit this hook")).toEqual({ text: "my half-written question\n\nEdit this hook", kept: true });
  });
  it("does not double the same prefill", () => {
    expect(withPrefill("Edit this hook", "Edit this hook")).toEqual({ text: "Edit this hook", kept: false });
  });
});
