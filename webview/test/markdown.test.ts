// @vitest-environment jsdom
import { describe, expect, it } from "vitest";

import { renderMarkdown } from "../src/chat/markdown";

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
