/**
 * The first run, as a newcomer lives it, in Debian's Chromium: a fresh server prints a key and the
 * UI's address; traces sent with that key are what the first account sees after signing up. A later
 * account starts empty, makes a key on the projects page and sees its own first trace arrive.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { Client, RunTree } from "langsmith";
import { chromium, type Browser } from "playwright-core";
import { startServer, type RunningServer } from "../harness/server";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;
const SHOTS = path.join(process.cwd(), "e2e", "screenshots");
const WORKSPACE_PAGE = /\/o\/([0-9a-f-]{36})\/projects/;

let server: RunningServer;
let browser: Browser;

before(async () => {
  if (skip) return;
  server = await startServer({ unclaimed: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function sendTrace(apiKey: string, project: string, name: string) {
  const client = new Client({ apiUrl: server.url, apiKey });
  const run = new RunTree({ name, run_type: "chain", inputs: { question: "hello?" }, client, project_name: project });
  await run.postRun();
  await run.end({ answer: "hi" });
  await run.patchRun();
  await client.awaitPendingTraceBatches();
}

test("start-up prints the key and the UI; the first sign-up sees the traces sent with that key", { skip }, async () => {
  assert.match(server.output(), /Open the web UI at http:\/\/localhost:\d+ and sign up: the first account joins this workspace/);
  assert.match(server.output(), /export LANGSMITH_API_KEY=tl_/);
  await sendTrace(server.apiKey, "my-first-app", "first-chain");

  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(30_000);
  await page.goto(`${server.url}/signup`);
  for (const [name, value] of Object.entries({ name: "Nia Newcomer", email: "nia@example.com", password: "nia-password-1" })) {
    await page.locator(`input[name="${name}"]`).fill(value);
  }
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(WORKSPACE_PAGE);
  assert.equal(WORKSPACE_PAGE.exec(page.url())![1], server.workspaceId, "the first account is in the workspace the printed key writes to");
  await page.locator('[data-testid="projects-table"] a', { hasText: "my-first-app" }).click();
  await page.locator('[data-testid="run-row"]', { hasText: "first-chain" }).first().waitFor();
  await page.screenshot({ path: path.join(SHOTS, "b-first-run-traces.png") });
  await page.close();
});

test("a later account starts empty, creates a key on the projects page and sees its first trace arrive", { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(30_000);
  await page.goto(`${server.url}/signup`);
  for (const [name, value] of Object.entries({ name: "Lee Later", email: "lee@example.com", password: "lee-password-1" })) {
    await page.locator(`input[name="${name}"]`).fill(value);
  }
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(WORKSPACE_PAGE);
  assert.notEqual(WORKSPACE_PAGE.exec(page.url())![1], server.workspaceId, "later sign-ups get a workspace of their own");
  const panel = page.getByTestId("get-started");
  await panel.getByRole("button", { name: "Create an API key" }).click();
  const lines = page.getByTestId("env-lines");
  await lines.filter({ hasText: "tl_" }).waitFor();
  const text = (await lines.textContent()) ?? "";
  assert.ok(text.includes(`export LANGSMITH_ENDPOINT=${server.url}`), text);
  assert.ok(text.includes(`export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${server.url}/otel/v1/traces`), text);
  await page.screenshot({ path: path.join(SHOTS, "b-get-started.png") });
  const key = /LANGSMITH_API_KEY=(\S+)/.exec(text)![1];
  await sendTrace(key, "lee-app", "lee-chain");
  await page.locator('[data-testid="projects-table"] a', { hasText: "lee-app" }).waitFor();
  await page.close();
});

test("/favicon.ico is a real icon", { skip }, async () => {
  const response = await fetch(`${server.url}/favicon.ico`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /icon/);
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.deepEqual([...bytes.slice(0, 4)], [0, 0, 1, 0], "an ICO file");
});
