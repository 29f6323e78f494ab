import { describe, expect, it } from "vitest";

import { hooksOff, offText } from "../src/chat/hooks-off";
import { setLang } from "../src/i18n";
import { hook, listing } from "./fixtures";

describe("the chat's line when hooks are not running", () => {
  it("names every reason in force, gravest first: all off, a lost file, untrusted, a dialect off", () => {
    setLang("en");
    const list = {
      ...listing(),
      trusted: false,
      hooksDisabledBy: "/home/u/.wave/settings.json",
      hooks: [...listing().hooks, hook({ id: "p9", source: "project", untrusted: true })],
      dialectsOff: [
        { dialect: "copilot" as const, hooks: 2, file: "/home/u/.wave/settings.json" },
        { dialect: "snow" as const, hooks: 0, file: "/home/u/.wave/settings.json" },
      ],
    };
    const reasons = hooksOff(list);
    expect(reasons.map((r) => r.kind)).toEqual(["disabled", "broken", "untrusted", "dialectOff"]); // snow: no hooks, nothing to say
    expect(reasons.map((r) => offText(r, list.project.dir, list.project.home))).toEqual([
      'Hooks are not running: ~/.wave/settings.json sets "disableAllHooks": true, so nothing the agent does goes through a hook.',
      "The hooks in .wave/settings.local.json are not running: the file does not parse (line 3).",
      "Project hooks are not running (1): this workspace is not trusted.",
      'Copilot CLI hooks are not running (2): "hookDialects" in ~/.wave/settings.json switches them off.',
    ]);
  });

  it("says nothing when every hook the user has runs", () => {
    const list = listing();
    expect(hooksOff({ ...list, configFiles: list.configFiles.map((f) => ({ ...f, error: null })) })).toEqual([]);
  });

  it("a file of an untrusted workspace that does not parse is not a second reason: it would not run anyway", () => {
    const list = listing();
    const files = list.configFiles.map((f) => (f.error ? { ...f, untrusted: true } : f));
    expect(hooksOff({ ...list, configFiles: files }).map((r) => r.kind)).toEqual([]);
  });
});
