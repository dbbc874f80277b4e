/**
 * The workspace's pages in Debian's Chromium over the trace of run-detail-trace.ts: the charts
 * (tooltips, grouping by model), a prompt's commit history and side-by-side diff, a project's
 * dashboard, settings (members, a workspace model price) and dark mode. Screenshots go to
 * e2e/screenshots/.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import type { Page } from "playwright-core";
import type { RunningServer } from "../harness/server";
import { createKeyInBrowser } from "./harness";
import { openRun, PROJECT, sendTrace } from "./run-detail-trace";
import { noChromium, restCall, signedInSuite } from "./suite";

const suite = signedInSuite("grace@example.com");
const skip = noChromium;
const SHOTS = path.join(process.cwd(), "e2e", "screenshots");
let server: RunningServer;
let page: Page;
let dialogs: string[] = [];
let workspaceId = "";
let apiKey = "";

const shot = (name: string) => suite.shot(name);
const api = (method: string, route: string, body?: unknown) => restCall(server.url, apiKey, method, route, body);

test("setup: a key made in settings, and the trace sent with the langsmith client", { skip }, async () => {
  ({ server, page, dialogs } = suite);
  workspaceId = suite.user.workspaceId;
  apiKey = await createKeyInBrowser(page, suite.user);
  await sendTrace(server.url, apiKey);
});

test("charts: the dashboard draws the runs with tooltips; grouping by model works", { skip }, async () => {
  await page.goto(`${server.url}/o/${workspaceId}/charts`);
  const runs = page.getByTestId("chart-runs");
  await runs.locator(".recharts-bar-rectangle").first().waitFor();
  const box = (await runs.locator(".recharts-bar-rectangle").last().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await runs.locator(".recharts-tooltip-wrapper").filter({ hasText: "Runs" }).waitFor();
  await shot("charts-dashboard");
  // Every chart of the range marks the same instants on its time axis ("14:00", "Nov 27").
  const timeLabels = await page.locator("[data-testid^=chart-]").evaluateAll((cards) =>
    cards
      .map((card) =>
        [...card.querySelectorAll(".recharts-cartesian-axis-tick-value")]
          .map((t) => t.textContent ?? "")
          .filter((t) => /^(\d\d:\d\d|[A-Z][a-z]{2} \d{1,2})$/.test(t)),
      )
      .filter((labels) => labels.length > 0)
      .map((labels) => labels.join(" ")),
  );
  assert.ok(timeLabels.length >= 3, `charts with a time axis: ${timeLabels.length}`);
  assert.equal(new Set(timeLabels).size, 1, timeLabels.join(" | "));
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
  await page.getByTestId("chart-runs").locator(".recharts-bar-rectangle").first().waitFor();
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
  await bar.waitFor();
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
  await openRun(page, "openai-chat");
  await page.screenshot({ path: path.join(SHOTS, "b-dark-trace-openai-conversation.png") });
  await page.getByTestId("user-menu").click();
  await page.getByTestId("theme-choice").getByRole("button", { name: "System" }).click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), undefined);
  assert.equal(await background(), light);
  assert.deepEqual(dialogs, []);
});
