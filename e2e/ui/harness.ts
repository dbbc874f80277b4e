import { Client, RunTree } from "langsmith";
import { chromium, type Browser, type Page } from "playwright-core";
import type { RunningServer } from "../harness/server";

/** Debian's Chromium, headless, without background traffic. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/**
 * A 1440×900 page with a 30 s default timeout (CI runs two UI files at once on two shared cores)
 * whose dialogs are dismissed and recorded in `dialogs` (content from traces must never open one).
 */
export async function desktopPage(browser: Browser, dialogs: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(30_000);
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return page;
}

export interface UiUser {
  email: string;
  password: string;
  userId: string;
  workspaceId: string;
}

/** Signs a new user up through the API, then signs in through the /signin page; ends on the workspace. */
export async function signUpInBrowser(
  page: Page,
  server: RunningServer,
  email = "ada@example.com",
  password = "ada-password-1",
): Promise<UiUser> {
  const response = await fetch(`${server.url}/api/v1/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, name: "Ada Lovelace", workspace_name: "Acme AI" }),
  });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { user_id: string; workspace_id: string };
  await signInInBrowser(page, server.url, email, password);
  return { email, password, userId: body.user_id, workspaceId: body.workspace_id };
}

/** Signs in through the /signin page; resolves once the app has opened a workspace. */
export async function signInInBrowser(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/signin`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(/\/o\/[0-9a-f-]{36}\//, { timeout: 30_000 });
}

/** A new API key of the signed-in user's workspace, created by the page's session (as the settings page does). */
export async function createKeyInBrowser(page: Page, user: UiUser): Promise<string> {
  const created = await page.evaluate(async (userId) => {
    const r = await fetch("/api/v1/api-key", {
      method: "POST",
      headers: { "content-type": "application/json", "x-user-id": userId },
      body: JSON.stringify({ kind: "service", description: "e2e ui" }),
    });
    return { status: r.status, body: await r.json() };
  }, user.userId);
  if (created.status !== 201) throw new Error(`api key creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.key as string;
}

/** Adds an OpenAI-compatible model connection "local model" in Settings, as a user does; the page stays on its table. */
export async function addModelConnectionInBrowser(page: Page, baseUrl: string, user: UiUser, modelUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/o/${user.workspaceId}/settings?tab=models`);
  const form = page.getByRole("form", { name: "Add model connection" });
  await form.getByLabel("Connection name").fill("local model");
  await form.getByLabel("Base URL").fill(`${modelUrl}/v1`);
  await form.getByLabel("API key").fill("sk-local");
  await form.getByRole("button", { name: "Add connection" }).click();
  await page.getByTestId("model-connections").getByText("local model").waitFor();
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends a small, varied project with the real langsmith client: an agent trace (chain → OpenAI llm,
 * tool, retriever, a nested llm), a failed trace, and a few quick root runs. Returns the agent's ids.
 */
export async function seedTraces(
  server: RunningServer,
  apiKey: string,
  project = "support-bot",
): Promise<{ traceId: string; llmId: string; failedTraceId: string }> {
  const client = new Client({ apiUrl: server.url, apiKey });
  const root = new RunTree({
    name: "support-agent",
    run_type: "chain",
    inputs: { question: "Where is my order #1042?" },
    client,
    project_name: project,
    tags: ["production", "v2"],
    extra: { metadata: { user_id: "u-17", channel: "web" } },
  });
  await root.postRun();
  const retrieve = root.createChild({ name: "search-orders", run_type: "retriever", inputs: { query: "order 1042" } });
  await retrieve.postRun();
  await wait(40);
  await retrieve.end({ documents: [{ page_content: "Order 1042 shipped on Nov 20 via UPS.", metadata: { source: "orders-db" } }] });
  await retrieve.patchRun();
  const llm = root.createChild({
    name: "ChatOpenAI",
    run_type: "llm",
    inputs: {
      messages: [
        { role: "system", content: "You are a helpful support agent." },
        { role: "user", content: "Where is my order #1042? <script>alert(1)</script>" },
      ],
    },
    extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
  });
  await llm.postRun();
  await wait(120);
  await llm.end({
    choices: [
      {
        message: {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "track_package", arguments: '{"carrier":"UPS","order":1042}' } },
          ],
        },
      },
    ],
    usage_metadata: { input_tokens: 412, output_tokens: 38, total_tokens: 450 },
  });
  await llm.patchRun();
  const tool = root.createChild({ name: "track_package", run_type: "tool", inputs: { carrier: "UPS", order: 1042 } });
  await tool.postRun();
  await wait(60);
  await tool.end({ status: "in transit", eta: "Nov 25" });
  await tool.patchRun();
  const answer = root.createChild({
    name: "ChatOpenAI",
    run_type: "llm",
    inputs: { messages: [{ role: "user", content: "Summarize the tracking status for the customer." }] },
    extra: { metadata: { ls_model_name: "gpt-4o", ls_provider: "openai" } },
  });
  await answer.postRun();
  await wait(90);
  await answer.end({
    choices: [{ message: { role: "assistant", content: "Your order #1042 is in transit with UPS and should arrive on **Nov 25**." } }],
    usage_metadata: { input_tokens: 230, output_tokens: 24, total_tokens: 254 },
  });
  await answer.patchRun();
  await root.end({ answer: "Your order #1042 is in transit with UPS and should arrive on Nov 25." });
  await root.patchRun();

  const failed = new RunTree({
    name: "refund-agent",
    run_type: "chain",
    inputs: { question: "Refund order 77" },
    client,
    project_name: project,
    tags: ["production"],
  });
  await failed.postRun();
  const failingTool = failed.createChild({ name: "issue_refund", run_type: "tool", inputs: { order: 77 } });
  await failingTool.postRun();
  await wait(30);
  await failingTool.end(undefined, "PaymentGatewayError: card issuer declined the refund (code 05)");
  await failingTool.patchRun();
  await failed.end(undefined, "PaymentGatewayError: card issuer declined the refund (code 05)");
  await failed.patchRun();

  for (let i = 0; i < 6; i++) {
    const quick = new RunTree({
      name: i % 2 ? "classify-intent" : "embed-query",
      run_type: i % 2 ? "llm" : "embedding",
      inputs: { text: `message ${i}` },
      client,
      project_name: project,
      tags: i % 3 ? [] : ["batch"],
      extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
    });
    await quick.postRun();
    await wait(10 + i * 15);
    await quick.end({ label: "order_status", usage_metadata: { input_tokens: 20 + i, output_tokens: 3, total_tokens: 23 + i } });
    await quick.patchRun();
  }
  await client.awaitPendingTraceBatches();
  await client.createFeedback(root.id, "correctness", { score: 1, comment: "Right order, right carrier" });
  await client.createFeedback(root.id, "helpfulness", { score: 0.8 });
  await client.createFeedback(failed.id, "correctness", { score: 0, comment: "Refund never issued" });
  return { traceId: root.trace_id, llmId: llm.id, failedTraceId: failed.trace_id };
}

function dottedStamp(ms: number, micros: number): string {
  return `${new Date(ms).toISOString().slice(0, 23).replace(/[-:.]/g, "")}${String(micros).padStart(3, "0")}Z`;
}

/**
 * One trace of `size` runs (a root, then agents of 99 steps each) posted through /runs/batch in
 * chunks: for timing the trace view on large traces. Returns the trace id.
 */
export async function seedLargeTrace(server: RunningServer, apiKey: string, project: string, size = 10_000): Promise<string> {
  const { randomUUID } = await import("node:crypto");
  const t0 = Date.now() - 60_000;
  const rootId = randomUUID();
  const rootOrder = `${dottedStamp(t0, 0)}${rootId}`;
  const runs: Record<string, unknown>[] = [
    {
      id: rootId,
      trace_id: rootId,
      dotted_order: rootOrder,
      name: "batch-pipeline",
      run_type: "chain",
      session_name: project,
      start_time: new Date(t0).toISOString(),
      end_time: new Date(t0 + 50_000).toISOString(),
      inputs: { items: size },
      outputs: { ok: true },
    },
  ];
  let parent = { id: rootId, order: rootOrder };
  for (let i = 1; i < size; i++) {
    const id = randomUUID();
    const agent = i % 100 === 1;
    const start = t0 + i * 5;
    const runParent = agent ? { id: rootId, order: rootOrder } : parent;
    const order = `${runParent.order}.${dottedStamp(start, i % 1000)}${id}`;
    runs.push({
      id,
      trace_id: rootId,
      parent_run_id: runParent.id,
      dotted_order: order,
      session_name: project,
      name: agent ? `agent-${Math.floor(i / 100)}` : i % 3 ? "ChatOpenAI" : "lookup",
      run_type: agent ? "chain" : i % 3 ? "llm" : "tool",
      start_time: new Date(start).toISOString(),
      end_time: new Date(start + (agent ? 495 : 4)).toISOString(),
      inputs: { step: i },
      outputs: { done: true },
      error: i % 997 === 0 ? "RateLimitError: 429 from upstream" : undefined,
    });
    if (agent) parent = { id, order };
  }
  for (let i = 0; i < runs.length; i += 1000) {
    const r = await fetch(`${server.url}/runs/batch`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({ post: runs.slice(i, i + 1000) }),
    });
    if (!r.ok) throw new Error(`batch failed: ${r.status} ${await r.text()}`);
  }
  return rootId;
}
