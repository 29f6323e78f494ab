import { describe, expect, it } from "vitest";

import { STRINGS } from "../src/i18n";
import { displayPath } from "../src/paths";
import { DIAGNOSTIC_CODES, type HookEntry, type HooksListResult } from "../src/protocol/generated";
import {
  bySource,
  canChange,
  comparePointers,
  diagnosticLine,
  diagnosticText,
  eventSummary,
  eventsOf,
  groupRows,
  hookName,
  initialTab,
  listOf,
  orphanProblems,
  plainReason,
  rowNames,
  rowOf,
  tabBadge,
} from "../src/settings/model";
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

  it("sets apart unreadable files, skipped entries (shown in place) and other problems", () => {
    const views = bySource(listing());
    expect(views.project.brokenFiles.map((b) => [b.file.path, b.diagnostic?.code])).toEqual([
      ["/work/demo/.wave/settings.local.json", "trailingComma"],
    ]);
    expect(views.project.broken.map((d) => d.pointer)).toEqual(["/hooks/Stop/0/hooks/0"]);
    expect(views.project.problems).toEqual([]);
    expect(views.user.problems.map((d) => d.code)).toEqual(["pluginNotInstalled"]);
    expect(orphanProblems(listing()).map((d) => d.path)).toEqual(["/elsewhere/settings.json"]);
  });

  it("names what is wrong in a tab's badge: the one broken file among several, how many entries were skipped", () => {
    const views = bySource(listing());
    // The project has a working settings.json (2 hooks, 1 skipped entry) and a settings.local.json
    // that does not parse.
    expect(tabBadge(views.project, "Project hooks")).toEqual({
      text: "2 · ⚠ settings.local.json: invalid JSON · ⚠ 1",
      problem: true,
      label: "Project hooks, 2, settings.local.json: invalid JSON, 1 problem",
    });
    expect(tabBadge(views.user, "User hooks")).toMatchObject({ text: "1 · ⚠ 1", problem: true, label: "User hooks, 1, 1 problem" });
    expect(tabBadge(views.plugin, "Plugin hooks")).toEqual({ text: "1", problem: false, label: "Plugin hooks, 1" });
    const two = bySource({ ...listing(), configFiles: listing().configFiles.map((f) => ({ ...f, error: f.source === "project" ? "bad" : f.error })) });
    expect(tabBadge(two.project).text).toBe("2 · ⚠ 2 files broken · ⚠ 1");
  });

  it("opens where the problem is, else the remembered tab, else the first one with something in it", () => {
    expect(initialTab(bySource(listing()), "plugin")).toBe("user"); // the user tab has a problem
    const views = bySource({ ...listing(), hooks: listing().hooks.filter((h) => h.source === "plugin"), diagnostics: [], configFiles: [] });
    expect(initialTab(views, null)).toBe("plugin");
    expect(initialTab(views, "project")).toBe("project");
    expect(initialTab(views, "bogus")).toBe("plugin");
  });
});

describe("grouping and filtering", () => {
  it("groups rows by event in catalogue order, broken entries among them", () => {
    const groups = groupRows(bySource(listing()).project, { query: "", event: "" });
    expect(groups.map((g) => [g.event, g.rows.map((r) => (r.kind === "hook" ? r.hook.id : "broken"))])).toEqual([
      ["PreToolUse", ["p1"]],
      ["PostToolUse", ["p2"]],
      ["Stop", ["broken"]],
    ]);
  });

  it("shows a broken entry where it is in its file, between the hooks around it", () => {
    const file = "/work/demo/.wave/settings.json";
    const local = "/work/demo/.wave/settings.local.json";
    const base = listing();
    const list = {
      ...base,
      hooks: [
        hook({ id: "b", source: "project", path: file, pointer: "/hooks/PreToolUse/2/hooks/0" }),
        hook({ id: "a", source: "project", path: file, pointer: "/hooks/PreToolUse/0/hooks/1" }),
        hook({ id: "c", source: "project", path: file, pointer: "/hooks/PreToolUse/10/hooks/0" }),
        hook({ id: "l", source: "project", path: local, pointer: "/hooks/PreToolUse/0/hooks/0" }),
      ],
      diagnostics: [
        {
          path: file,
          pointer: "/hooks/PreToolUse/1/matcher",
          message: "invalid regular expression",
          code: "invalidMatcher" as const,
          args: { matcher: "(", error: "missing )" },
          entry: { event: "PreToolUse", matcher: "(", command: "./x.sh", catalogueEvent: "PreToolUse" },
        },
      ],
    };
    const groups = groupRows(bySource(list).project, { query: "", event: "" });
    expect(groups.map((g) => g.rows.map((r) => (r.kind === "hook" ? r.hook.id : "broken")))).toEqual([["a", "broken", "b", "c", "l"]]);
  });

  it("puts every dialect's hooks of one moment in one group, named by the catalogue event they run on", () => {
    const base = listing();
    const list = {
      ...base,
      diagnostics: [],
      hooks: [
        hook({ id: "s", source: "project", event: "onStop", catalogueEvent: "Stop", dialect: "snow" }),
        hook({ id: "w", source: "project", event: "Stop" }),
        hook({ id: "c", source: "project", event: "preToolUse", catalogueEvent: "PreToolUse", dialect: "copilot" }),
        hook({ id: "p", source: "project", event: "PreToolUse" }),
      ],
    };
    const groups = groupRows(bySource(list).project, { query: "", event: "" });
    expect(groups.map((g) => [g.event, g.rows.map((r) => (r.kind === "hook" ? r.hook.id : "broken"))])).toEqual([
      ["PreToolUse", ["c", "p"]],
      ["Stop", ["s", "w"]],
    ]);
    expect(eventsOf(bySource(list).project)).toEqual(["PreToolUse", "Stop"]); // the filter's choices, same order
    // The event filter picks the moment, whatever each file calls it; so does typing its name.
    expect(groupRows(bySource(list).project, { query: "", event: "Stop" }).flatMap((g) => g.rows).length).toBe(2);
    expect(groupRows(bySource(list).project, { query: "onstop", event: "" }).flatMap((g) => g.rows).length).toBe(1);
    expect(eventSummary("PreToolUse", "en")).not.toBe("");
  });

  it("filters on event, matcher and command text, every word", () => {
    const view = bySource(listing()).project;
    const ids = (query: string, event = "") =>
      groupRows(view, { query, event }).flatMap((g) => g.rows.map((r) => (r.kind === "hook" ? r.hook.id : "broken")));
    expect(ids("write")).toEqual(["p2"]);
    expect(ids("echo bash")).toEqual(["p1"]);
    expect(ids("", "PostToolUse")).toEqual(["p2"]);
    expect(ids("nothing-like-this")).toEqual([]);
  });

  it("names every row uniquely for screen readers, even identical twins", () => {
    const twins = [
      hook({ id: "a", source: "project", command: "./guard.sh" }),
      hook({ id: "b", source: "project", command: "./guard.sh", path: "/work/demo/.wave/settings.local.json" }),
      hook({ id: "c", source: "project", command: "./guard.sh", path: "/work/demo/.wave/settings.local.json" }),
      hook({ id: "d", source: "project", command: "./other.sh" }),
    ];
    const names = rowNames(twins, (p) => displayPath(p, "/work/demo", "/home/u"));
    expect(new Set(names.values()).size).toBe(4);
    expect(names.get("a")).toBe("PreToolUse (Bash) · ./guard.sh · ~/.wave/settings.json");
    expect(names.get("c")).toBe("PreToolUse (Bash) · ./guard.sh · .wave/settings.local.json (2)");
    expect(names.get("d")).toBe("PreToolUse (Bash) · ./other.sh");
  });
});

describe("diagnostics in the UI language", () => {
  it("word every code the server sends, in both languages", () => {
    for (const code of DIAGNOSTIC_CODES) {
      for (const lang of ["zh", "en"] as const) {
        expect(STRINGS[lang][`diag.${code}` as keyof typeof STRINGS.zh], `${lang} ${code}`).toBeTruthy();
      }
    }
  });

  it("fill in the code's arguments and fall back to the server's words", () => {
    const [parse, , plugin, other] = listing().diagnostics;
    expect(diagnosticText(parse!, "zh")).toBe("第 3 行第 5 列：右括号前多了一个逗号，删掉它");
    expect(diagnosticText(plugin!, "en")).toBe(
      "The enabled plugin “lint” is not installed (no folder /home/u/.wave/plugins/lint): install it or remove it from enabledPlugins",
    );
    expect(diagnosticText(other!, "zh")).toBe("unreadable");
    expect(diagnosticLine(parse!)).toBe(3);
  });
});

describe("paths", () => {
  it("are shown relative to the project or ~, never cut mid-name", () => {
    expect(displayPath("/work/demo/.wave/settings.json", "/work/demo", "/home/u")).toBe(".wave/settings.json");
    expect(displayPath("/home/u/.wave/settings.json", "/work/demo", "/home/u")).toBe("~/.wave/settings.json");
    expect(displayPath("/work/demo-other/x", "/work/demo", "/home/u")).toBe("/work/demo-other/x");
    expect(displayPath("/etc/x", null, null)).toBe("/etc/x");
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

  it("words a failed chat request in the page's language, the server's sentence as the detail", () => {
    const said = 'no model provider: pass --provider, set WAVE_PROVIDER, put "provider" in settings';
    const err = new RemoteError("wave/chat/open", {
      code: -32803,
      message: said,
      data: { reason: "noProvider", sessionId: "s1", message: said },
    });
    expect(plainReason(err, "zh")).toBe(`没有可用的模型服务（wavehost 的原话：${said}）`);
    expect(plainReason(err, "en")).toBe(`no model provider can be used (wavehost said: ${said})`);
    const closed = new RemoteError("wave/chat/send", {
      code: -32803,
      message: "no open chat session 's1'",
      data: { reason: "sessionNotOpen", sessionId: "s1", message: "no open chat session 's1'" },
    });
    expect(plainReason(closed, "zh")).toBe("这个对话会话已经关闭（wavehost 的原话：no open chat session 's1'）");
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
  it("follows the server's one rule: zh locales Chinese, any other (C too) English, none English", async () => {
    const { langFor } = await import("../src/i18n");
    expect(["zh-CN", "zh", "zh-TW", "ZH-cn", "zh_Hant"].map(langFor)).toEqual(["zh", "zh", "zh", "zh", "zh"]);
    expect(["en-US", "en_GB", "fr", "de-DE", "no", "nb-NO"].map(langFor)).toEqual(["en", "en", "en", "en", "en", "en"]);
    // The C locale and no locale at all choose no language: English, as the server's prompts.
    expect(["C", "", " ", null, undefined].map(langFor)).toEqual(["en", "en", "en", "en", "en"]);
  });
});

describe("where an edited input stops being JSON", () => {
  it("finds the first character a parser cannot take, or none", async () => {
    const { jsonErrorAt } = await import("../src/settings/words");
    const cases: [string, number | null][] = [
      ['{"a": 1}', null],
      ['{"a": [1, 2.5e3, true, null, "x\\u00e9"]}', null],
      ['{"toolName": "bash",\n  "toolArgs": }', 35],
      ['{"a": 1,}', 8],
      ["{'a': 1}", 1],
      ['{"a": 1} x', 9],
      ['{"a": "b', 8],
      ['{"a": tru}', 9],
    ];
    for (const [text, at] of cases) {
      expect([text, jsonErrorAt(text)]).toEqual([text, at]);
      if (at === null) expect(() => JSON.parse(text)).not.toThrow();
      else expect(() => JSON.parse(text)).toThrow();
    }
  });
});

describe("comparePointers", () => {
  it("orders JSON pointers as their entries stand in the file: index by number, a parent before its children", () => {
    const inOrder = [
      "",
      "/hooks",
      "/hooks/PostToolUse/0",
      "/hooks/PreToolUse",
      "/hooks/PreToolUse/1",
      "/hooks/PreToolUse/1/hooks/0",
      "/hooks/PreToolUse/1/hooks/2",
      "/hooks/PreToolUse/1/hooks/10",
      "/hooks/PreToolUse/2",
      "/hooks/PreToolUse/12/hooks/0",
      "/hooks/PreToolUse/x",
    ];
    for (const [i, a] of inOrder.entries()) {
      for (const [j, b] of inOrder.entries()) expect(Math.sign(comparePointers(a, b)), `${a} vs ${b}`).toBe(Math.sign(i - j));
    }
  });
});

describe("listOf: compact wire rows filled in from their files", () => {
  const files = listing().configFiles;
  const wire = (hooks: HookEntry[]): HooksListResult => ({ ...listing(), hooks });

  it("a row says only what it has: the rest is its file's, or the default", () => {
    const [row] = listOf(wire([{ id: "g1", file: 3, pointer: "/hooks/Stop/0/hooks/0", event: "Stop", command: "prettier --write" }])).hooks;
    expect(row).toEqual({
      id: "g1",
      source: "plugin",
      path: "/home/u/.wave/plugins/fmt/hooks/hooks.json",
      pointer: "/hooks/Stop/0/hooks/0",
      readOnly: true,
      event: "Stop",
      catalogueEvent: "Stop",
      matcher: null,
      if: null,
      type: "command",
      command: "prettier --write",
      timeout: null,
      async: null,
      asyncRewake: null,
      statusMessage: null,
      description: null,
      plugin: "fmt",
      dialect: "wave",
      untrusted: null,
      disabled: null,
    });
  });

  it("what a row has wins over its file's, an explicit null included", () => {
    const entry: HookEntry = { id: "c1", file: 3, pointer: "/p", event: "preToolUse", catalogueEvent: "PreToolUse", command: "x", plugin: null, dialect: "copilot", type: "http", readOnly: false };
    expect(rowOf(entry, files)).toMatchObject({ plugin: null, dialect: "copilot", type: "http", readOnly: false, catalogueEvent: "PreToolUse", source: "plugin" });
  });

  it("a row whose file is not listed carries its own path and source", () => {
    const entry: HookEntry = { id: "x1", path: "/elsewhere/settings.json", source: "user", readOnly: true, pointer: "/p", event: "Stop", command: "x" };
    expect(rowOf(entry, files)).toMatchObject({ path: "/elsewhere/settings.json", source: "user", readOnly: true });
  });
});
