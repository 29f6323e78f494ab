/**
 * A settings page that scales and reads as one, in real Chromium against a real `wavehost web`:
 * one group per moment across dialects, folded and unfolded, its header staying in view while
 * 300 rows scroll; a badge that names the one broken file among several, the page opening at it;
 * an empty source that teaches, with starter hooks prefilled in the chat; tabs that read "User
 * hooks, 1"; the document titled. Screenshots in build/screenshots (light and dark, 1280 and 360
 * px, zh-CN and en); axe-core with no violations.
 */

import { join } from "node:path";

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { axeViolations } from "./axe";
import { SCREENSHOTS, type Workspace, collectProblems, command, e2eSuite, hooksFile } from "./harness";

const e2e = e2eSuite();
const WIDE = { width: 1280, height: 860 };
const NARROW = { width: 360, height: 760 };

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
const tab = (page: Page, source: string) => page.locator(`[role=tab][data-source=${source}]`);
const panel = (page: Page) => page.locator("[role=tabpanel]");
const head = (page: Page, event: string) => panel(page).locator(`[data-testid=group][data-event=${event}]`);
const section = (page: Page, event: string) => panel(page).locator("section.group", { has: page.locator(`[data-testid=group][data-event=${event}]`) });

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}

async function open(ws: Workspace, options: { locale?: string; viewport?: typeof WIDE; dark?: boolean } = {}) {
  const server = await e2e.web(ws, options.locale ?? "en");
  const page = await e2e.browser.newPage({ viewport: options.viewport ?? WIDE, colorScheme: options.dark ? "dark" : "light" });
  const problems = collectProblems(page);
  await page.goto(server.url);
  await page.getByTestId("count-user").waitFor();
  return { page, problems };
}

/** 300 project hooks on four events (Wave), and Copilot hooks on two of the same moments. */
function busyWorkspace(): Workspace {
  const ws = e2e.workspace();
  const events = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"] as const;
  const hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> = {};
  for (let i = 0; i < 300; i++) {
    const event = events[i % events.length]!;
    (hooks[event] ??= []).push({ ...(event.endsWith("ToolUse") ? { matcher: "Bash" } : {}), hooks: [command(`./check-${i}.sh`)] });
  }
  ws.write(ws.projectSettings, hooksFile(hooks));
  ws.write(join(ws.project, ".github", "hooks", "team.json"), {
    version: 1,
    hooks: { preToolUse: [{ bash: "./copilot-guard.sh", matcher: "bash" }], agentStop: [{ bash: "./copilot-bye.sh" }] },
  });
  return ws;
}

describe("settings page: one page that scales", () => {
  it("groups every dialect's hooks by moment; groups fold; a header stays in view while 300 rows scroll", async () => {
    const ws = busyWorkspace();
    const { page, problems } = await open(ws);
    await tab(page, "project").click();
    await expect.poll(() => page.getByTestId("count-project").innerText()).toBe("302");
    await expect.poll(() => panel(page).getByTestId("group").evaluateAll((els) => els.map((e) => e.getAttribute("data-event")))).toEqual([
      "PreToolUse",
      "PostToolUse",
      "UserPromptSubmit",
      "Stop",
    ]);
    await expect.poll(() => head(page, "PreToolUse").innerText()).toContain("PreToolUse: 76");
    // The page says a Bash call runs both dialects' hooks.
    await expect.poll(() => section(page, "PreToolUse").getByTestId("both-fire").innerText()).toBe("On a Bash call, Wave and Copilot CLI hooks both run.");
    await expect.poll(() => section(page, "Stop").getByTestId("both-fire").innerText()).toBe("At every Stop, Wave and Copilot CLI hooks both run.");
    await expect.poll(() => section(page, "PostToolUse").getByTestId("both-fire").count()).toBe(0);
    // The Copilot hook is in its moment's group (its 76th row: far down, found by the filter),
    // with its own event name.
    await page.getByTestId("filter").fill("copilot-guard");
    const copilot = section(page, "PreToolUse").locator("li.hook[data-dialect=copilot]");
    await expect.poll(() => copilot.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => copilot.getByTestId("file-event").textContent()).toBe("preToolUse");
    await page.getByTestId("filter").fill("");

    // Scrolled deep into the first group, its header stays right under the page's head.
    const view = page.locator("wave-app .view").first();
    await view.evaluate((el) => (el.scrollTop = 3000));
    await expect
      .poll(async () => {
        const [h, s] = [await head(page, "PreToolUse").boundingBox(), await page.locator("wave-hooks-page .sticky").boundingBox()];
        return h && s ? Math.round(h.y - (s.y + s.height)) : null;
      })
      .toBe(0);
    await shot(page, "settings-300-sticky-header-1280");

    // Fold it: its rows go, the next group follows at once; unfold: they come back.
    const toggle = head(page, "PreToolUse").locator("[data-action=toggle-group]");
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => section(page, "PreToolUse").locator("li.hook").count()).toBe(0);
    await expect.poll(() => head(page, "PreToolUse").innerText()).toContain("PreToolUse: 76"); // still counted
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => section(page, "PreToolUse").locator("li.hook").count()).toBeGreaterThan(0);
    // Every row is reachable: the last one of the last group, filtered to.
    await page.getByTestId("filter").fill("check-299.sh");
    await expect.poll(() => panel(page).locator("li.hook").count()).toBe(1);
    await page.getByTestId("filter").fill("");
    await view.evaluate((el) => (el.scrollTop = 0));
    await expectAccessible(page, "300 hooks, grouped");
    expect(problems).toEqual([]);
  });

  it("3,000 hooks: a filter shows exactly the matching rows; groups fold and their header stays in view deep in the list", async () => {
    const ws = e2e.workspace();
    const events = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"] as const;
    const hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> = {};
    const commands: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const event = events[i % events.length]!;
      commands.push(`./check-${i}.sh`);
      (hooks[event] ??= []).push({ ...(event.endsWith("ToolUse") ? { matcher: "Bash" } : {}), hooks: [command(`./check-${i}.sh`)] });
    }
    ws.write(ws.projectSettings, hooksFile(hooks));
    const { page, problems } = await open(ws);
    await tab(page, "project").click();
    await expect.poll(() => page.getByTestId("count-project").innerText(), { timeout: 60_000 }).toBe("3000");
    await expect.poll(() => head(page, "PostToolUse").innerText()).toContain("PostToolUse: 750");
    const rows = panel(page).locator("li.hook");
    expect(await rows.count()).toBeLessThan(60); // the rows near the view, not 3,000

    // A narrow filter: exactly its rows, every one of them.
    const filter = page.getByTestId("filter");
    await filter.fill("check-42");
    const want = commands.filter((c) => c.includes("check-42"));
    await expect.poll(() => page.getByTestId("filter-count").innerText()).toBe(`Showing ${want.length} of 3000`);
    await expect.poll(async () => (await rows.locator("code.command").allInnerTexts()).sort()).toEqual([...want].sort());
    await shot(page, "settings-3000-filtered-1280");
    // A broad one (1,111 rows): the rows shown all match, and the groups hold exactly the rest.
    await filter.fill("check-1");
    const broad = commands.filter((c) => c.includes("check-1"));
    await expect.poll(() => page.getByTestId("filter-count").innerText()).toBe(`Showing ${broad.length} of 3000`);
    for (const text of await rows.locator("code.command").allInnerTexts()) expect(text).toContain("check-1");
    const counted = await panel(page).locator("[data-action=toggle-group]").allInnerTexts();
    expect(counted.map((text) => Number(/: (\d+)/.exec(text)![1])).reduce((a, b) => a + b, 0)).toBe(broad.length);
    await expect.poll(() => rows.first().getAttribute("aria-setsize")).toBe(String(commands.filter((c, i) => i % 4 === 0 && c.includes("check-1")).length)); // PreToolUse's
    await filter.fill("");

    // Deep in the second group: its header stays right under the page's head, and the rows in
    // view are that far down the group.
    const view = page.locator("wave-app .view").first();
    await view.evaluate((el) => {
      const list = el.querySelector("wave-hooks-page")!.shadowRoot!.querySelectorAll("ul.hooks")[1]!;
      el.scrollTop += list.getBoundingClientRect().top - el.getBoundingClientRect().top + 30_000;
    });
    await expect
      .poll(async () => {
        const [h, s] = [await head(page, "PostToolUse").boundingBox(), await page.locator("wave-hooks-page .sticky").boundingBox()];
        return h && s ? Math.round(h.y - (s.y + s.height)) : null;
      })
      .toBe(0);
    const inView = (event: string) =>
      section(page, event)
        .locator("li.hook")
        .evaluateAll((lis) =>
          lis.filter((li) => {
            const box = li.getBoundingClientRect();
            return box.bottom > 0 && box.top < innerHeight;
          }).map((li) => Number(li.getAttribute("aria-posinset"))),
        );
    await expect.poll(async () => (await inView("PostToolUse")).length).toBeGreaterThan(2);
    expect(Math.min(...(await inView("PostToolUse")))).toBeGreaterThan(200);
    await shot(page, "settings-3000-deep-sticky-1280");

    // Folded there: its rows go, its header still counts them, the next group's rows come into
    // view; unfolded with the keyboard, they are back.
    const toggle = head(page, "PostToolUse").locator("[data-action=toggle-group]");
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => section(page, "PostToolUse").locator("li.hook").count()).toBe(0);
    await expect.poll(() => head(page, "PostToolUse").innerText()).toContain("PostToolUse: 750");
    await expect.poll(async () => (await inView("UserPromptSubmit")).length + (await inView("Stop")).length).toBeGreaterThan(2);
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => section(page, "PostToolUse").locator("li.hook").count()).toBeGreaterThan(0);
    // The keyboard walks the rows past the first screen (each row: Test, Why, Edit, Delete, Copy path).
    await view.evaluate((el) => (el.scrollTop = 0));
    await panel(page).locator("li.hook [data-action=test]").first().focus();
    for (let i = 0; i < 5 * 30; i++) await page.keyboard.press("Tab");
    const focused = () =>
      page.locator("wave-hooks-page").evaluate((el) => {
        const row = el.shadowRoot!.activeElement?.closest("li.hook");
        return row ? `${row.closest("ul")!.getAttribute("aria-label")} ${row.getAttribute("aria-posinset")}` : null;
      });
    await expect.poll(focused).toBe("PreToolUse 31");
    await expectAccessible(page, "3,000 hooks, deep in a group");
    expect(problems).toEqual([]);
  });

  it("at 360 px in the dark, in Chinese: the groups and the notes fit", async () => {
    const ws = busyWorkspace();
    const { page } = await open(ws, { locale: "zh-CN", viewport: NARROW, dark: true });
    await tab(page, "project").click();
    await expect.poll(() => section(page, "PreToolUse").getByTestId("both-fire").innerText()).toBe("Bash 调用时，Wave 和 Copilot CLI 的钩子都会运行。");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360); // nothing sticks out sideways
    await expectAccessible(page, "groups, 360 px, dark");
    await shot(page, "settings-groups-360-dark");
  });

  it("names the one broken file among several in the Project tab's badge, and opens there", async () => {
    const ws = e2e.workspace();
    ws.write(ws.userSettings, hooksFile({ Stop: [{ hooks: [command("notify-send done")] }] }));
    ws.write(ws.projectSettings, hooksFile({ Stop: [{ hooks: [command("./wave-stop.sh")] }] }));
    ws.write(join(ws.project, ".github", "hooks", "good.json"), { version: 1, hooks: { preToolUse: [{ bash: "./ok.sh" }] } });
    ws.write(join(ws.project, ".github", "hooks", "broken.json"), '{"version": 1, "hooks": {\n  "preToolUse": [\n}\n');
    for (const [locale, said] of [
      ["en", "2 · ⚠ broken.json: invalid JSON"],
      ["zh-CN", "2 · ⚠ broken.json 的 JSON 有误"],
    ] as const) {
      const { page, problems } = await open(ws, { locale, viewport: locale === "en" ? WIDE : NARROW });
      // Not "unreadable": two of its files work and are counted; the badge names the one that does not.
      await expect.poll(() => page.getByTestId("count-project").innerText()).toBe(said);
      await expect.poll(() => tab(page, "project").getAttribute("aria-selected")).toBe("true");
      await expect.poll(() => tab(page, "user").getAttribute("aria-label")).toBe(locale === "en" ? "User hooks, 1" : "用户级钩子, 1");
      // The page opened at the problem: the broken file's card, in view and focused.
      const card = page.getByTestId("broken-file");
      await expect.poll(() => card.evaluate((el) => el.getRootNode() instanceof ShadowRoot && (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
      await expect.poll(() => card.innerText()).toContain("broken.json");
      const box = await card.boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual((locale === "en" ? WIDE : NARROW).height);
      await expectAccessible(page, `broken file, ${locale}`);
      await shot(page, `settings-broken-file-badge-${locale}`);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it("an empty source teaches what a hook is and offers starter hooks, each prefilled in the chat", async () => {
    const ws = e2e.workspace();
    for (const [locale, viewport, dark] of [
      ["zh-CN", WIDE, false],
      ["en", NARROW, true],
    ] as const) {
      const { page, problems } = await open(ws, { locale, viewport, dark });
      const empty = page.getByTestId("empty-user");
      await expect.poll(() => empty.innerText()).toContain(locale === "en" ? "A hook is a command that runs by itself" : "钩子是在智能体工作的某个时刻");
      await expect.poll(() => empty.locator("[data-action=starter]").allInnerTexts()).toEqual(
        locale === "en" ? ["Block rm -rf", "Format after Edit", "Log every prompt"] : ["拦下 rm -rf", "编辑后自动格式化", "记录每条提示词"],
      );
      await expectAccessible(page, `empty state, ${locale}`);
      await shot(page, `settings-empty-starters-${locale}`);
      await empty.locator("[data-action=starter][data-starter=blockRmRf]").click();
      const input = page.locator("wave-chat-panel textarea");
      await expect
        .poll(() => input.inputValue())
        .toBe(
          locale === "en"
            ? "Help me set up a user-level hook: when PreToolUse, for Bash, run a command that refuses rm -rf (exit 2, the reason on stderr), timeout 10 s"
            : "帮我配一个用户级钩子：PreToolUse 时，Bash，跑一个拒绝 rm -rf 的命令（退出码 2，在 stderr 说明原因），超时 10 秒",
        );
      await page.locator("[data-action=open-settings]").click();
      await tab(page, "project").click();
      await page.getByTestId("empty-project").locator("[data-starter=formatAfterEdit]").click();
      await expect.poll(() => input.inputValue()).toContain(locale === "en" ? "Help me create a hook in [my-app]: when PostToolUse, for Write|Edit" : "帮我在【my-app】新建钩子：PostToolUse 时，Write|Edit");
      await expect.poll(() => page.title()).toBe(locale === "en" ? "Wave chat" : "Wave 对话");
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it("the document is titled by its view; tabs read their name and count", async () => {
    const ws = e2e.workspace();
    ws.write(ws.userSettings, hooksFile({ Stop: [{ hooks: [command("true")] }] }));
    const { page } = await open(ws);
    await expect.poll(() => page.title()).toBe("Wave hook settings");
    await expect.poll(() => tab(page, "user").getAttribute("aria-label")).toBe("User hooks, 1");
    const snapshot = await page.locator("wave-app").ariaSnapshot();
    expect(snapshot).toContain('tab "User hooks, 1" [selected]');
    expect(snapshot).not.toContain("Loading"); // said while loading only
    await expectAccessible(page, "settings page, loaded");
  });
});
