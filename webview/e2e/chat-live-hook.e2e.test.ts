/**
 * A running hook shows its output live and can be cancelled: a PreToolUse hook that prints
 * stderr lines while it runs appears in the chat with its event, command, elapsed time and those
 * lines as they come (the older ones counted); Cancel stops its process tree, the card goes, the
 * chat says the hook was cancelled (a non-blocking error: the call still runs) and the turn goes
 * on. Real `wavehost web`, the scripted provider, real hook processes, Debian's Chromium;
 * screenshots at 297 px (VS Code's sidebar) and 1280 px, axe-core clean.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { axeViolations } from "./axe";
import { SCREENSHOTS, collectProblems, command, e2eSuite, hooksFile } from "./harness";

const e2e = e2eSuite();
const WAIT = { timeout: 30_000 };

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(")").pop()!.trim().split(" ")[0] !== "Z";
  } catch {
    return false;
  }
}

describe("chat: a running hook, live", () => {
  for (const [width, height, lang] of [
    [297, 760, "en"],
    [1280, 800, "zh-CN"],
  ] as const) {
    it(`shows its stderr lines as they come and Cancel stops it; the call goes on (${width} px, ${lang})`, async () => {
      const ws = e2e.workspace();
      const gate = join(ws.root, "gate");
      const pids = join(ws.root, "pids");
      const wait = `while [ ! -f ${gate} ]; do sleep 0.05; done`;
      // 30 lines before the gate (only the last ones are shown, the others counted), then it
      // waits on a sleep until it is cancelled.
      const scan = `echo $$ > ${pids}; for i in $(seq 1 30); do echo "scanning package $i/30" >&2; done; ${wait}; echo 'checking licences…' >&2; sleep 300 & echo $! >> ${pids}; wait`;
      ws.write(ws.projectSettings, hooksFile({ PreToolUse: [{ matcher: "Bash", hooks: [command(scan)] }] }));
      const marker = join(ws.project, "built");
      const turns = [{ text: "Building.", tool_calls: [{ name: "Bash", input: { command: `touch ${marker}` } }] }, { text: "Built." }];
      const script = ws.write(join(ws.root, "turns.json"), { turns });
      const server = await e2e.web(ws, lang, [], { WAVE_PROVIDER: "scripted", WAVE_SCRIPT: script });
      const page = await e2e.browser.newPage({ viewport: { width, height } });
      const problems = collectProblems(page);
      await page.goto(`${server.url}&view=chat`);
      const panel = page.locator("wave-chat-panel");
      await expect.poll(() => panel.locator("[data-action=send]").getAttribute("disabled"), WAIT).toBeNull();
      await panel.locator("textarea").fill("build it");
      await panel.locator("textarea").press("Enter");

      const card = panel.locator("wave-live-hooks").getByTestId("live-hook");
      await expect.poll(() => card.count(), WAIT).toBe(1);
      const lines = card.getByTestId("live-lines");
      await expect.poll(() => lines.innerText(), WAIT).toContain("scanning package 30/30");
      expect(await lines.innerText()).not.toContain("scanning package 10/30\n"); // older lines are counted, not shown
      await expect.poll(() => card.getByTestId("live-more-lines").innerText()).toContain("10");
      const headText = await card.innerText();
      expect(headText).toContain("PreToolUse:Bash");
      expect(headText).toContain("scanning package");
      const elapsed = card.getByTestId("live-elapsed");
      const first = await elapsed.innerText();
      await expect.poll(() => elapsed.innerText(), WAIT).not.toBe(first); // it counts on
      expect(existsSync(marker)).toBe(false); // the hook still holds the call

      writeFileSync(gate, "");
      await expect.poll(() => lines.innerText(), WAIT).toContain("checking licences…");
      await expect.poll(() => readFileSync(pids, "utf8").trim().split("\n").length, WAIT).toBe(2);
      const processes = readFileSync(pids, "utf8").trim().split("\n").map(Number);
      expect(processes.every(alive)).toBe(true);
      // Every control in reach at this width: Cancel, Show in settings.
      const cancel = card.locator("[data-action=cancel-hook]");
      const box = await cancel.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      const violations = await axeViolations(page);
      expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
      await shot(page, `chat-live-hook-${width}-${lang}`);

      await cancel.click();
      await expect.poll(() => card.count(), WAIT).toBe(0);
      await expect.poll(() => processes.some(alive), WAIT).toBe(false);
      // The hook decided nothing: the call asks as it would without it, and runs when allowed.
      const permission = panel.getByTestId("permission");
      await expect.poll(() => permission.count(), WAIT).toBe(1);
      await permission.locator("[data-action=allow]").click();
      const log = panel.locator(".log");
      await expect.poll(() => log.innerText(), WAIT).toContain("Built.");
      expect(await log.innerText()).toContain("hook was cancelled by the user and stopped");
      expect(existsSync(marker)).toBe(true); // a cancelled hook blocks nothing: the call ran
      await shot(page, `chat-live-hook-cancelled-${width}-${lang}`);
      expect(problems).toEqual([]);
    });
  }
});
