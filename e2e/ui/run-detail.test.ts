/**
 * The UI end to end in Debian's Chromium: sign up on the page, create a key in settings, send a trace
 * with the real langsmith client (OpenAI, Anthropic and native LLM runs carrying script and onerror
 * markup), find it in the runs table, read the conversations (markup shown as text, no dialog).
 * Screenshots of each page go to e2e/screenshots/; feedback and datasets from the run view are in
 * run-feedback.test.ts, the other pages in workspace-pages.test.ts.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { startServer, type RunningServer } from "../harness/server";
import { desktopPage, launchBrowser } from "./harness";
import { IMG, openRun, PROJECT, SCRIPT, sendTrace, STACK } from "./run-detail-trace";
import { restCall } from "./suite";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}: install Debian's chromium package (CI does) or set CHROMIUM_PATH`;
const SHOTS = path.join(process.cwd(), "e2e", "screenshots");

let server: RunningServer;
let browser: Browser;
let page: Page;
const dialogs: string[] = [];
let workspaceId = "";
let apiKey = "";
const ids: Record<string, string> = {};

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `b-${name}.png`), fullPage: false });
const api = (method: string, route: string, body?: unknown) => restCall(server.url, apiKey, method, route, body);

before(async () => {
  if (skip) return;
  await mkdir(SHOTS, { recursive: true });
  server = await startServer();
  browser = await launchBrowser();
  page = await desktopPage(browser, dialogs);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("sign up on the page, create an API key in settings", { skip }, async () => {
  await page.goto(`${server.url}/signup`);
  await page.locator('input[name="name"]').fill("Grace Hopper");
  await page.locator('input[name="email"]').fill("grace@example.com");
  await page.locator('input[name="password"]').fill("grace-password-1");
  await shot("signup");
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(/\/o\/[0-9a-f-]{36}\/projects/, { timeout: 30_000 });
  workspaceId = /\/o\/([0-9a-f-]{36})\//.exec(page.url())![1];

  await page.goto(`${server.url}/o/${workspaceId}/settings`);
  await page.getByLabel("Key description").fill("ui e2e key");
  await page.getByRole("button", { name: "Create key" }).click();
  apiKey = (await page.getByTestId("api-key-value").textContent())!.trim();
  assert.match(apiKey, /^tl_(us|eu)_/);
  await page.locator('[data-testid="api-keys"] tbody tr', { hasText: "ui e2e key" }).waitFor();
  await shot("settings-api-keys");
  const me = await api("GET", "/api/v1/sessions?limit=1");
  assert.equal(me.status, 200, "the key created in the page works against the REST API");
});

test("a trace sent with the langsmith client shows in the runs table and opens", { skip }, async () => {
  Object.assign(ids, await sendTrace(server.url, apiKey));
  await page.goto(`${server.url}/o/${workspaceId}/projects`);
  await page.locator('[data-testid="projects-table"] a', { hasText: PROJECT }).waitFor();
  await shot("projects");
  await page.locator('[data-testid="projects-table"] a', { hasText: PROJECT }).click();
  await page.locator('[data-testid="run-row"]', { hasText: "assistant-pipeline" }).first().click();
  await page.getByTestId("run-detail").waitFor();
  await shot("runs-table");
  await page.getByTestId("open-trace").click();
  await page.getByTestId("trace-tree").waitFor();
  assert.equal(await page.getByTestId("trace-row").count(), 5);
});

test("the trace view: chips per run, project breadcrumb, keys at once, next error, find, share", { skip }, async () => {
  const row = (name: string) => page.locator('[data-testid="trace-row"]', { hasText: name }).first();
  assert.equal(await page.getByTestId("trace-project").textContent(), PROJECT, "the breadcrumb names the project");
  const chips = (await row("openai-chat").textContent()) ?? "";
  assert.ok(chips.includes("gpt-4o-mini") && chips.includes("150 tok") && /⚡\d+ms/.test(chips), chips);
  await page.keyboard.press("ArrowDown");
  assert.equal(await row("openai-chat").getAttribute("aria-selected"), "true", "arrow keys move as soon as the trace opens");
  await page.getByTestId("next-error").click();
  assert.equal(await row("get_weather").getAttribute("aria-selected"), "true", "next error jumps to the failing run");
  await page.getByTestId("trace-search").fill("Seine");
  await page.getByTestId("trace-search-count").filter({ hasText: "1 found" }).waitFor();
  assert.equal(await row("native-agent").getAttribute("data-match"), "true", "found by the text of its output");
  await page.getByTestId("trace-search").press("Enter");
  assert.equal(await row("native-agent").getAttribute("aria-selected"), "true");
  await page.getByTestId("trace-search").fill("");
  const pane = page.locator('aside[aria-label="Selected run"]');
  const drag = async (dx: number) => {
    const grip = (await page.getByTestId("resize-handle").boundingBox())!;
    await page.mouse.move(grip.x + 3, grip.y + 300);
    await page.mouse.down();
    await page.mouse.move(grip.x + 3 + dx, grip.y + 300, { steps: 5 });
    await page.mouse.up();
  };
  const wide = (await pane.boundingBox())!.width;
  await drag(160);
  assert.ok((await pane.boundingBox())!.width < wide - 120, "dragging the grip narrows the run panel");
  await shot("trace-tree");
  await drag(-160);

  await page.getByTestId("share-trace").click();
  await page.getByRole("button", { name: "Create public link" }).click();
  const url = await page.getByTestId("share-url").inputValue();
  const token = /\/public\/([^/]+)\/r$/.exec(url)?.[1];
  assert.ok(token, url);
  assert.equal((await fetch(`${server.url}/api/v1/public/${token}/run`)).status, 200, "the link's token opens the shared trace");
  await shot("trace-share");
  await page.getByRole("button", { name: "Unshare" }).click();
  await page.getByRole("button", { name: "Create public link" }).waitFor();
  assert.equal((await fetch(`${server.url}/api/v1/public/${token}/run`)).status, 404, "unsharing revokes the link at once");
  await page.getByTestId("share-trace").click();
});

test("the OpenAI run reads as a conversation; markup is text, nothing runs", { skip }, async () => {
  await openRun(page, "openai-chat");
  const conversation = page.getByTestId("conversation");
  assert.equal(await conversation.getAttribute("data-format"), "openai");
  const text = (await conversation.textContent()) ?? "";
  assert.ok(text.includes(SCRIPT), "the script tag is shown as text");
  assert.ok(text.includes(IMG), "the img tag is shown as text");
  assert.equal(await conversation.locator("script").count(), 0);
  assert.equal(await conversation.locator('img[src="x"]').count(), 0);
  assert.equal(await conversation.locator("strong", { hasText: "18 °C" }).count(), 1, "markdown bold is rendered");
  assert.equal(await conversation.locator("em", { hasText: "sunglasses" }).count(), 1);
  const link = conversation.locator('a[href="https://example.com/paris"]');
  assert.equal(await link.getAttribute("rel"), "noopener noreferrer nofollow");
  assert.equal(await conversation.locator("pre code", { hasText: '"ok": true' }).count(), 1);
  const table = conversation.locator("table");
  assert.deepEqual(await table.locator("th").allTextContents(), ["day", "high", "sky"], "a GFM table renders as a table");
  assert.deepEqual(await table.locator("tbody tr").first().locator("td").allTextContents(), ["Mon", "18 °C", "clear"]);
  assert.equal(await conversation.locator('input[type="checkbox"]:checked').count(), 1, "task list items render as checkboxes");
  assert.equal(await conversation.locator("pre code.language-json .hljs-attr").count(), 1, "code is highlighted");
  await conversation.getByRole("button", { name: "Copy code" }).waitFor();
  await table.scrollIntoViewIfNeeded();
  await shot("trace-markdown");
  await page.getByTestId("run-detail").evaluate((el) => el.scrollTo(0, 0));
  const call = conversation.getByTestId("tool-call").filter({ hasText: "get_weather" });
  await call.getByText("result ↓").click();
  const result = conversation.locator("article[data-role=tool][data-active]");
  await result.waitFor();
  assert.ok(((await result.textContent()) ?? "").includes("temperature_c"));
  assert.equal(await result.getByTestId("tool-result-name").innerText(), "get_weather", "the result names the tool that answered");
  const tools = conversation.getByTestId("tools-offered");
  assert.match(await tools.innerText(), /Tools\s*1[\s\S]*get_weather/i);
  await tools.locator(":scope > summary").click();
  await tools.getByText("The current weather in a city.").waitFor();
  const usage = page.getByTestId("usage");
  assert.ok(((await usage.textContent()) ?? "").includes("150"), "total tokens");
  assert.match((await usage.locator(".stat").nth(1).textContent()) ?? "", /Time to first token\d+ms/);
  await shot("trace-openai-conversation");
  assert.deepEqual(dialogs, []);
});

test("the Anthropic run: reasoning folded, inline image, tool use", { skip }, async () => {
  await openRun(page, "anthropic-messages");
  const conversation = page.getByTestId("conversation");
  assert.equal(await conversation.getAttribute("data-format"), "anthropic");
  const reasoning = conversation.locator("details", { hasText: "Reasoning" }).first();
  assert.equal(await reasoning.getAttribute("open"), null, "reasoning is collapsed by default");
  assert.equal(await conversation.getByText("The user wants a description").isVisible(), false);
  const image = conversation.locator('img[src^="data:image/png;base64,"]');
  assert.equal(await image.count(), 1);
  await conversation.getByTestId("zoom-image").click();
  await page.getByTestId("image-lightbox").locator("img").waitFor();
  await page.keyboard.press("Escape");
  await page.getByTestId("image-lightbox").waitFor({ state: "detached" });
  assert.ok(((await conversation.textContent()) ?? "").includes(IMG));
  assert.equal(await conversation.getByTestId("tool-call").filter({ hasText: "get_time" }).count(), 1);
  await shot("trace-anthropic-conversation");
  assert.deepEqual(dialogs, []);
});

test("the native run: audio, server tool call and result, reasoning", { skip }, async () => {
  await openRun(page, "native-agent");
  const conversation = page.getByTestId("conversation");
  assert.equal(await conversation.getAttribute("data-format"), "native");
  assert.equal(await conversation.locator('audio[src="https://example.com/question.wav"]').count(), 1);
  assert.equal(await conversation.getByTestId("tool-call").filter({ hasText: "web_search" }).count(), 1);
  assert.ok(((await conversation.textContent()) ?? "").includes("Seine cleanup finished"));
  assert.ok(((await conversation.textContent()) ?? "").includes(SCRIPT));
  assert.equal(await conversation.locator("script").count(), 0);
  await shot("trace-native-conversation");
  assert.deepEqual(dialogs, []);
});

test("a failed tool run shows its error and stack; events list the streamed tokens", { skip }, async () => {
  await page.locator('[data-testid="trace-row"]', { hasText: "get_weather" }).first().click();
  const error = page.getByTestId("run-error");
  await error.waitFor();
  assert.equal(await error.locator("pre").textContent(), STACK.split("\n").slice(1).join("\n"));
  assert.ok(((await error.textContent()) ?? "").startsWith("TimeoutError: weather API did not answer in 5s"));
  await page.getByTestId("inputs-outputs").waitFor();
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await error.getByTestId("copy-error").click();
  await error.getByText("Copied").waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), STACK, "Copy takes the whole error with its stack");
  await shot("run-error");
  await openRun(page, "openai-chat");
  await page.getByRole("tab", { name: /Events \(2\)/ }).click();
  assert.equal(await page.locator("table tbody tr", { hasText: "new_token" }).count(), 2);
  await page.getByRole("tab", { name: "Metadata" }).click();
  assert.ok(((await page.getByTestId("run-detail").textContent()) ?? "").includes("ls_model_name"));
});
