/**
 * Issue 38's review, items 3, 7, 9 and 10, in Debian's Chromium with traces from the real SDK:
 * the run drawer keeps the input preview (1440 and 1024 px), feedback configs as buttons, the trace
 * tree at 1440 px (names, costs, time axis, streamed tokens, Share closing on Find), system projects
 * apart, a missing trace, the sidebar rail at 1024 px, the theme switch, and formatted dataset cells.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { Client } from "langsmith";
import type { Page } from "playwright-core";
import { seedLookAlikesAndStreams } from "./daily-use-seed";
import { createKeyInBrowser, seedTraces } from "./harness";
import { noChromium, watchConsole, restCall, signedInSuite } from "./suite";

const suite = signedInSuite("daily-use@example.com");
const skip = noChromium;
let client: Client;
let apiKey = "";
let projectId = "";
let traceId = "";
let errors: string[] = [];

const api = (method: string, route: string, body?: unknown) => restCall(suite.server.url, apiKey, method, route, body);

/** Whether an element's text is cut (ellipsis or clipping). */
const cut = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));

test("setup: a project with look-alike runs and a streamed LLM call", { skip }, async () => {
  const { server, page, user } = suite;
  errors = watchConsole(page);
  apiKey = await createKeyInBrowser(page, user);
  client = new Client({ apiUrl: server.url, apiKey });
  ({ traceId } = await seedTraces(server, apiKey, "support-bot"));
  await seedLookAlikesAndStreams(client, api);
  for await (const p of client.listProjects({ name: "support-bot" })) projectId = p.id;
  assert.ok(projectId);
});

test("item 3: the run drawer keeps the input preview at 1440 and 1024 px", { skip }, async () => {
  const { server, page, user, shot } = suite;
  await page.goto(`${server.url}/o/${user.workspaceId}/projects/${projectId}`);
  const row = page.getByTestId("run-row").filter({ hasText: "Track order 88" });
  await row.click();
  await page.getByTestId("run-detail").waitFor();
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    const inputs = await page.getByTestId("runs-table").locator('[data-testid="run-row"] [data-column="input"]').allInnerTexts();
    const alike = inputs.filter((t) => /order (12|88|5)/.test(t));
    assert.equal(alike.length, 3, `the three route-intent runs show their inputs at ${width} px: ${inputs.join(" | ")}`);
    const columns = await page
      .locator('[data-testid="run-row"]')
      .first()
      .locator("[data-column]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-column")));
    assert.ok(columns.includes("name") && columns.includes("input") && columns.includes("latency"), `${width}: ${columns}`);
    // Nothing in the table scrolls sideways.
    const overflow = await page.getByTestId("runs-table").evaluate((el) => el.scrollWidth - el.clientWidth);
    assert.ok(overflow <= 1, `the table fits beside the drawer at ${width} px (overflow ${overflow})`);
    await shot(`ten-drawer-${width}`);
    await shot(`ten-drawer-${width}-dark`, "dark");
  }
  // At 1024 px the sidebar is an icon rail.
  const rail = await page.locator("aside.sidebar").evaluate((el) => el.getBoundingClientRect().width);
  assert.ok(rail <= 60, `sidebar width at 1024 px: ${rail}`);
  assert.equal(await page.locator(".nav-label").first().isVisible(), false);
  await page.getByTestId("user-menu").click();
  await page.getByTestId("theme-choice").waitFor();
  await shot("ten-rail-menu-1024");
  await page.getByTestId("user-menu").click(); // (Escape would close the run drawer too)
  await page.setViewportSize({ width: 1440, height: 900 });
});

test("item 7: feedback configs as buttons, free text as Other…", { skip }, async () => {
  const { page, shot } = suite;
  for (const config of [
    { feedback_key: "thumbs", feedback_config: { type: "categorical", categories: [{ value: 1 }, { value: 0 }] } },
    {
      feedback_key: "tone",
      feedback_config: {
        type: "categorical",
        categories: [
          { value: "friendly", label: "Friendly" },
          { value: "curt", label: "Curt" },
        ],
      },
    },
    { feedback_key: "quality", feedback_config: { type: "continuous", min: 0, max: 10 } },
  ])
    assert.equal((await api("POST", "/feedback-configs", config)).status, 200);
  await page.reload();
  await page
    .getByTestId("run-detail")
    .getByRole("tab", { name: /Feedback/ })
    .click();
  const panel = page.getByTestId("feedback-panel");
  const keys = panel.getByTestId("feedback-keys");
  await keys.getByRole("button", { name: "thumbs" }).waitFor();
  const offered = await keys.getByRole("button").allInnerTexts();
  assert.equal(offered.at(-1), "Other…");
  assert.deepEqual([...offered].sort(byLabel), ["quality", "thumbs", "tone", "Other…"]);
  await keys.getByRole("button", { name: "thumbs" }).click();
  await panel.getByRole("button", { name: "Thumbs up" }).click();
  await shot("ten-feedback-buttons");
  await shot("ten-feedback-buttons-dark", "dark");
  await panel.getByRole("button", { name: "Add feedback" }).click();
  await panel.getByTestId("feedback-item").filter({ hasText: "thumbs" }).waitFor();

  await keys.getByRole("button", { name: "quality" }).click();
  await panel.getByLabel("Score", { exact: true }).fill("8");
  await panel.getByRole("button", { name: "Add feedback" }).click();
  await panel.getByTestId("feedback-item").filter({ hasText: "quality" }).waitFor();

  await keys.getByRole("button", { name: "Other…" }).click();
  await panel.locator('input[name="key"]').fill("needs-followup");
  await panel.locator('input[name="value"]').fill("yes");
  await panel.getByRole("button", { name: "Add feedback" }).click();
  await panel.getByTestId("feedback-item").filter({ hasText: "needs-followup" }).waitFor();
  const runId = new URL(page.url()).searchParams.get("run")!;
  const listed = (await api("GET", `/feedback?run=${runId}`)).body as { key: string; score: number | null; value: unknown }[];
  assert.deepEqual(listed.map((f) => [f.key, f.score, f.value ?? null]).sort(), [
    ["needs-followup", null, "yes"],
    ["quality", 8, null],
    ["thumbs", 1, null],
  ]);
  await shot("ten-feedback-added");
});

/** Alphabetical, Other… last. */
function byLabel(a: string, b: string) {
  return a === "Other…" ? 1 : b === "Other…" ? -1 : a.localeCompare(b);
}

test("item 9: the trace tree at 1440 px, streamed tokens, Share closes on Find", { skip }, async () => {
  const { server, page, user, shot } = suite;
  await page.goto(`${server.url}/o/${user.workspaceId}/projects/${projectId}/traces/${traceId}`);
  await page
    .getByTestId("trace-row")
    .nth(4)
    .waitFor()
    .catch(async (e) => {
      await shot("ten-trace-failed");
      throw e;
    });
  assert.deepEqual(await cut(page, '[data-testid="trace-row"] [class*="name"]'), [], "no run name is cut");
  assert.deepEqual(await cut(page, '[data-testid="trace-row"] [title="Cost"]'), [], "no cost is cut");
  const costs = await page.locator('[data-testid="trace-row"] [title="Cost"]').allInnerTexts();
  assert.ok(costs.length >= 2 && costs.every((c) => /^<?\$\d/.test(c)), `costs: ${costs}`);
  // Each cost sits inside its row's tree cell.
  const clipped = await page.locator('[data-testid="trace-row"] [title="Cost"]').evaluateAll(
    (els) =>
      els.filter((e) => {
        const cell = e.closest('[class*="treeCell"]')!.getBoundingClientRect();
        return e.getBoundingClientRect().right > cell.right + 0.5;
      }).length,
  );
  assert.equal(clipped, 0);
  // Each label's text must end before the next one starts.
  const extents = await page
    .getByTestId("trace-axis")
    .locator("div")
    .evaluateAll((els) =>
      els.map((e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        const r = range.getBoundingClientRect();
        return [r.left, r.right];
      }),
    );
  extents.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < extents.length; i++)
    assert.ok(extents[i][0] >= extents[i - 1][1] + 4, `axis labels overlap: ${JSON.stringify(extents)}`);
  assert.ok(extents.length >= 3, `axis labels: ${extents.length}`);
  await shot("ten-trace-1440");
  await shot("ten-trace-1440-dark", "dark");

  // Share, then typing in Find: the popover gives way.
  await page.getByTestId("share-trace").click();
  await page.getByRole("dialog", { name: "Share trace" }).waitFor();
  await page.getByLabel("Find in trace").click();
  await page.getByRole("dialog", { name: "Share trace" }).waitFor({ state: "detached" });
  await page.getByLabel("Find in trace").fill("track");
  await page.getByTestId("trace-search-count").waitFor();

  // The streamed run's events show its tokens.
  await page.goto(`${server.url}/o/${user.workspaceId}/projects/${projectId}?root=0`);
  await page.getByTestId("run-row").filter({ hasText: "Say hello" }).click();
  await page
    .getByTestId("run-detail")
    .getByRole("tab", { name: /Events/ })
    .click();
  await page
    .getByTestId("event-token")
    .first()
    .waitFor()
    .catch(async (e) => {
      await shot("ten-events-failed");
      throw e;
    });
  assert.deepEqual(await page.getByTestId("event-token").allInnerTexts(), ["Hel", "lo", "·there", "!"]);
  assert.equal(await page.getByTestId("streamed-text").locator("p").innerText(), "Hello there!");
  await shot("ten-new-token-events");
  await shot("ten-new-token-events-dark", "dark");
  await page.getByTestId("run-row").filter({ hasText: "Say hi (SDK)" }).click();
  await page
    .getByTestId("run-detail")
    .getByRole("tab", { name: /Events/ })
    .click();
  await page.getByText("first token · text not sent").waitFor();
});

test("item 10: system projects apart, a missing trace, the theme switch, formatted dataset cells", { skip }, async () => {
  const { server, page, user, shot } = suite;
  // The workspace's empty "default" project exists from the start (created here where it does not).
  await client.createProject({ projectName: "default" }).catch(() => undefined);
  for (const name of ["evaluators", "playground"]) {
    await client.createRun({
      id: randomUUID(),
      name: "judge",
      run_type: "llm",
      inputs: { q: 1 },
      outputs: { a: 1 },
      project_name: name,
    } as never);
  }
  await client.awaitPendingTraceBatches();
  await page.goto(`${server.url}/o/${user.workspaceId}/projects`);
  const table = page.getByTestId("projects-table");
  const system = page.getByTestId("system-projects");
  await system.waitFor();
  assert.match(await system.innerText(), /System projects \(3\)/);
  const names = async () => (await table.locator("tbody tr.row-link td:first-child a").allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(await names(), ["support-bot"]);
  await system.getByRole("button").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="projects-table"] tbody tr.row-link').length === 4);
  assert.deepEqual((await names()).slice(1).sort(), ["default", "evaluators", "playground"]);
  await shot("ten-projects");
  await shot("ten-projects-dark", "dark");

  // A trace that is not there says so, and offers no "Try again".
  const missing = randomUUID();
  await page.goto(`${server.url}/o/${user.workspaceId}/projects/${projectId}/traces/${missing}`);
  await page.getByTestId("missing").waitFor();
  assert.match(await page.getByTestId("missing").innerText(), /This trace is missing/);
  assert.equal(await page.getByRole("button", { name: "Try again" }).count(), 0);
  await shot("ten-missing-trace");
  await shot("ten-missing-trace-dark", "dark");

  // The theme switch in the sidebar: System → Light → Dark, remembered across a reload.
  const toggle = page.getByTestId("theme-toggle");
  assert.equal(await toggle.getAttribute("data-theme-choice"), "system");
  await toggle.click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "light");
  await toggle.click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
  await page.goto(`${server.url}/o/${user.workspaceId}/projects`);
  await page.getByTestId("projects-table").waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
  assert.equal(await page.getByTestId("theme-toggle").getAttribute("data-theme-choice"), "dark");
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await shot("ten-theme-dark-chosen");
  await page.getByTestId("theme-toggle").click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), undefined);
  assert.notEqual(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), background);

  // Dataset examples: a key per line, long values cut, +N more.
  const dataset = await client.createDataset("tickets");
  await client.createExamples({
    datasetId: dataset.id,
    inputs: [
      {
        question: "Where is my order #1042? It was supposed to arrive last week and the tracking page has not changed since Monday.",
        customer: { id: "c-17", tier: "gold" },
        channel: "web",
        locale: "en-GB",
        attempts: 2,
        urgent: true,
      },
    ],
    outputs: [{ answer: "In transit with UPS." }],
  });
  await page.goto(`${server.url}/o/${user.workspaceId}/datasets/${dataset.id}`);
  const cell = page.getByTestId("json-cell").first();
  await cell.waitFor();
  const lines = (await cell.innerText()).split("\n");
  // Four of the six keys (in the order the database keeps them), then how many more.
  assert.equal(lines.length, 5, lines.join(" | "));
  assert.equal(lines.at(-1), "+2 more");
  for (const line of lines.slice(0, 4)) assert.match(line, /^[a-z]+: \S/);
  assert.ok(lines.includes("urgent: true") && lines.includes("attempts: 2"), lines.join(" | "));
  await shot("ten-dataset-cells");
  await shot("ten-dataset-cells-dark", "dark");
  // The missing trace's 404 is the only console error.
  assert.deepEqual(
    errors.filter((e) => !/status of 404/.test(e)),
    [],
  );
});
