import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import ReactMarkdown from "react-markdown";
import { markdownOptions, safeUrl } from "./markdown-options";
import { mediaSrc } from "./media-src";

const render = (text: string) => renderToStaticMarkup(createElement(ReactMarkdown, markdownOptions, text));

test("raw HTML is shown as text, never as elements", () => {
  const html = render("<script>alert(1)</script> and <img src=x onerror=alert(1)>");
  assert.ok(!/<script|<img/i.test(html), html);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
});

test("GFM: tables, task lists, strikethrough and autolinks", () => {
  const html = render("| model | tokens |\n|---|--:|\n| gpt-4o | 1,024 |\n\n- [x] done\n- [ ] todo\n\n~~old~~ see https://a.example/b");
  assert.match(html, /<table>.*<th>model<\/th>.*<td>gpt-4o<\/td>.*<td style="text-align:right">1,024<\/td>/s);
  assert.match(html, /<input type="checkbox" disabled="" checked=""\/> done/);
  assert.match(html, /<del>old<\/del>/);
  assert.match(html, /<a href="https:\/\/a.example\/b">/);
});

test("fenced code with a language is highlighted; its content stays text", () => {
  const html = render("```python\nprint('<b>')\n```");
  assert.match(html, /<code class="hljs language-python">/);
  assert.match(html, /<span class="hljs-string">&#x27;&lt;b&gt;&#x27;<\/span>/);
});

test("only http(s) and mailto links survive", () => {
  assert.equal(safeUrl("javascript:alert(1)"), "");
  assert.equal(safeUrl("data:text/html,<b>"), "");
  assert.equal(safeUrl("/relative"), "");
  assert.equal(safeUrl(" https://ok.example/x "), "https://ok.example/x");
  assert.ok(!render("[x](javascript:alert(1))").includes("javascript:"));
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

test("hostile markdown renders in bounded time", () => {
  for (const text of ["[".repeat(20_000), "** ".repeat(10_000), "`a".repeat(10_000) + "``", "[a](".repeat(10_000)]) {
    assert.equal(typeof render(text), "string");
  }
});
