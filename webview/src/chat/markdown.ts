/** Assistant text as HTML: Markdown rendered by marked, then sanitised by DOMPurify. */

import DOMPurify, { type DOMPurify as Purifier } from "dompurify";
import { Marked } from "marked";

const marked = new Marked({ gfm: true, breaks: false, async: false });
const purifiers = new WeakMap<object, Purifier>();

function purifierFor(win: Window & typeof globalThis): Purifier {
  let purify = purifiers.get(win);
  if (!purify) {
    purify = DOMPurify(win);
    if (purify.isSupported) purify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer");
      }
    });
    purifiers.set(win, purify);
  }
  return purify;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderMarkdown(text: string, win: Window & typeof globalThis = window): string {
  const purify = purifierFor(win);
  // DOMPurify hands back its input untouched where it cannot work: show plain text instead.
  if (!purify.isSupported) return `<p>${escapeHtml(text)}</p>`;
  const html = marked.parse(text) as string;
  return purify.sanitize(html, {
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe"],
    FORBID_ATTR: ["style"],
    ALLOW_DATA_ATTR: false,
  });
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** Lines that go on the block before them even after a blank line: list items, indented text. */
const CONTINUES = /^(\s|[-*+]\s|\d{1,9}[.)]\s)/;

/**
 * A text that grows at its end (a streamed reply), rendered in pieces: the text is cut where a
 * top-level block starts after a blank line (outside code fences; list items and indented lines go
 * on with the block before them), each finished piece is rendered once, and only the last, still
 * growing, piece is rendered again as text comes. Rendering a reply so costs about its length,
 * not its length times the number of times it grew.
 */
export class StreamedMarkdown {
  private readonly done: string[] = [];
  private text = "";
  private doneAt = 0; // where the unfinished piece starts
  private scanAt = 0; // the first line not looked at yet (only whole lines are)
  private fence: string | null = null; // the fence open at scanAt
  private blank = false; // the line before scanAt was blank (outside a fence)
  private tail: string | null = null;

  constructor(private readonly win: Window & typeof globalThis = window) {}

  /** The text now; it is the text given before with more at its end. */
  update(text: string): void {
    if (text.length === this.text.length) return;
    this.text = text;
    this.tail = null;
    for (let end = text.indexOf("\n", this.scanAt); end >= 0; end = text.indexOf("\n", this.scanAt)) {
      this.look(text.slice(this.scanAt, end), this.scanAt);
      this.scanAt = end + 1;
    }
  }

  /** The HTML of each piece, in order (their concatenation renders the whole text). */
  get pieces(): string[] {
    this.tail ??= renderMarkdown(this.text.slice(this.doneAt), this.win);
    return [...this.done, this.tail];
  }

  private look(line: string, start: number): void {
    const fence = FENCE.exec(line)?.[1];
    if (this.fence !== null) {
      const closes = fence !== undefined && fence[0] === this.fence[0] && fence.length >= this.fence.length;
      if (closes && line.trim() === fence) this.fence = null;
      return;
    }
    if (line.trim() === "") {
      this.blank = true;
      return;
    }
    if (this.blank && !CONTINUES.test(line) && start > this.doneAt) {
      this.done.push(renderMarkdown(this.text.slice(this.doneAt, start), this.win));
      this.doneAt = start;
    }
    this.blank = false;
    if (fence !== undefined) this.fence = fence;
  }
}
