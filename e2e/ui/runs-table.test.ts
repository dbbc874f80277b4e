/**
 * The runs table in Debian's Chromium (issue 14): preview and model columns, sorting by the totals
 * a root run shows, the Threads view, ticked rows added to a dataset, exported and shared, and a
 * root run's trace in the side panel. The project is sent with the real langsmith client.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { Client, RunTree } from "langsmith";
import type { Browser, Page } from "playwright-core";
import { call } from "../harness/http";
import { startServer, type RunningServer } from "../harness/server";
import { createKeyInBrowser, desktopPage, launchBrowser, seedTraces, signUpInBrowser } from "./harness";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;
const SHOTS = path.join(process.cwd(), "e2e", "screenshots");
const PROJECT = "support-bot";
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: RunningServer;
let browser: Browser;
let page: Page;
let projectUrl = "";
let apiKey = "";
const dialogs: string[] = [];
const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `b-${name}.png`), fullPage: false });
const row = (name: string) => page.locator('[data-testid="run-row"]', { hasText: name }).first();

before(async () => {
  if (skip) return;
  await mkdir(SHOTS, { recursive: true });
  server = await startServer();
  browser = await launchBrowser();
  page = await desktopPage(browser, dialogs);
  const user = await signUpInBrowser(page, server, "runs-table@example.com");
  apiKey = await createKeyInBrowser(page, user);
  await seedTraces(server, apiKey, PROJECT);
  const projects = await call({ ...server, apiKey }, "GET", `/api/v1/sessions?name=${PROJECT}`);
  projectUrl = `${server.url}/o/${user.workspaceId}/projects/${projects.body[0].id}`;
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("input and output previews, a model column from the chooser, sorting by tokens", { skip }, async () => {
  await page.goto(`${projectUrl}?root=0`);
  const cell = (name: string, column: string) => row(name).locator(`[data-column="${column}"]`);
  await row("search-orders").waitFor();
  assert.equal(await cell("support-agent", "input").innerText(), "Where is my order #1042?");
  assert.equal(await cell("support-agent", "output").innerText(), "Your order #1042 is in transit with UPS and should arrive on Nov 25.");
  const llmInputs = await page
    .locator('[data-testid="run-row"]', { hasText: "ChatOpenAI" })
    .locator('[data-column="input"]')
    .allInnerTexts();
  assert.ok(llmInputs.includes("Where is my order #1042? <script>alert(1)</script>"), `the last user message, as text: ${llmInputs}`);
  assert.equal(dialogs.length, 0);

  await page.getByTestId("column-chooser").click();
  await page.getByRole("menu").getByLabel("Model").check();
  await page.keyboard.press("Escape");
  assert.equal(await cell("classify-intent", "model").innerText(), "gpt-4o-mini");
  await page.reload();
  await cell("classify-intent", "model").waitFor();

  await page.getByTestId("sort-tokens").click();
  await page.waitForURL(/sort=total_tokens%3Adesc|sort=total_tokens:desc/);
  await page.locator('[role="columnheader"][aria-sort="descending"]').waitFor();
  // The previous order stays on screen until the sorted page arrives.
  const readTokens = async () =>
    (await page.locator('[data-testid="run-row"] [data-column="tokens"]').allInnerTexts()).map(
      (t) => Number(t.replace(/[^0-9]/g, "")) || 0,
    );
  let tokens = await readTokens();
  for (let i = 0; i < 50 && tokens.join() !== [...tokens].sort((a, b) => b - a).join(); i++) {
    await wait(100);
    tokens = await readTokens();
  }
  assert.deepEqual(
    tokens,
    [...tokens].sort((a, b) => b - a),
    `tokens descending: ${tokens}`,
  );
  assert.equal(
    await cell("support-agent", "tokens").innerText(),
    Math.max(...tokens).toLocaleString("en-US"),
    "the root shows its trace's total, the largest",
  );
  await shot("runs-table-columns");
  for (const column of ["start", "cost"]) {
    const clipped = await page
      .locator(`[data-testid="run-row"] [data-column="${column}"]`)
      .evaluateAll((cells) =>
        cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => `${c.textContent} (${c.scrollWidth} > ${c.clientWidth})`),
      );
    assert.deepEqual(clipped, [], `no ${column} cell is cut at 1440 px`);
  }
});

test("threads: runs grouped by thread id, opening as a transcript of the turns", { skip }, async () => {
  const client = new Client({ apiUrl: server.url, apiKey });
  const turns: [string, string][] = [
    ["Hi! Can you help me plan a trip?", "Of course. Where to?"],
    ["Lisbon, in May.", "Lisbon in May is lovely: mild and sunny."],
  ];
  for (const [question, answer] of turns) {
    const run = new RunTree({
      name: "travel-agent",
      run_type: "chain",
      client,
      project_name: PROJECT,
      inputs: { messages: [{ role: "user", content: question }] },
      extra: { metadata: { thread_id: "trip-42" } },
    });
    await run.postRun();
    await run.end({ messages: [{ role: "assistant", content: answer }] });
    await run.patchRun();
    await wait(20);
  }
  await client.awaitPendingTraceBatches();
  await page.goto(projectUrl);
  // Visible only: while the page streams in, React may hold its next content in a hidden copy.
  await page.getByTestId("threads-tab").filter({ visible: true }).click();
  const thread = page.locator('[data-testid="thread-row"]', { hasText: "trip-42" });
  await thread.waitFor();
  assert.match(await thread.innerText(), /Hi! Can you help me plan a trip\?[\s\S]*\b2\b/);
  await thread.click();
  const transcript = page.getByTestId("thread-transcript");
  await transcript.getByText("Lisbon in May is lovely: mild and sunny.").waitFor();
  assert.deepEqual(
    await transcript.locator('li > div:not(:first-child):not([data-testid="turn-stats"])').allInnerTexts(),
    turns.flat(),
    "the turns in order, question then answer",
  );
  assert.match(page.url(), /view=threads&thread=trip-42|thread=trip-42/);
  await shot("threads");
});

test("tick runs, then add them to a dataset, export them as JSON and CSV, and share them", { skip }, async () => {
  await page.goto(`${projectUrl}?root=0`);
  for (const name of ["search-orders", "track_package"]) await row(name).getByRole("checkbox").check();
  const bar = page.getByTestId("bulk-actions");
  assert.match(await bar.innerText(), /2 selected/);
  const saved = async (label: string) => {
    const [file] = await Promise.all([page.waitForEvent("download"), bar.getByRole("button", { name: label }).click()]);
    return readFile((await file.path())!, "utf8");
  };
  const exported = JSON.parse(await saved("Export JSON")) as { name: string; inputs: unknown }[];
  assert.deepEqual(exported.map((r) => r.name).sort(), ["search-orders", "track_package"]);
  assert.ok(
    exported.every((r) => r.inputs && typeof r.inputs === "object"),
    "whole runs, inputs included",
  );
  const csv = await saved("Export CSV");
  assert.equal(
    csv.split("\r\n")[0],
    "id,trace_id,name,run_type,status,start_time,end_time,latency,total_tokens,total_cost,error,inputs,outputs,tags",
  );
  assert.equal(csv.trim().split("\r\n").length, 3);

  await bar.getByRole("button", { name: "Add to dataset" }).click();
  const form = bar.getByRole("form", { name: "Add to dataset" });
  await form.locator("select").selectOption({ label: "New dataset…" });
  await form.locator("input[required]").fill("bulk-picked");
  await form.getByRole("button", { name: "Add 2 runs" }).click();
  await form.getByText("Added to").waitFor();
  const keyed = { ...server, apiKey };
  const datasets = await call(keyed, "GET", "/api/v1/datasets?name=bulk-picked");
  assert.equal((await call(keyed, "GET", `/api/v1/examples?dataset=${datasets.body[0].id}`)).body.length, 2);
  await shot("runs-bulk-actions");
  await form.getByRole("button", { name: "Close" }).click();

  // Both runs belong to one trace: one public link.
  await bar.getByTestId("bulk-share").click();
  await page.getByTestId("bulk-share-create").click();
  const urls = (await page.getByTestId("bulk-share-urls").inputValue()).split("\n");
  assert.equal(urls.length, 1, "runs of one trace share the trace's link");
  const shared = await fetch(urls[0]!);
  assert.equal(shared.status, 200, "the link opens without signing in");
  await shot("runs-bulk-share");
  await page.emulateMedia({ colorScheme: "dark" });
  await wait(300); // buttons ease their background for 0.1 s
  await shot("runs-bulk-share-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.getByRole("dialog", { name: "Share selected runs" }).getByRole("button", { name: "Unshare all" }).click();
  await page.getByTestId("bulk-share-create").waitFor();
  const token = urls[0]!.split("/public/")[1]!.split("/")[0];
  assert.equal((await fetch(`${server.url}/api/v1/public/${token}/run`)).status, 404, "unshared: the link stops working");
});

test("a root run opened from the table shows its trace in the side panel; a child opens from there", { skip }, async () => {
  await page.goto(projectUrl);
  await row("support-agent").click();
  const outline = page.getByTestId("trace-outline");
  await outline.waitFor();
  assert.equal(await outline.getByRole("button").count(), 5, "the root and the four runs it called");
  await outline
    .getByRole("button", { name: /ChatOpenAI/ })
    .first()
    .click();
  await page.waitForURL(/run=/);
  await outline.locator('[aria-current="true"]', { hasText: "ChatOpenAI" }).waitFor();
  await page.getByTestId("conversation").waitFor();
  await shot("runs-side-panel-trace");
});
