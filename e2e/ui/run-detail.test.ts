/**
 * The UI end to end in Debian's Chromium: sign up on the page, create a key in settings, send a trace
 * with the real langsmith client (OpenAI, Anthropic and native LLM runs carrying script and onerror
 * markup), find it in the runs table, read the conversations (markup shown as text, no dialog),
 * leave feedback and read it back through the REST API, add a run to a dataset and browse it, view
 * the charts, and compare a prompt's commits. Screenshots of each page go to e2e/screenshots/.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { Client, RunTree } from "langsmith";
import type { Browser, Page } from "playwright-core";
import { startServer, type RunningServer } from "../harness/server";
import { desktopPage, launchBrowser } from "./harness";
import { restCall } from "./suite";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}: install Debian's chromium package (CI does) or set CHROMIUM_PATH`;
const SHOTS = path.join(process.cwd(), "e2e", "screenshots");
const SCRIPT = "<script>alert(1)</script>";
const IMG = "<img src=x onerror=alert(1)>";
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAJ0lEQVR4nGN49+4PVRDDCDEoOvoaSWjUoFGDRg0aNYhWBlGChrFBAHgzGkxmzqGpAAAAAElFTkSuQmCC";
const PROJECT = "ui-support-bot";
const STACK =
  "TimeoutError: weather API did not answer in 5s\n    at fetchWeather (tools/weather.ts:42:11)\n    at async getWeather (tools/weather.ts:17:5)\n    at async runTool (agent/tools.ts:88:20)";
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: RunningServer;
let browser: Browser;
let page: Page;
const dialogs: string[] = [];
let workspaceId = "";
let apiKey = "";
const ids: Record<string, string> = {};

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `b-${name}.png`), fullPage: false });
const api = (method: string, route: string, body?: unknown) => restCall(server.url, apiKey, method, route, body);

/** One trace with an OpenAI-format, an Anthropic-format and a native-format LLM run under a chain. */
async function sendTrace(key: string) {
  const client = new Client({ apiUrl: server.url, apiKey: key });
  const root = new RunTree({
    name: "assistant-pipeline",
    run_type: "chain",
    inputs: { question: "Weather in Paris?" },
    client,
    project_name: PROJECT,
    tags: ["ui-e2e"],
  });
  await root.postRun();
  const openai = root.createChild({
    name: "openai-chat",
    run_type: "llm",
    inputs: {
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are a weather assistant." },
        { role: "user", content: `What is the weather in Paris? ${SCRIPT} ${IMG}` },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_weather", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: "call_weather", content: '{"temperature_c":18,"sky":"clear"}' },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "The current weather in a city.",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        },
      ],
    },
    extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
  });
  await openai.postRun();
  await wait(40);
  openai.addEvent({ name: "new_token", kwargs: { token: "It" } });
  await wait(25);
  openai.addEvent({ name: "new_token", kwargs: { token: " is" } });
  await openai.end({
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [
      {
        index: 0,
        finish_reason: "stop",
        message: {
          role: "assistant",
          content:
            'It is **18 °C** and clear in Paris.\n\n- Bring *sunglasses*\n- See [forecast](https://example.com/paris)\n\n| day | high | sky |\n|---|--:|---|\n| Mon | 18 °C | clear |\n| Tue | 21 °C | cloudy |\n\n- [x] checked the forecast\n- [ ] book a table\n\n```json\n{"ok": true}\n```',
        },
      },
    ],
    usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, prompt_tokens_details: { cached_tokens: 64 } },
  });
  await openai.patchRun();
  const anthropic = root.createChild({
    name: "anthropic-messages",
    run_type: "llm",
    inputs: {
      model: "claude-3-5-sonnet-20241022",
      system: "Answer briefly.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: `Describe this icon ${IMG}` },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          ],
        },
      ],
    },
    extra: { metadata: { ls_model_name: "claude-3-5-sonnet-20241022", ls_provider: "anthropic" } },
  });
  await anthropic.postRun();
  await anthropic.end({
    id: "msg_01",
    type: "message",
    role: "assistant",
    stop_reason: "tool_use",
    content: [
      { type: "thinking", thinking: "The user wants a description of a small square icon.", signature: "sig" },
      { type: "text", text: "A small square icon. Let me check the time too." },
      { type: "tool_use", id: "toolu_time", name: "get_time", input: { tz: "Europe/Paris" } },
    ],
    usage: { input_tokens: 90, output_tokens: 40, cache_read_input_tokens: 10 },
  });
  await anthropic.patchRun();
  const native = root.createChild({
    name: "native-agent",
    run_type: "llm",
    inputs: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: `Search the news ${SCRIPT}` },
            { type: "audio", url: "https://example.com/question.wav", mime_type: "audio/wav" },
          ],
        },
      ],
    },
    extra: { metadata: { ls_model_name: "gpt-4o", ls_provider: "openai" } },
  });
  await native.postRun();
  await native.end({
    messages: [
      {
        role: "assistant",
        content: [
          { type: "reasoning", reasoning: "I should search the web first." },
          { type: "server_tool_call", id: "srv_1", name: "web_search", args: { query: "Paris news" } },
          { type: "server_tool_result", tool_call_id: "srv_1", status: "success", output: { results: ["Seine cleanup finished"] } },
          { type: "text", text: "Top story: the Seine cleanup finished." },
        ],
      },
    ],
  });
  await native.patchRun();
  const failing = root.createChild({ name: "get_weather", run_type: "tool", inputs: { city: "Paris" } });
  await failing.postRun();
  await failing.end(undefined, STACK);
  await failing.patchRun();
  await root.end({ answer: "18 °C and clear" });
  await root.patchRun();
  await client.awaitPendingTraceBatches();
  Object.assign(ids, { trace: root.trace_id, openai: openai.id, anthropic: anthropic.id, native: native.id });
}

/** Opens a run of the trace by clicking its row in the trace tree; waits for its detail. */
async function openRun(name: string) {
  await page.locator('[data-testid="trace-row"]', { hasText: name }).first().click();
  await page.locator('[data-testid="run-detail"] h2', { hasText: name }).waitFor();
  await page.getByRole("tab", { name: "Conversation" }).click();
  await page.locator('[data-testid="conversation"]').waitFor({ timeout: 15_000 });
}

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
  await sendTrace(apiKey);
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
  await openRun("openai-chat");
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
  await openRun("anthropic-messages");
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
  await openRun("native-agent");
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
  await openRun("openai-chat");
  await page.getByRole("tab", { name: /Events \(2\)/ }).click();
  assert.equal(await page.locator("table tbody tr", { hasText: "new_token" }).count(), 2);
  await page.getByRole("tab", { name: "Metadata" }).click();
  assert.ok(((await page.getByTestId("run-detail").textContent()) ?? "").includes("ls_model_name"));
});

test("feedback left in the run view is listed there and read back through the REST API", { skip }, async () => {
  await openRun("openai-chat");
  await page.getByRole("tab", { name: /Feedback/ }).click();
  const panel = page.getByTestId("feedback-panel");
  await panel.locator('input[name="key"]').fill("helpfulness");
  await panel.locator('input[name="score"]').fill("0.9");
  await panel.locator('input[name="value"]').fill("good");
  await panel.locator('textarea[name="comment"]').fill(`Right answer ${SCRIPT}`);
  await panel.locator('textarea[name="correction"]').fill('{"answer": "18C"}');
  // A busy machine can take long to answer; the answer itself says whether the feedback was stored.
  const created = page.waitForResponse((r) => r.url().includes("feedback.create"), { timeout: 60_000 });
  await panel.getByRole("button", { name: "Add feedback" }).click();
  const answer = await created;
  assert.equal(answer.status(), 200, "feedback.create answered");
  await panel.getByTestId("feedback-item").filter({ hasText: "helpfulness" }).waitFor({ timeout: 60_000 });
  assert.ok(((await panel.textContent()) ?? "").includes(`Right answer ${SCRIPT}`));
  await shot("run-feedback");
  const listed = await api("GET", `/feedback?run=${ids.openai}`);
  assert.equal(listed.status, 200);
  const [fb] = listed.body as {
    key: string;
    score: number;
    value: unknown;
    comment: string;
    correction: unknown;
    feedback_source: { type: string };
  }[];
  assert.equal(fb.key, "helpfulness");
  assert.equal(fb.score, 0.9);
  assert.equal(fb.value, "good");
  assert.equal(fb.comment, `Right answer ${SCRIPT}`);
  assert.deepEqual(fb.correction, { answer: "18C" });
  assert.equal(fb.feedback_source.type, "app");
  assert.equal(await panel.getByTestId("feedback-author").first().textContent(), "Grace Hopper", 'the reviewer is named, not "app"');
  assert.deepEqual(dialogs, []);
});

test("feedback keys follow the workspace's configs; a reviewer edits and deletes their own", { skip }, async () => {
  assert.equal(
    (await api("POST", "/feedback-configs", { feedback_key: "quality", feedback_config: { type: "continuous", min: 0, max: 1 } })).status,
    200,
  );
  assert.equal(
    (
      await api("POST", "/feedback-configs", {
        feedback_key: "tone",
        feedback_config: {
          type: "categorical",
          categories: [
            { value: "friendly", label: "Friendly" },
            { value: "curt", label: "Curt" },
          ],
        },
      })
    ).status,
    200,
  );
  await page.reload();
  await page.getByRole("tab", { name: /Feedback/ }).click();
  const panel = page.getByTestId("feedback-panel");
  const form = panel.getByRole("form", { name: "Add feedback" });
  await form.getByTestId("feedback-keys").getByRole("button", { name: "quality" }).click();
  await form.getByLabel("Score slider").waitFor(); // the workspace's configs have loaded
  await form.locator('input[name="score"]').fill("1.5");
  assert.equal(await panel.getByTestId("score-problem").textContent(), "The score must be at most 1.");
  assert.equal(await form.getByRole("button", { name: "Add feedback" }).isDisabled(), true);
  await form.getByLabel("Score slider").fill("0.7");
  assert.equal(await form.locator('input[name="score"]').inputValue(), "0.7");
  await form.getByRole("button", { name: "Add feedback" }).click();
  await panel.getByTestId("feedback-item").filter({ hasText: "quality" }).waitFor();

  await form.getByTestId("feedback-keys").getByRole("button", { name: "tone" }).click();
  await form.getByTestId("feedback-categories").getByRole("button", { name: "Curt" }).click();
  await form.getByRole("button", { name: "Add feedback" }).click();
  const tone = panel.getByTestId("feedback-item").filter({ hasText: "tone" });
  await tone.filter({ hasText: "curt" }).waitFor();
  await tone.getByRole("button", { name: "Edit" }).click();
  const edit = panel.getByRole("form", { name: "Edit feedback" });
  await edit.getByTestId("feedback-categories").getByRole("button", { name: "Friendly" }).click();
  await edit.locator('textarea[name="comment"]').fill("warm after all");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await tone.filter({ hasText: "warm after all" }).waitFor();
  assert.ok(((await tone.textContent()) ?? "").includes("friendly"));
  await shot("run-feedback-configs");
  const listed = await api("GET", `/feedback?run=${ids.openai}&key=tone`);
  assert.deepEqual(
    (listed.body as { value: string; comment: string }[]).map((f) => [f.value, f.comment]),
    [["friendly", "warm after all"]],
  );
  await tone.getByRole("button", { name: "Delete" }).click();
  await tone.waitFor({ state: "detached" });
  assert.deepEqual((await api("GET", `/feedback?run=${ids.openai}&key=tone`)).body, []);
  assert.deepEqual(dialogs, []);
});

test("add the run to a new dataset, then browse the dataset and its example", { skip }, async () => {
  await page.getByRole("button", { name: "Add to dataset" }).click();
  const form = page.getByRole("form", { name: "Add to dataset" });
  await form.locator("select").selectOption({ label: "New dataset…" });
  await form.locator("input").first().fill("weather-regressions");
  await form.getByRole("button", { name: "Add run" }).click();
  await form.getByRole("link", { name: "weather-regressions" }).click();
  await page.getByTestId("dataset-name").filter({ hasText: "weather-regressions" }).waitFor();
  await page.locator('[data-testid="examples"] tbody tr').first().click();
  await page.getByTestId("example-detail").waitFor();
  assert.ok(((await page.getByTestId("example-detail").textContent()) ?? "").includes("get_weather"));
  await shot("dataset-examples");
  await page.goto(`${server.url}/o/${workspaceId}/datasets`);
  await page.locator('[data-testid="datasets"] tr', { hasText: "weather-regressions" }).waitFor();
  await shot("datasets");
});

test("charts: the dashboard draws the runs with tooltips; grouping by model works", { skip }, async () => {
  await page.goto(`${server.url}/o/${workspaceId}/charts`);
  const runs = page.getByTestId("chart-runs");
  await runs.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 20_000 });
  const box = (await runs.locator(".recharts-bar-rectangle").last().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await runs.locator(".recharts-tooltip-wrapper").filter({ hasText: "Runs" }).waitFor();
  await shot("charts-dashboard");
  await page.getByLabel("Group by").selectOption("model");
  await page.getByTestId("chart-cost").locator(".recharts-legend-item", { hasText: "gpt-4o-mini" }).waitFor();
  await page.getByRole("button", { name: "Chart sets" }).click();
  await page.getByLabel("New chart set name").fill("LLM health");
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Chart title").fill("LLM latency");
  await page.getByRole("button", { name: "Add chart" }).click();
  await page.getByTestId("chart-set").getByTestId("chart").first().waitFor();
  await shot("chart-sets");
});

test("prompts: the commit history and a side-by-side diff between two commits", { skip }, async () => {
  assert.equal((await api("POST", "/repos/", { repo_handle: "weather-prompt", description: "Weather assistant" })).status, 200);
  const manifest = (text: string) => ({
    lc: 1,
    type: "constructor",
    id: ["langchain", "prompts", "chat", "ChatPromptTemplate"],
    kwargs: { input_variables: ["city"], template: text, template_format: "f-string" },
  });
  for (const text of ["What is the weather in {city}?", "Tell me the weather in {city}, in Celsius."]) {
    const pushed = await api("POST", "/commits/-/weather-prompt", { manifest: manifest(text) });
    assert.ok(pushed.status < 300, JSON.stringify(pushed.body));
  }
  await page.goto(`${server.url}/o/${workspaceId}/prompts`);
  await page.locator('[data-testid="prompts"] a', { hasText: "weather-prompt" }).click();
  await page.locator('[data-testid="prompt-commits"] li').nth(1).waitFor();
  const diff = page.getByTestId("prompt-diff");
  await diff.waitFor();
  assert.ok(((await diff.textContent()) ?? "").includes("Tell me the weather in {city}, in Celsius."));
  assert.ok(((await diff.textContent()) ?? "").includes("What is the weather in {city}?"));
  await shot("prompt-diff");
  await page.goto(`${server.url}/o/${workspaceId}/prompts`);
  await shot("prompts");
  assert.deepEqual(dialogs, []);
});

test("a project's dashboard opens from its runs page", { skip }, async () => {
  await page.goto(`${server.url}/o/${workspaceId}/projects`);
  await page.locator('[data-testid="projects-table"] a', { hasText: PROJECT }).waitFor();
  await shot("projects");
  await page.locator('[data-testid="projects-table"] a', { hasText: PROJECT }).click();
  await page.getByTestId("project-dashboard").click();
  await page.getByTestId("chart-runs").locator(".recharts-bar-rectangle").first().waitFor({ timeout: 20_000 });
  await shot("project-dashboard");
  // Range and grouping live in the URL: a reload (or a shared link) shows the same charts.
  // One change at a time, each settled (its charts loaded): Next.js writes the URL of a committed
  // router state back into the address bar, and a state whose data is still loading commits late,
  // so a second change made meanwhile can be overwritten (noted in docs/limits.md's known issue).
  const charted = async () => {
    await page.waitForResponse((r) => r.url().includes("/api/trpc/") && r.url().includes("charts.series"));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  };
  let drawn = charted();
  await page.getByRole("group", { name: "Time range" }).getByRole("button", { name: "7d" }).click();
  await drawn;
  await page.waitForURL(/range=7d/);
  drawn = charted();
  await page.getByLabel("Group by").selectOption("model");
  await drawn;
  await page.waitForURL(/range=7d.*group=model|group=model.*range=7d/);
  await page.reload();
  assert.equal(await page.getByLabel("Group by").inputValue(), "model");
  assert.equal(
    await page.getByRole("group", { name: "Time range" }).getByRole("button", { name: "7d" }).getAttribute("aria-pressed"),
    "true",
  );
  // A bar opens the runs behind it: that bucket, that model.
  const bar = page.getByTestId("chart-runs").locator(".recharts-bar-rectangle path, .recharts-bar-rectangle").first();
  await bar.waitFor({ timeout: 20_000 });
  await page.getByTestId("chart-runs").locator(".recharts-bar-rectangle").first().click();
  await page.waitForURL(/\/projects\/[0-9a-f-]{36}\?filter=/);
  const filter = new URL(page.url()).searchParams.get("filter") ?? "";
  assert.match(filter, /^and\(gte\(start_time, "[^"]+"\), lt\(start_time, "[^"]+"\), eq\(model, ("[^"]+"|null)\)\)$/);
  await page.locator('[data-testid="run-row"]').first().waitFor();
  const models = await page.locator('[data-testid="run-row"]').count();
  assert.ok(models >= 1, "the runs of that bar are listed");
});

test("settings: members and a workspace model price", { skip }, async () => {
  await page.goto(`${server.url}/o/${workspaceId}/settings?tab=members`);
  assert.equal(await page.getByRole("tab", { name: "Members" }).getAttribute("aria-selected"), "true", "the tab is addressable by URL");
  await page.locator('[data-testid="members"] tr', { hasText: "grace@example.com" }).waitFor();
  await page.getByLabel("E-mail to invite").fill("alan@example.com");
  await page.getByRole("button", { name: "Invite" }).click();
  assert.equal(await page.getByTestId("invite-expiry").textContent(), "expires in 7 days");
  await shot("settings-members");
  await page.getByRole("tab", { name: "Model prices" }).click();
  await page.waitForURL(/\?tab=prices$/);
  await page.getByLabel("Price name").fill("in-house llama");
  await page.getByLabel("Model pattern").fill("^llama-3\\.1-70b");
  await page.getByLabel("Input price").fill("0.6");
  await page.getByLabel("Output price").fill("0.9");
  await page.getByRole("button", { name: "Add price" }).click();
  await page.locator("table tr", { hasText: "in-house llama" }).waitFor();
  const prices = await api("GET", "/model-prices?source=workspace");
  assert.equal(prices.status, 200);
  assert.deepEqual(
    (prices.body as { name: string }[]).map((p) => p.name),
    ["in-house llama"],
  );
  await shot("settings-prices");
  assert.deepEqual(dialogs, []);
});

test("dark mode: follows the system, a choice in the user menu overrides it and survives a reload", { skip }, async () => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`${server.url}/o/${workspaceId}/projects`);
  const light = await background();
  await page.emulateMedia({ colorScheme: "dark" });
  const systemDark = await background();
  assert.notEqual(systemDark, light, "with no choice the page follows the system's dark setting");
  await page.emulateMedia({ colorScheme: "light" });
  await page.getByTestId("user-menu").click();
  await page.getByTestId("theme-choice").getByRole("button", { name: "Dark" }).click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
  assert.equal(await background(), systemDark, "the choice overrides the system's light setting");
  await page.reload();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark", "the server renders the remembered choice");
  for (const [name, route] of [
    ["projects", "projects"],
    ["datasets", "datasets"],
    ["prompts", "prompts"],
    ["charts", "charts"],
    ["settings", "settings"],
  ]) {
    await page.goto(`${server.url}/o/${workspaceId}/${route}`);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: path.join(SHOTS, `b-dark-${name}.png`) });
  }
  await page.goto(`${server.url}/o/${workspaceId}/projects`);
  await page.locator('[data-testid="projects-table"] a', { hasText: PROJECT }).click();
  await page.locator('[data-testid="run-row"]', { hasText: "assistant-pipeline" }).first().click();
  await page.getByTestId("open-trace").click();
  await openRun("openai-chat");
  await page.screenshot({ path: path.join(SHOTS, "b-dark-trace-openai-conversation.png") });
  await page.getByTestId("user-menu").click();
  await page.getByTestId("theme-choice").getByRole("button", { name: "System" }).click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), undefined);
  assert.equal(await background(), light);
  assert.deepEqual(dialogs, []);
});
