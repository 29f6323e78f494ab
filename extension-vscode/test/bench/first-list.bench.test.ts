/**
 * Measured, not asserted (bench/vscode.py runs this): in code-server, "Wave: Open Hooks Settings"
 * → the first hooks list rendered, in a fresh window each time: "cold" runs the command as soon as
 * the workbench is there (activation and the server's start overlap it), "warm" once the status bar
 * says the host is ready; the start-up timings the extension logs; the memory the extension adds
 * to the extension host, and the server's own.
 */

import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { it } from "vitest";

import {
  chooseCommand,
  CodeServer,
  REPO,
  launchBrowser,
  openWorkbench,
  tempDir,
  vsixPath,
  waitForExtension,
  waveFrame,
} from "../e2e/harness";

const RUNS = Number(process.env.WAVEHOST_BENCH_RUNS ?? 5);

function rssKb(pid: string): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

function pids(pattern: string): string[] {
  try {
    return execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/** How long a window is left alone before its extension host's memory is read (ms). */
const SETTLE_MS = 3000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The host's state as the status bar item says it (starting, ready, crashed, failed). */
async function hostState(page: Page): Promise<string> {
  const item = page.locator(".statusbar-item [aria-label^='wavehost ']").first();
  const label = await item.getAttribute("aria-label", { timeout: 1000 }).catch(() => null);
  return label?.replace("wavehost ", "") ?? "";
}

/**
 * The steps the extension logs (`timing: <step> at <epoch ms>`, src/timeline.ts) in the window
 * opened at `since`: the log of the extension host activated after it.
 */
function steps(userData: string, since: number): Record<string, number> {
  const logs = execFileSync("find", [join(userData, "logs"), "-name", "wavehost.log", "-newermt", `@${since / 1000}`], {
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .filter(Boolean);
  for (const file of logs) {
    const found: Record<string, number> = {};
    for (const match of readFileSync(file, "utf8").matchAll(/timing: (.+?) at (\d+)/g)) found[match[1]!] ??= Number(match[2]);
    if ((found["activated"] ?? 0) >= since) return found;
  }
  return {};
}

/** The processes of code-server's group (pid, start time, command line). */
function group(server: CodeServer): { pid: string; start: number; cmdline: string }[] {
  const found = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== server.pid) continue; // the process group id
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      found.push({ pid, start: Number(fields[19]), cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The RSS (MB) of the extension host code-server started last (the newest window's). */
function newestExtensionHostRss(server: CodeServer): number {
  const hosts = group(server).filter((p) => p.cmdline.includes("type=extensionHost"));
  const newest = hosts.sort((a, b) => b.start - a.start)[0];
  return newest ? rssKb(newest.pid) / 1024 : 0;
}

/** Each step's median time relative to Enter (negative: before it), in the order they happened. */
function timeline(runs: Record<string, number>[]): [string, number][] {
  const all: Record<string, number[]> = {};
  for (const run of runs) for (const [step, at] of Object.entries(run)) (all[step] ??= []).push(at);
  return Object.entries(all)
    .map(([step, values]): [string, number] => [step, median(values)])
    .sort((a, b) => a[1] - b[1]);
}

function summary(
  firstAfterInstall: number,
  cold: number[],
  warm: number[],
  builtIn: number[],
  hostReady: number[],
  coldSteps: Record<string, number>[],
  warmSteps: Record<string, number>[],
  hostRss: number[],
  baselineRss: number[],
  serverRss: number[],
) {
  return {
    runs: RUNS,
    firstAfterInstallMs: firstAfterInstall,
    firstListMs: { median: median(cold), all: cold },
    warmFirstListMs: { median: median(warm), all: warm },
    builtInSettingsMs: { median: median(builtIn), all: builtIn },
    windowToHostReadyMs: median(hostReady),
    coldTimeline: timeline(coldSteps),
    warmTimeline: timeline(warmSteps),
    vsixMB: statSync(vsixPath()).size / 1e6,
    extensionHostAddedMB: baselineRss.length ? median(hostRss) - median(baselineRss) : null,
    serverRssMB: median(serverRss),
  };
}

/**
 * From Enter on the command in the palette (typing it is not counted) to the first hooks row:
 * how long, and when Enter was pressed (epoch ms, the clock the extension's timings use).
 */
async function timeFirstList(page: Page): Promise<{ ms: number; enter: number }> {
  await chooseCommand(page, "Wave: Open Hooks Settings");
  const enter = Date.now();
  await page.keyboard.press("Enter");
  const frame = await waveFrame(page, "settings", 60_000);
  await frame.locator("li.hook").first().waitFor({ state: "attached", timeout: 60_000 });
  return { ms: Date.now() - enter, enter };
}

/** The window's steps relative to Enter, with the window's opening and the rendered list. */
function relative(found: Record<string, number>, opened: number, enter: number, ms: number): Record<string, number> {
  const all: Record<string, number> = { "window opened": opened - enter, "list rendered": ms };
  for (const [step, at] of Object.entries(found)) all[step] = at - enter;
  return all;
}

/**
 * The baseline, in the same window: VS Code's own settings editor ("Preferences: Open Settings
 * (UI)", a built-in editor with a list) from Enter to its first setting row. Its search box then
 * takes F1 (the palette no longer opens): the window's last step.
 */
async function timeBuiltInSettings(page: Page): Promise<number> {
  await chooseCommand(page, "Preferences: Open Settings (UI)");
  const started = Date.now();
  await page.keyboard.press("Enter");
  await page.locator(".settings-editor .setting-item").first().waitFor({ state: "attached", timeout: 60_000 });
  return Date.now() - started;
}

it("measures the first hooks list, the vsix size and the memory added", async () => {
  const home = tempDir("bench-home");
  const project = join(tempDir("bench-project"), "demo-project");
  cpSync(join(REPO, "examples", "demo-project"), project, { recursive: true });
  const server = await CodeServer.start({ home });
  const browser = await launchBrowser();
  const cold: number[] = [];
  const warm: number[] = [];
  const builtIn: number[] = [];
  const hostReady: number[] = [];
  const hostRss: number[] = [];
  const serverRss: number[] = [];
  let firstAfterInstall = 0;
  const coldSteps: Record<string, number>[] = [];
  const warmSteps: Record<string, number>[] = [];
  try {
    // The first window after the install (cold): the bundle's bytecode for the first list is
    // shipped; the rest is compiled on first use. Printed on its own, not in the medians.
    const first = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openWorkbench(first, server.origin, project);
    await waitForExtension(first);
    firstAfterInstall = (await timeFirstList(first)).ms;
    await first.close();
    await new Promise((done) => setTimeout(done, 2000));
    for (let run = 0; run < RUNS; run++) {
      // Cold: the command as soon as the workbench is there (the server starts meanwhile).
      let page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      let since = Date.now();
      await openWorkbench(page, server.origin, project);
      await waitForExtension(page);
      const coldRun = await timeFirstList(page);
      cold.push(coldRun.ms);
      coldSteps.push(relative(steps(server.userData, since), since, coldRun.enter, coldRun.ms));
      await page.close();
      await new Promise((done) => setTimeout(done, 2000)); // the window's extension host goes away

      // Warm: the command once the status bar says the host is ready.
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      since = Date.now();
      await openWorkbench(page, server.origin, project);
      while ((await hostState(page)) !== "ready") await new Promise((done) => setTimeout(done, 100));
      hostReady.push(Date.now() - since);
      await new Promise((done) => setTimeout(done, SETTLE_MS));
      // The extension's steady state: activated, its server connected, no page open yet.
      hostRss.push(newestExtensionHostRss(server));
      const warmRun = await timeFirstList(page);
      warm.push(warmRun.ms);
      warmSteps.push(relative(steps(server.userData, since), since, warmRun.enter, warmRun.ms));
      builtIn.push(await timeBuiltInSettings(page)); // last: its search box keeps the keyboard
      serverRss.push(pids(`${server.extensions}/.*/server/launch.py serve`).map(rssKb).reduce((a, b) => a + b, 0) / 1024);
      await page.close();
      await new Promise((done) => setTimeout(done, 2000));
    }
  } finally {
    await server.stop();
  }
  console.log(`WAVEHOST_BENCH ${JSON.stringify(summary(firstAfterInstall, cold, warm, builtIn, hostReady, coldSteps, warmSteps, hostRss, [], serverRss))}`);
  // The same windows' extension host without the extension: what it adds is the difference.
  const baseline = await CodeServer.start({ home, install: false });
  const baselineRss: number[] = [];
  try {
    for (let run = 0; run < Math.min(RUNS, 3); run++) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const since = Date.now();
      await openWorkbench(page, baseline.origin, project);
      // Measured as long after the window opened as with the extension (host ready, then settled).
      const left = median(hostReady) + SETTLE_MS - (Date.now() - since);
      await new Promise((done) => setTimeout(done, Math.max(left, SETTLE_MS)));
      baselineRss.push(newestExtensionHostRss(baseline));
      await page.close();
      await new Promise((done) => setTimeout(done, 2000));
    }
  } finally {
    await browser.close();
    await baseline.stop();
  }
  const result = summary(firstAfterInstall, cold, warm, builtIn, hostReady, coldSteps, warmSteps, hostRss, baselineRss, serverRss);
  writeFileSync(join(tempDir("bench-result"), "result.json"), JSON.stringify(result));
  console.log(`WAVEHOST_BENCH ${JSON.stringify(result)}`);
});
