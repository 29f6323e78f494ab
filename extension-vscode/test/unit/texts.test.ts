/**
 * The extension's own notifications follow the documented language rule: VS Code's display
 * language picks the texts generated from the server's table (wavehost.protocol.shell_texts).
 */

import { describe, expect, it } from "vitest";

import { shellText } from "../../src/texts";

describe("the extension's own texts", () => {
  it("a Chinese display language words a crash's restart notice and its button in Chinese", () => {
    const reason = "The wavehost server stopped (exit code 1).";
    expect(shellText("zh-cn", "restarting", { reason, seconds: 2 })).toBe(
      "The wavehost server stopped (exit code 1). 将在 2 秒后重启；你的对话会保留。",
    );
    expect(shellText("zh-tw", "showLog")).toBe("显示日志");
    expect(shellText("zh-cn", "openSettings")).toBe("打开设置");
    expect(shellText("zh-cn", "gaveUp", { reason, count: 5 })).toBe(`${reason} 已连续停止 5 次；运行“Wave: Restart Host”再试一次。`);
  });

  it("English, and any language wavehost has no texts for, words them in English", () => {
    for (const locale of ["en", "en-gb", "fr", "de", "", undefined]) {
      expect(shellText(locale, "restarting", { reason: "It stopped.", seconds: 1 })).toBe(
        "It stopped. Restarting it in 1 s; your chat is kept.",
      );
      expect(shellText(locale, "showLog")).toBe("Show Log");
    }
  });

  it("a blank with no value is left as it is, not dropped", () => {
    expect(shellText("en", "didNotStart")).toBe("wavehost did not start: {error}");
  });
});
