import assert from "node:assert/strict";
import { test } from "node:test";
import { parseInline, parseMarkdown, safeHref } from "./markdown-parse";
import { mediaSrc } from "./media-src";

test("raw HTML stays text", () => {
  const blocks = parseMarkdown('<script>alert(1)</script> and <img src=x onerror=alert(1)>');
  assert.deepEqual(blocks, [{ t: "p", children: [{ t: "text", text: "<script>alert(1)</script> and <img src=x onerror=alert(1)>" }] }]);
});

test("inline: bold, italic, code, links; snake_case is not emphasis", () => {
  assert.deepEqual(parseInline("**bold** and *it* `x*y` snake_case_name"), [
    { t: "strong", children: [{ t: "text", text: "bold" }] },
    { t: "text", text: " and " },
    { t: "em", children: [{ t: "text", text: "it" }] },
    { t: "text", text: " " },
    { t: "code", text: "x*y" },
    { t: "text", text: " snake_case_name" },
  ]);
  assert.deepEqual(parseInline("[docs](https://example.com/a)"), [
    { t: "link", href: "https://example.com/a", children: [{ t: "text", text: "docs" }] },
  ]);
});

test("only http(s) links become links", () => {
  assert.deepEqual(parseInline("[x](javascript:alert(1))").some((n) => n.t === "link"), false);
  assert.equal(safeHref("javascript:alert(1)"), null);
  assert.equal(safeHref("data:text/html,<b>"), null);
  assert.equal(safeHref("/relative"), null);
  assert.equal(safeHref(" https://ok.example/x "), "https://ok.example/x");
  assert.deepEqual(parseInline("see https://a.example/b."), [
    { t: "text", text: "see " },
    { t: "link", href: "https://a.example/b", children: [{ t: "text", text: "https://a.example/b" }] },
    { t: "text", text: "." },
  ]);
});

test("blocks: fenced code, lists, headings, quotes, paragraphs", () => {
  const blocks = parseMarkdown("# Title\n\nIntro line\nsecond line\n\n```python\nprint('<b>')\n```\n- one\n- **two**\n\n1. a\n2. b\n> quoted");
  assert.deepEqual(blocks.map((b) => b.t), ["heading", "p", "code", "list", "list", "quote"]);
  assert.deepEqual(blocks[1], { t: "p", children: [{ t: "text", text: "Intro line\nsecond line" }] });
  assert.deepEqual(blocks[2], { t: "code", lang: "python", text: "print('<b>')" });
  assert.equal((blocks[4] as { ordered: boolean }).ordered, true);
});

test("an unclosed fence runs to the end", () => {
  assert.deepEqual(parseMarkdown("```\ncode"), [{ t: "code", lang: "", text: "code" }]);
});

test("media: data URLs only for image/audio/video of the block's kind", () => {
  assert.equal(mediaSrc("image", { base64: "aGVsbG8=", mimeType: "image/png" }), "data:image/png;base64,aGVsbG8=");
  assert.equal(mediaSrc("image", { base64: "aGVsbG8=", mimeType: "text/html" }), null);
  assert.equal(mediaSrc("file", { base64: "aGVsbG8=", mimeType: "application/pdf" }), null);
  assert.equal(mediaSrc("audio", { url: "data:text/html;base64,PHNjcmlwdD4=" }), null);
  assert.equal(mediaSrc("audio", { url: "data:audio/wav;base64,UklGRg==" }), "data:audio/wav;base64,UklGRg==");
  assert.equal(mediaSrc("image", { url: "javascript:alert(1)" }), null);
  assert.equal(mediaSrc("video", { url: "https://cdn.example/v.mp4" }), "https://cdn.example/v.mp4");
});

test("unclosed delimiters stay linear: a hostile message cannot freeze the page", () => {
  for (const text of ["[".repeat(100_000), "** ".repeat(50_000), "`a".repeat(50_000) + "``", "h ".repeat(50_000), "[a](".repeat(50_000)]) {
    const started = Date.now();
    parseMarkdown(text);
    assert.ok(Date.now() - started < 1500, `${text.slice(0, 8)}… took ${Date.now() - started} ms`);
  }
});
