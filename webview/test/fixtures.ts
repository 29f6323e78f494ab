import type { HookRow, HooksList } from "../src/settings/model";

export function hook(overrides: Partial<HookRow> & Pick<HookRow, "id" | "source">): HookRow {
  return {
    path: `/home/u/.wave/settings.json`,
    pointer: "/hooks/PreToolUse/0/hooks/0",
    readOnly: false,
    event: "PreToolUse",
    matcher: "Bash",
    if: null,
    type: "command",
    command: "echo hi",
    timeout: null,
    async: null,
    asyncRewake: null,
    statusMessage: null,
    description: null,
    plugin: null,
    dialect: "wave",
    untrusted: null,
    disabled: null,
    ...overrides,
    catalogueEvent: overrides.catalogueEvent ?? overrides.event ?? "PreToolUse",
  };
}

export function listing(): HooksList {
  return {
    project: { dir: "/work/demo", name: "demo", home: "/home/u" },
    configFiles: [
      { source: "user", path: "/home/u/.wave/settings.json", exists: true, readOnly: false, error: null, plugin: null, untrusted: null, ignoredSettings: null, dialect: "wave" },
      { source: "project", path: "/work/demo/.wave/settings.json", exists: true, readOnly: false, error: null, plugin: null, untrusted: null, ignoredSettings: null, dialect: "wave" },
      {
        source: "project",
        path: "/work/demo/.wave/settings.local.json",
        exists: true,
        readOnly: false,
        error: "Expecting ',' delimiter: line 3 column 5",
        plugin: null,
        untrusted: null,
        ignoredSettings: null,
        dialect: "wave",
      },
      { source: "plugin", path: "/home/u/.wave/plugins/fmt/hooks/hooks.json", exists: true, readOnly: true, error: null, plugin: "fmt", untrusted: null, ignoredSettings: null, dialect: "wave" },
    ],
    hooks: [
      hook({ id: "u1", source: "user", event: "Stop", matcher: null, command: "notify-send done", timeout: 5 }),
      hook({ id: "p1", source: "project", path: "/work/demo/.wave/settings.json", description: "guard" }),
      hook({ id: "p2", source: "project", path: "/work/demo/.wave/settings.json", event: "PostToolUse", matcher: "Write|Edit", async: true }),
      hook({
        id: "g1",
        source: "plugin",
        path: "/home/u/.wave/plugins/fmt/hooks/hooks.json",
        readOnly: true,
        plugin: "fmt",
        event: "PostToolUse",
      }),
    ],
    trusted: true,
    hooksDisabledBy: null,
    overlaps: [],
    dialectsOff: [],
    diagnostics: [
      {
        path: "/work/demo/.wave/settings.local.json",
        pointer: null,
        message: "invalid JSON at line 3, column 5: a comma before the closing bracket (remove it)",
        code: "trailingComma",
        args: { line: "3", column: "5", detail: "Expecting property name enclosed in double quotes" },
        entry: null,
      },
      {
        path: "/work/demo/.wave/settings.json",
        pointer: "/hooks/Stop/0/hooks/0",
        message: '"command" must be a non-empty string',
        code: "emptyText",
        args: { field: "command" },
        entry: { event: "Stop", matcher: null, command: null, catalogueEvent: "Stop" },
      },
      {
        path: "/home/u/.wave/settings.json",
        pointer: "/enabledPlugins/lint",
        message: 'enabled plugin "lint" is not installed',
        code: "pluginNotInstalled",
        args: { name: "lint", folder: "/home/u/.wave/plugins/lint" },
        entry: null,
      },
      { path: "/elsewhere/settings.json", pointer: null, message: "unreadable", code: "other", args: {}, entry: null },
    ],
  };
}
