/**
 * The SQL page in Debian's Chromium: the example query over a project's runs answered as a chart and
 * a table, a time series as a line, a mistake shown with its position. Screenshots light and dark.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { call } from "../harness/http";
import { createKeyInBrowser } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("sql@example.com");

test("query a project's runs with SQL: a chart, a table, a mistake explained", { skip: noChromium }, async () => {
  const { server, page, user, dialogs, shot } = suite;
  const apiKey = await createKeyInBrowser(page, user);
  const now = Date.now();
  const models = ["gpt-4o", "gpt-4o", "gpt-4o-mini", "claude-sonnet", "gpt-4o", "gpt-4o-mini"];
  const post = Array.from({ length: 60 }, (_, i) => ({
    id: randomUUID(),
    name: "ChatModel",
    run_type: "llm",
    session_name: "support-sql",
    start_time: new Date(now - (i + 1) * 20 * 60_000).toISOString(),
    end_time: new Date(now - (i + 1) * 20 * 60_000 + 800 + i * 10).toISOString(),
    inputs: { messages: [{ role: "user", content: `question ${i}` }] },
    outputs: { usage_metadata: { input_tokens: 20, output_tokens: i, total_tokens: 20 + i } },
    extra: { metadata: { ls_model_name: models[i % models.length] } },
  }));
  assert.equal((await call({ url: server.url, apiKey }, "POST", "/runs/batch", { post })).status, 202);
  const project = (await call({ url: server.url, apiKey }, "GET", "/sessions?name=support-sql")).body[0];

  await page.goto(`${server.url}/o/${user.workspaceId}/projects/${project.id}`);
  await page.getByTestId("project-sql").click();
  await page.getByTestId("sql-projects").getByText("support-sql").waitFor();
  await page.getByTestId("sql-run").click();
  const results = page.getByTestId("sql-results");
  await results.getByRole("cell", { name: "gpt-4o", exact: true }).waitFor();
  assert.equal(await results.locator("tbody tr").count(), 3);
  await results.getByRole("row", { name: /gpt-4o\s+30/ }).waitFor();
  await page.getByTestId("sql-chart").locator(".recharts-bar-rectangle").first().waitFor();
  await page.getByTestId("sql-meta").getByText("3 rows").waitFor();
  await shot("sql");
  await shot("sql-dark", "dark");

  await page.getByRole("button", { name: "Traces per hour" }).click();
  await page.getByTestId("sql-editor").press("Control+Enter");
  // A flat line has no height, which Playwright counts as hidden: the path is checked instead.
  const line = page.getByTestId("sql-chart").locator(".recharts-line-curve");
  await line.waitFor({ state: "attached" });
  assert.ok(((await line.getAttribute("d")) ?? "").split("L").length >= 20, "a point per hour");
  assert.ok((await results.locator("tbody tr").count()) >= 20);
  await shot("sql-series");

  await page.getByTestId("sql-editor").fill("SELECT count(*) FROM runs");
  await page.getByTestId("sql-run").click();
  await page
    .getByTestId("sql-error")
    .getByText(/start_time lower bound.*at character 22/)
    .waitFor();
  await shot("sql-error-dark", "dark");
  assert.deepEqual(dialogs, []);
});
