import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

/** theme.css is the one map of the page's colours: every component uses bare `var(--vscode-*)`
 * (a fallback inside a component would contradict the map whenever the variable is unset). */
const SRC = join(__dirname, "../src");
const css = readFileSync(join(SRC, "theme.css"), "utf8");

function declared(block: string): Map<string, string> {
  return new Map([...block.matchAll(/(--vscode-[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

const darkAt = css.indexOf("@media (prefers-color-scheme: dark)");
const light = declared(css.slice(0, darkAt));
const dark = declared(css.slice(darkAt));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|css)$/.test(name) && name !== "generated.ts" ? [path] : [];
  });
}

const uses = sources(SRC).flatMap((path) =>
  [...readFileSync(path, "utf8").matchAll(/var\((--vscode-[\w-]+)([^)]*)\)/g)].map((m) => ({ path, name: m[1]!, rest: m[2]! })),
);

describe("one theme map", () => {
  it("components name variables without fallbacks", () => {
    expect(uses.length).toBeGreaterThan(50);
    expect(uses.filter((u) => u.rest.trim() !== "").map((u) => `${u.path}: ${u.name}${u.rest}`)).toEqual([]);
  });

  it("every variable used has a light default, and every colour a dark one too", () => {
    const names = [...new Set(uses.map((u) => u.name))];
    expect(names.filter((n) => !light.has(n))).toEqual([]);
    // Fonts and "transparent" are the same in both schemes: the dark block need not repeat them.
    const colours = [...light].filter(([n, v]) => !/font/.test(n) && v !== "transparent").map(([n]) => n);
    expect(colours.filter((n) => !dark.has(n))).toEqual([]);
    expect([...dark.keys()].filter((n) => !light.has(n))).toEqual([]);
  });
});
