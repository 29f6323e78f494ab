// @vitest-environment jsdom
import { describe, expect, it } from "vitest";

import { StreamedMarkdown, renderMarkdown } from "../src/chat/markdown";

describe("renderMarkdown", () => {
  it("renders Markdown", () => {
    const html = renderMarkdown("# Title\n\n**bold** and `code`\n\n- a\n- b");
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain("<li>a</li>");
  });

  it("removes scripts, event handlers, javascript: links and inline styles", () => {
    const html = renderMarkdown(
      '<script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">x</a>' +
        '<p style="color:red">p</p><iframe src="https://example.com"></iframe>',
    );
    expect(html).not.toMatch(/script|onerror|javascript:|style=|iframe/i);
    expect(html).toContain("<p>p</p>");
  });

  it("opens links outside the page", () => {
    expect(renderMarkdown("[docs](https://example.com)")).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">docs</a>',
    );
  });
});

describe("renderMarkdown without a working DOM", () => {
  it("shows the text escaped instead of unsanitised HTML", () => {
    const html = renderMarkdown("<img src=x onerror=alert(1)> **b**", {} as Window & typeof globalThis);
    expect(html).toBe("<p>&#60;img src=x onerror=alert(1)&#62; **b**</p>");
  });
});

describe("StreamedMarkdown", () => {
  /** The HTML without the whitespace between top-level elements (pieces are rendered apart). */
  const flat = (html: string) => html.replace(/>\s+</g, "><").trim();
  const samples = [
    "# Plan\n\nFirst **this**.\n\nThen `that`, and a [link](https://example.com).\n",
    "Intro:\n\n```python\ndef f():\n\n    return 1\n\n\nprint(f())\n```\n\nAfter the code.\n\n~~~\n\n~~~\nend",
    "- one\n\n- two\n\n  indented on two\n\n1. first\n2. second\n\nA paragraph\nover two lines.\n\n> quoted\n\n---\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    "    indented code\n\n    more of it\n\nplain",
  ];

  it("renders a text grown in any steps as the whole text renders", () => {
    for (const text of samples) {
      for (const step of [1, 3, 16, 1000]) {
        const streamed = new StreamedMarkdown();
        for (let end = step; end < text.length + step; end += step) streamed.update(text.slice(0, end));
        expect(flat(streamed.pieces.join("")), `${JSON.stringify(text)} in steps of ${step}`).toBe(flat(renderMarkdown(text)));
      }
    }
  });

  it("renders each finished piece once: a long reply costs its length, not its length times its steps", () => {
    const paragraphs = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} says something **useful** about item ${i}.`);
    const text = paragraphs.join("\n\n");
    const streamed = new StreamedMarkdown();
    for (let end = 16; end < text.length + 16; end += 16) streamed.update(text.slice(0, end));
    const pieces = streamed.pieces;
    // Every paragraph its own piece, but the last whole line's (a piece is cut once the line that
    // starts the next one has ended): only that last piece is rendered again as text comes.
    expect(pieces).toHaveLength(199);
    expect(pieces[0]).toBe("<p>Paragraph 0 says something <strong>useful</strong> about item 0.</p>\n");
    expect(flat(pieces[198]!)).toBe(flat(renderMarkdown(paragraphs.slice(198).join("\n\n"))));
  });
});
