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
  runCommand,
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

/** The start-up timings the extension logs (host.ts, pages.ts), from the newest window's log. */
function loggedTimings(userData: string, since: number): Record<string, number> {
  const logs = execFileSync("find", [join(userData, "logs"), "-name", "wavehost.log", "-newermt", `@${since / 1000}`], {
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .filter(Boolean);
  const found: Record<string, number> = {};
  for (const file of logs) {
    const text = readFileSync(file, "utf8");
    const patterns: Record<string, RegExp> = {
      serverHandshakeMs: /wavehost ready: (\d+) ms/,
      settingsPageReadyMs: /settings page: ready (\d+) ms/,
      settingsFirstAnswerMs: /settings page: first answer (\d+) ms/,
    };
    for (const [key, pattern] of Object.entries(patterns)) {
      const match = pattern.exec(text);
      if (match) found[key] = Number(match[1]);
    }
  }
  return found;
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

function summary(
  cold: number[],
  warm: number[],
  builtIn: number[],
  hostReady: number[],
  logged: Record<string, number[]>,
  hostRss: number[],
  baselineRss: number[],
  serverRss: number[],
) {
  return {
    runs: RUNS,
    firstListMs: { median: median(cold), all: cold },
    warmFirstListMs: { median: median(warm), all: warm },
    builtInSettingsMs: { median: median(builtIn), all: builtIn },
    windowToHostReadyMs: median(hostReady),
    logged: Object.fromEntries(Object.entries(logged).map(([k, v]) => [k, median(v)])),
    vsixMB: statSync(vsixPath()).size / 1e6,
    extensionHostAddedMB: baselineRss.length ? median(hostRss) - median(baselineRss) : null,
    serverRssMB: median(serverRss),
  };
}

/** From Enter on the command in the palette (typing it is not counted) to the first hooks row. */
async function timeFirstList(page: Page): Promise<number> {
  await chooseCommand(page, "Wave: Open Hooks Settings");
  const started = Date.now();
  await page.keyboard.press("Enter");
  const frame = await waveFrame(page, "settings", 60_000);
  await frame.locator("li.hook").first().waitFor({ state: "attached", timeout: 60_000 });
  return Date.now() - started;
}

/**
 * The baseline, in the same window: VS Code's own settings editor ("Preferences: Open Settings
 * (UI)", a built-in editor with a list) from Enter to its first setting row; then closed.
 */
async function timeBuiltInSettings(page: Page): Promise<number> {
  await chooseCommand(page, "Preferences: Open Settings (UI)");
  const started = Date.now();
  await page.keyboard.press("Enter");
  await page.locator(".settings-editor .setting-item").first().waitFor({ state: "attached", timeout: 60_000 });
  const took = Date.now() - started;
  await runCommand(page, "View: Close All Editors");
  return took;
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
  const logged: Record<string, number[]> = {};
  try {
    // A first window compiles the bundle's bytecode (once per install); not counted.
    const first = await browser.newPage();
    await openWorkbench(first, server.origin, project);
    await waitForExtension(first);
    await timeFirstList(first);
    await first.close();
    for (let run = 0; run < RUNS; run++) {
      // Cold: the command as soon as the workbench is there (the server starts meanwhile).
      let page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      let since = Date.now();
      await openWorkbench(page, server.origin, project);
      await waitForExtension(page);
      cold.push(await timeFirstList(page));
      for (const [key, value] of Object.entries(loggedTimings(server.userData, since))) (logged[key] ??= []).push(value);
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
      builtIn.push(await timeBuiltInSettings(page));
      warm.push(await timeFirstList(page));
      serverRss.push(pids(`${server.extensions}/.*/server/launch.py serve`).map(rssKb).reduce((a, b) => a + b, 0) / 1024);
      await page.close();
      await new Promise((done) => setTimeout(done, 2000));
    }
  } finally {
    await server.stop();
  }
  console.log(`WAVEHOST_BENCH ${JSON.stringify(summary(cold, warm, builtIn, hostReady, logged, hostRss, [], serverRss))}`);
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
  const result = summary(cold, warm, builtIn, hostReady, logged, hostRss, baselineRss, serverRss);
  writeFileSync(join(tempDir("bench-result"), "result.json"), JSON.stringify(result));
  console.log(`WAVEHOST_BENCH ${JSON.stringify(result)}`);
});
