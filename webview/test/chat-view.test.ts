import { describe, expect, it } from "vitest";

import { collapseNotices, hookLine, permissionPreview, startsTurn, toolTitle, withPrefill } from "../src/chat/view";
import type { NoticeBlock } from "../src/protocol/generated";
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
  const u = (id: string): ChatMessage => ({ role: "user", id, content: id, isMeta: false, isCompactSummary: false, modelContent: null });
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

describe("hook notices name their hook", () => {
  const hook = { id: "h1", event: "PostToolUse", matcher: "Write|Edit", source: "project", plugin: null, command: "prettier --write $FILE\nmore" };
  const notice = (over: Partial<NoticeBlock> = {}): NoticeBlock => ({
    type: "notice",
    level: "error",
    text: "prettier not found",
    event: "PostToolUse",
    command: hook.command,
    exitCode: 1,
    label: "PostToolUse:Write",
    hook,
    kind: null,
    ...over,
  });

  it("gives label, exit code, origin and the command on one line, and the row to link to", () => {
    expect(hookLine(notice())).toEqual({
      label: "PostToolUse:Write",
      failed: true,
      exitCode: 1,
      origin: "project",
      command: "prettier --write $FILE…",
      hookId: "h1",
    });
    expect(hookLine(notice({ hook: { ...hook, source: "plugin", plugin: "lint-kit" } }))?.origin).toBe("lint-kit");
    expect(hookLine(notice({ hook: null }))).toBeNull(); // not from a hook (provider failure, …)
  });

  it("shows a repeated notice once with a count, and keeps different ones apart", () => {
    const text = { type: "text" as const, text: "t" };
    const blocks = [notice(), notice(), notice(), text, notice(), notice({ text: "other" })];
    expect(collapseNotices(blocks).map((b) => b.times)).toEqual([3, 1, 1, 1]);
    expect(collapseNotices([notice(), notice({ hook: { ...hook, id: "h2" } })]).map((b) => b.times)).toEqual([1, 1]);
  });
});

describe("permission cards preview what will happen", () => {
  it("shows the command of Bash, a diff of Edit and the new file of Write", () => {
    expect(permissionPreview("Bash", { command: "rm -rf build", description: "clean" })).toEqual({ kind: "command", command: "rm -rf build", description: "clean" });
    expect(permissionPreview("Edit", { file_path: "/p/a.ts", old_string: "let a = 1;", new_string: "const a = 1;\nexport { a };" })).toEqual({
      kind: "diff",
      path: "/p/a.ts",
      lines: [
        { sign: "-", text: "let a = 1;" },
        { sign: "+", text: "const a = 1;" },
        { sign: "+", text: "export { a };" },
      ],
    });
    expect(permissionPreview("Write", { file_path: "/p/PLAN.md", content: "# Plan\n" })).toEqual({
      kind: "diff",
      path: "/p/PLAN.md",
      lines: [
        { sign: "+", text: "# Plan" },
        { sign: "+", text: "" },
      ],
    });
    expect(permissionPreview("WebFetch", { url: "https://x" })).toBeNull(); // raw input then
    expect(permissionPreview("mcp__files__write", { file_path: "/p/a", content: "x" })).toBeNull(); // not a catalogue tool
    expect(permissionPreview("constructor", { command: "ls" })).toBeNull(); // nor a name every object has
  });

  it("cuts a huge file to a bounded preview that says how much is left", () => {
    const preview = permissionPreview("Write", { file_path: "/p/big", content: "x\n".repeat(1000) });
    expect(preview?.kind).toBe("diff");
    if (preview?.kind !== "diff") return;
    expect(preview.lines.length).toBe(201);
    expect(preview.lines.at(-1)?.text).toContain("801 more lines");
  });
});
