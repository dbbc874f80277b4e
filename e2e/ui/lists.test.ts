/**
 * Issue 38's lists in Debian's Chromium: the time range and the search box on the runs and threads
 * lists, saved views (shared, a project's default, over REST too), the Users page opening a user's
 * traces, and a thread as a unit (per-turn numbers, feedback on the whole thread, the list keeping
 * its numbers beside it). The project is sent with the real langsmith client.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client, RunTree } from "langsmith";
import { call } from "../harness/http";
import { createKeyInBrowser } from "./harness";
import { noChromium as skip, signedInSuite } from "./suite";

const PROJECT = "lists-bot";
const DAY = 86_400_000;
const suite = signedInSuite("lists@example.com");
let projectUrl = "";
let projectId = "";
let apiKey = "";

async function turn(
  client: Client,
  name: string,
  question: string,
  metadata: Record<string, unknown>,
  options: { answer?: string; error?: string; tokens?: number; startTime?: number } = {},
): Promise<string> {
  const root = new RunTree({
    name,
    run_type: "chain",
    inputs: { question },
    client,
    project_name: PROJECT,
    extra: { metadata },
    ...(options.startTime ? { start_time: options.startTime } : {}),
  });
  await root.postRun();
  const llm = root.createChild({
    name: "ChatOpenAI",
    run_type: "llm",
    inputs: { messages: [{ role: "user", content: question }] },
    extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
    ...(options.startTime ? { start_time: options.startTime + 5 } : {}),
  });
  await llm.postRun();
  const tokens = options.tokens ?? 100;
  await llm.end(
    {
      choices: [{ message: { role: "assistant", content: options.answer ?? "" } }],
      usage_metadata: { input_tokens: tokens - 20, output_tokens: 20, total_tokens: tokens },
    },
    options.error,
    options.startTime ? options.startTime + 900 : undefined,
  );
  await llm.patchRun();
  await root.end(
    options.error ? undefined : { answer: options.answer },
    options.error,
    options.startTime ? options.startTime + 1000 : undefined,
  );
  await root.patchRun();
  return root.id;
}

test("setup: four traces of three users over two threads, one three days old", { skip }, async () => {
  const { page, server, user } = suite;
  apiKey = await createKeyInBrowser(page, user);
  const client = new Client({ apiUrl: server.url, apiKey, autoBatchTracing: false });
  const first = await turn(
    client,
    "password-help",
    "How do I reset my password?",
    { user_id: "alice", thread_id: "conv-1" },
    {
      answer: "Open Settings → Security and choose Reset password.",
      tokens: 420,
    },
  );
  await turn(
    client,
    "password-followup",
    "It still fails with code 500",
    { user_id: "alice", thread_id: "conv-1" },
    {
      error: "UpstreamError: identity service unavailable",
      tokens: 80,
    },
  );
  await turn(
    client,
    "refund-request",
    "I want a refund for order 77",
    { ls_user_id: "bob", thread_id: "conv-2" },
    {
      answer: "Refund for order 77 is on its way.",
      tokens: 150,
    },
  );
  await turn(
    client,
    "nightly-batch",
    "summarise yesterday's tickets",
    { userId: "carol" },
    { answer: "12 tickets, 2 open.", startTime: Date.now() - 3 * DAY },
  );
  await client.createFeedback(first, "helpful", { score: 1 });
  const projects = await call({ ...server, apiKey }, "GET", `/api/v1/sessions?name=${PROJECT}`);
  projectId = projects.body[0].id;
  projectUrl = `${server.url}/o/${user.workspaceId}/projects/${projectId}`;
});

const rows = () => suite.page.locator('[data-testid="run-row"]');
const rowNames = async () =>
  (await rows().allInnerTexts()).map(
    (t) =>
      t
        .split("\n")
        .find((l) => l.trim())
        ?.trim() ?? "",
  );

test("the time range bounds the runs list and stays in the address; the search box finds text", { skip }, async () => {
  const { page, shot } = suite;
  await page.goto(projectUrl);
  await rows().filter({ hasText: "nightly-batch" }).waitFor();
  assert.equal(await rows().count(), 4);
  await page.getByLabel("Time range").selectOption("24h");
  await page.waitForURL(/range=24h/);
  await rows().filter({ hasText: "nightly-batch" }).waitFor({ state: "detached" });
  assert.equal(await rows().count(), 3);
  await page.getByTestId("list-search").fill("refund");
  await page.waitForURL(/q=refund/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 1);
  assert.match((await rowNames())[0], /refund-request/);
  await shot("lists-search-range");
  await shot("lists-search-range-dark", "dark");

  // The address reproduces the list.
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 1);
  assert.equal(await page.getByLabel("Time range").inputValue(), "24h");
  assert.equal(await page.getByTestId("list-search").inputValue(), "refund");

  // A custom range: from four days ago to two days ago holds the old trace only.
  await page.getByTestId("list-search").fill("");
  await page.waitForURL((u) => !u.searchParams.has("q"));
  await page.getByLabel("Time range").selectOption("custom");
  const local = (ms: number) => {
    const d = new Date(ms);
    return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  };
  await page.getByLabel("From", { exact: true }).fill(local(Date.now() - 4 * DAY));
  await page.getByLabel("To", { exact: true }).fill(local(Date.now() - 2 * DAY));
  await rows().filter({ hasText: "nightly-batch" }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 1);
  assert.match(page.url(), /from=.*&to=/);
});

test("a saved view is shared, opened from the menu, and a project's default opens it", { skip }, async () => {
  const { page, server, shot, dialogs } = suite;
  await page.goto(`${projectUrl}?range=24h&q=password&sort=latency:desc`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 2);
  await page.getByTestId("saved-views").click();
  await page.getByTestId("save-view").click();
  await page.getByLabel("View name").fill("Password trouble today");
  await page.getByLabel("Open by default for this project").check();
  await shot("lists-save-view");
  await page.getByRole("button", { name: "Save view" }).click();
  await page.waitForURL(/saved=[0-9a-f-]{36}/);
  await page.getByTestId("saved-views").filter({ hasText: "Password trouble today" }).waitFor();

  // Over REST, as a script or another tool would list them.
  const listed = await call({ ...server, apiKey }, "GET", `/views?project_id=${projectId}`);
  assert.equal(listed.status, 200);
  assert.equal(listed.body.length, 1);
  assert.deepEqual(
    { name: listed.body[0].name, shared: listed.body[0].shared, is_default: listed.body[0].is_default, range: listed.body[0].state.range },
    { name: "Password trouble today", shared: true, is_default: true, range: "24h" },
  );
  assert.equal(listed.body[0].state.search, "password");
  assert.ok(listed.body[0].state.columns.includes("name"));
  const bad = await call({ ...server, apiKey }, "POST", "/views", { project_id: projectId, name: "x", state: { filter: "eq(name" } });
  assert.equal(bad.status, 400);

  // Opening the project without state in the address opens its default view.
  await page.goto(projectUrl);
  await page.waitForURL(/q=password/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 2);
  assert.equal(await page.getByLabel("Time range").inputValue(), "24h");

  // Picking a view from the menu after changing the list puts it back.
  await page.getByLabel("Time range").selectOption("");
  await page.getByTestId("list-search").fill("");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 4);
  await page.getByTestId("saved-views").click();
  await page.getByTestId("saved-views-menu").waitFor();
  await shot("lists-views-menu");
  await shot("lists-views-menu-dark", "dark");
  await page.getByRole("menuitem", { name: /Password trouble today/ }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 2);
  assert.equal(dialogs.length, 0);
});

test("a thread as a unit: per-turn numbers, feedback on the whole thread, the list keeps its numbers", { skip }, async () => {
  const { page, shot } = suite;
  await page.goto(`${projectUrl}?view=threads&range=24h`);
  const conv = page.locator('[data-testid="thread-row"]', { hasText: "conv-1" });
  await conv.waitFor();
  assert.equal(await page.locator('[data-testid="thread-row"]').count(), 2);
  await conv.click();
  await page.getByTestId("thread-transcript").waitFor();
  const turns = page.getByTestId("thread-turn");
  assert.equal(await turns.count(), 2);
  assert.match(await turns.nth(0).getByTestId("turn-stats").innerText(), /420 tok/);
  assert.match(await turns.nth(0).getByTestId("turn-stats").innerText(), /helpful/);
  assert.match(await turns.nth(1).getByTestId("turn-stats").innerText(), /2 errors/);
  assert.match(await page.getByTestId("thread-totals").innerText(), /2\s*turns[\s\S]*500\s*tokens[\s\S]*1 turn with errors/);
  // Beside the open thread the list still shows its tokens and cost.
  assert.ok(await page.getByRole("columnheader", { name: "Tokens" }).isVisible());
  assert.ok(await page.getByRole("columnheader", { name: "Cost" }).isVisible());
  assert.match(await conv.innerText(), /500/);

  const feedback = page.getByTestId("thread-feedback");
  const comment = feedback.getByLabel("Comment");
  await comment.fill("Solved after a retry");
  assert.equal(await comment.inputValue(), "Solved after a retry");
  await feedback.getByRole("button", { name: "Good thread" }).click();
  // Sent while the panel's first read may still be on its way: the list shows what was written.
  await feedback.getByTestId("thread-feedback-item").filter({ hasText: "Solved after a retry" }).waitFor();
  assert.match(await feedback.getByTestId("thread-feedback-item").first().innerText(), /thread_quality\s*1[\s\S]*Ada Lovelace/);
  await shot("lists-thread");
  await shot("lists-thread-dark", "dark");
  await page.getByRole("button", { name: "Close" }).click();
  await conv.filter({ hasText: "thread_quality" }).waitFor();
});

test("the Users page: each user's numbers, sorted and searched, opening their traces", { skip }, async () => {
  const { page, shot } = suite;
  await page.goto(`${projectUrl}?range=30d`);
  await rows().first().waitFor();
  await page.getByTestId("project-users").click();
  const users = page.locator('[data-testid="user-row"]');
  await users.first().waitFor();
  assert.deepEqual(
    (await users.allInnerTexts()).map((t) => t.split("\t")[0].trim()),
    ["bob", "alice", "carol"],
  );
  const alice = users.filter({ hasText: "alice" });
  const cells = (await alice.locator("td").allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(cells.slice(1, 5), ["2", "1", "1", "500"]);
  assert.match(cells[8], /helpful/);
  await shot("lists-users");
  await shot("lists-users-dark", "dark");

  await page.getByTestId("users-sort-user_id").click();
  await page.waitForURL((u) => u.searchParams.get("sort") === "user_id:desc");
  await page.waitForFunction(() => document.querySelector('[data-testid="user-row"]')?.textContent?.startsWith("carol"));
  await page.getByTestId("list-search").fill("bo");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
  await page.getByTestId("list-search").fill("");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 3);
  await page.getByLabel("Time range").selectOption("24h");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 2);

  await users.filter({ hasText: "alice" }).click();
  await page.waitForURL(/filter=eq/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-row"]').length === 2);
  assert.match(await page.getByTestId("filter-bar").innerText(), /User[\s\S]*alice/);
});
