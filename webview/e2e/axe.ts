/** axe-core (pinned in package.json) run inside the real page, shadow roots included. */

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import type { Frame, Page } from "playwright-core";

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export interface Violation {
  id: string;
  help: string;
  nodes: string[];
}

/** Every WCAG 2.x A/AA and best-practice violation on the page (or a frame: a VS Code webview's
 * document) as it is now. */
export async function axeViolations(page: Page | Frame): Promise<Violation[]> {
  // Evaluated through the DevTools protocol, which the page's strict CSP does not govern.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
}
