/**
 * Measured, not asserted (bench/vscode.py runs this): in code-server, "Wave: Open Hooks Settings"
 * → the first hooks list rendered, in a fresh window each time (so activation and the server's
 * start are inside); the memory the extension adds to the extension host, and the server's own.
 */

import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { it } from "vitest";

import {
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

it("measures the first hooks list, the vsix size and the memory added", async () => {
  const home = tempDir("bench-home");
  const project = join(tempDir("bench-project"), "demo-project");
  cpSync(join(REPO, "examples", "demo-project"), project, { recursive: true });
  const server = await CodeServer.start({ home });
  const browser = await launchBrowser();
  const firstList: number[] = [];
  const hostAdded: number[] = [];
  const serverRss: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await openWorkbench(page, server.origin, project);
      await waitForExtension(page);
      const hosts = pids(`${server.userData}.*extensionHost|type=extensionHost`);
      const before = hosts.map(rssKb).reduce((a, b) => a + b, 0);
      const started = Date.now();
      await runCommand(page, "Wave: Open Hooks Settings");
      const frame = await waveFrame(page, "settings", 60_000);
      await frame.locator("li.hook").first().waitFor({ state: "attached", timeout: 60_000 });
      firstList.push(Date.now() - started);
      const after = hosts.map(rssKb).reduce((a, b) => a + b, 0);
      hostAdded.push((after - before) / 1024);
      serverRss.push(pids(`${server.extensions}/.*/server/launch.py serve`).map(rssKb).reduce((a, b) => a + b, 0) / 1024);
      await page.close();
      await new Promise((done) => setTimeout(done, 2000)); // the window's extension host goes away
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const result = {
    runs: RUNS,
    firstListMs: { median: median(firstList), all: firstList },
    vsixMB: statSync(vsixPath()).size / 1e6,
    extensionHostAddedMB: median(hostAdded),
    serverRssMB: median(serverRss),
  };
  writeFileSync(join(tempDir("bench-result"), "result.json"), JSON.stringify(result));
  console.log(`WAVEHOST_BENCH ${JSON.stringify(result)}`);
});
