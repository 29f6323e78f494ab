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
