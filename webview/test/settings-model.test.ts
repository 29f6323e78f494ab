import { describe, expect, it } from "vitest";

import { STRINGS } from "../src/i18n";
import { bySource, canChange, eventSummary, hookName, orphanProblems, plainReason } from "../src/settings/model";
import { RemoteError, RequestTimeoutError } from "../src/transport/rpc";
import { hook, listing } from "./fixtures";

describe("bySource", () => {
  it("splits hooks into the three tabs with their counts and editability", () => {
    const views = bySource(listing());
    expect(views.user.hooks.map((h) => h.id)).toEqual(["u1"]);
    expect(views.project.hooks.map((h) => h.id)).toEqual(["p1", "p2"]);
    expect(views.plugin.hooks.map((h) => h.id)).toEqual(["g1"]);
    expect([views.user.editable, views.project.editable, views.plugin.editable]).toEqual([true, true, false]);
  });

  it("shows each source's file errors and invalid entries with their paths", () => {
    const views = bySource(listing());
    expect(views.project.problems).toEqual([
      { path: "/work/demo/.wave/settings.local.json", pointer: null, message: "Expecting ',' delimiter: line 3 column 5" },
      { path: "/work/demo/.wave/settings.json", pointer: "/hooks/Stop/0/hooks/0", message: "command must be a string" },
    ]);
    expect(views.user.problems).toEqual([]);
    expect(orphanProblems(listing())).toEqual([{ path: "/elsewhere/settings.json", pointer: null, message: "unreadable" }]);
  });
});

describe("rows", () => {
  it("name a hook by event and matcher", () => {
    expect(hookName(hook({ id: "a", source: "user" }))).toBe("PreToolUse (Bash)");
    expect(hookName(hook({ id: "a", source: "user", matcher: null, event: "Stop" }))).toBe("Stop");
  });

  it("summarise the event from the server's catalogue, in both languages", () => {
    expect(eventSummary("PreToolUse", "en")).toBe("Before a tool runs; can block it");
    expect(eventSummary("PreToolUse", "zh")).toBe("工具调用前；可阻止调用");
    expect(eventSummary("NoSuchEvent", "en")).toBe("");
  });

  it("offer Edit and Delete only on writable user and project hooks", () => {
    expect(canChange(hook({ id: "a", source: "user" }))).toBe(true);
    expect(canChange(hook({ id: "a", source: "project" }))).toBe(true);
    expect(canChange(hook({ id: "a", source: "plugin" }))).toBe(false);
    expect(canChange(hook({ id: "a", source: "project", readOnly: true }))).toBe(false);
  });
});

describe("plainReason", () => {
  it("turns the server's failure reason into plain words", () => {
    const err = new RemoteError("wave/hooks/delete", {
      code: -32803,
      message: "[Errno 13] Permission denied: '/x'",
      data: { reason: "permissionDenied", message: "[Errno 13] Permission denied: '/x'" },
    });
    expect(plainReason(err, "en")).toBe("no permission to write the config file");
    expect(plainReason(err, "zh")).toBe("没有写入配置文件的权限");
  });

  it("says a timeout in words and falls back to the server's message", () => {
    expect(plainReason(new RequestTimeoutError("wave/hooks/list", 1000), "en")).toBe("wavehost did not answer in time");
    const other = new RemoteError("m", { code: -32602, message: "id: field required" });
    expect(plainReason(other, "en")).toBe("id: field required");
  });
});

describe("strings", () => {
  it("use the seed's literal tab names", () => {
    expect([STRINGS.zh["tab.user"], STRINGS.zh["tab.project"], STRINGS.zh["tab.plugin"]]).toEqual([
      "用户级钩子",
      "项目级钩子",
      "插件钩子",
    ]);
    expect(STRINGS.zh["new.user"]).toBe("新增用户级钩子");
    expect(STRINGS.zh["delete.confirm"]).toBe("确认删除");
  });

  it("have every placeholder in both languages", () => {
    for (const key of Object.keys(STRINGS.zh) as (keyof typeof STRINGS.zh)[]) {
      const vars = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(vars(STRINGS.en[key]), key).toEqual(vars(STRINGS.zh[key]));
    }
  });
});

describe("host locale", () => {
  it("follows the server's one rule: zh locales Chinese, any other English, none Chinese", async () => {
    const { langFor } = await import("../src/i18n");
    expect(["zh-CN", "zh", "zh-TW", "ZH-cn", "zh_Hant"].map(langFor)).toEqual(["zh", "zh", "zh", "zh", "zh"]);
    expect(["en-US", "en_GB", "fr", "de-DE", "no", "nb-NO"].map(langFor)).toEqual(["en", "en", "en", "en", "en", "en"]);
    // No locale at all: the product's own language, as the server's prefill prompts.
    expect(["", " ", null, undefined].map(langFor)).toEqual(["zh", "zh", "zh", "zh"]);
  });
});
