/**
 * Issue 38's review, items 1 and 8, in Debian's Chromium: a comparison of two experiments (recorded
 * by the real SDK's evaluate()) opens on the key that moved most, counts better/worse for every key,
 * colours score chips by value; chart axes carry round, distinct ticks and 0–1 scores stay 0–1.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { Client } from "langsmith";
import { evaluate } from "langsmith/evaluation";
import { createKeyInBrowser, seedTraces } from "./harness";
import { noChromium, watchConsole, signedInSuite } from "./suite";

const suite = signedInSuite("compare-charts@example.com");

/** Each chart's y-axis labels, in order. */
const yLabels = (page: Page, root = "body") =>
  page.evaluate(
    (sel) =>
      [...document.querySelectorAll(`${sel} .recharts-yAxis-tick-labels`)].map((axis) =>
        [...axis.querySelectorAll(".recharts-cartesian-axis-tick-value")].map((t) => t.textContent ?? ""),
      ),
    root,
  );

test("the comparison opens on the key that moved most, with better/worse per key and coloured chips", { skip: noChromium }, async () => {
  const { server, page, user, dialogs, shot } = suite;
  const errors = watchConsole(page);
  const client = new Client({ apiUrl: server.url, apiKey: await createKeyInBrowser(page, user) });
  const dataset = await client.createDataset("support-questions");
  const questions = ["Where is my order?", "Can I return shoes?", "Do you ship to Peru?", "Is it waterproof?"];
  await client.createExamples({
    datasetId: dataset.id,
    inputs: questions.map((question) => ({ question })),
    outputs: questions.map((question) => ({ answer: `About: ${question}` })),
  });
  // "accuracy" (alphabetically first) is the same in both; "tone" drops on two examples in the second.
  const accuracy = () => ({ key: "accuracy", score: 1 });
  const tone = ({ outputs }: { outputs?: Record<string, any> }) => ({ key: "tone", score: outputs?.rude ? 0.2 : 0.9 });
  const answer = (rudeOn: string[]) => (inputs: Record<string, any>) => ({
    answer: `About: ${inputs.question}`,
    rude: rudeOn.includes(inputs.question),
  });
  const before = await evaluate(answer([]), { data: dataset.name, client, experimentPrefix: "prompt-v1", evaluators: [accuracy, tone] });
  const after = await evaluate(answer(questions.slice(1, 3)), {
    data: dataset.name,
    client,
    experimentPrefix: "prompt-v2",
    evaluators: [accuracy, tone],
  });
  await client.awaitPendingTraceBatches();
  const ids: Record<string, string> = {};
  for await (const p of client.listProjects({ referenceDatasetId: dataset.id })) ids[p.name ?? ""] = p.id;

  // Item 8: the experiments tab's score chart keeps 0–1 scores on 0–1.
  await page.goto(`${server.url}/o/${user.workspaceId}/datasets/${dataset.id}?tab=experiments`);
  await page.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value").first().waitFor();
  const [scoreAxis] = await yLabels(page);
  assert.deepEqual(scoreAxis, ["0", "0.25", "0.5", "0.75", "1"]);
  await shot("ten-experiments-score-axis");
  await shot("ten-experiments-score-axis-dark", "dark");

  await page.goto(
    `${server.url}/o/${user.workspaceId}/datasets/${dataset.id}/compare?selectedSessions=${ids[before.experimentName]},${ids[after.experimentName]}`,
  );
  const summaries = page.getByTestId("experiment-summaries");
  await summaries.getByTestId("summary-keys").first().waitFor();
  // Opened on "tone", the key that moved, not on the alphabetically first "accuracy".
  assert.equal(await page.locator("select").first().inputValue(), "tone");
  const second = summaries.getByTestId("experiment-summary").nth(1);
  const toneRow = second.locator('tr[data-key="tone"]');
  const accuracyRow = second.locator('tr[data-key="accuracy"]');
  assert.equal(await toneRow.getByTestId("key-worse").innerText(), "2 worse");
  assert.equal(await accuracyRow.getByTestId("key-worse").innerText(), "0 worse");
  assert.equal(await accuracyRow.getByTestId("key-better").innerText(), "0 better");
  assert.equal(await toneRow.getAttribute("aria-current"), "true");
  // Two regressions marked in the grid; chips coloured by value.
  await page.locator('td[data-verdict="worse"]').nth(1).waitFor();
  assert.equal(await page.locator('td[data-verdict="worse"]').count(), 2);
  const tones = await page.locator("[data-tone]").evaluateAll((els) => els.map((e) => e.getAttribute("data-tone")));
  assert.ok(tones.includes("poor") && tones.includes("good"), `chip tones: ${tones}`);
  await shot("ten-compare");
  await shot("ten-compare-dark", "dark");

  // A click on a key in the summary judges by that key.
  await accuracyRow.click();
  await page.waitForURL(/key=accuracy/, { waitUntil: "commit" });
  await page.waitForFunction(() => document.querySelectorAll('td[data-verdict="worse"]').length === 0);
  assert.equal(await page.locator("select").first().inputValue(), "accuracy");
  assert.deepEqual(errors, []);
  assert.deepEqual(dialogs, []);
});

test("dashboard chart axes: round ticks, no label twice", { skip: noChromium }, async () => {
  const { server, page, user, shot } = suite;
  const errors = watchConsole(page);
  const key = await createKeyInBrowser(page, user);
  await seedTraces(server, key, "chart-axes");
  const client = new Client({ apiUrl: server.url, apiKey: key });
  let projectId = "";
  for await (const p of client.listProjects({ name: "chart-axes" })) projectId = p.id;
  await page.goto(`${server.url}/o/${user.workspaceId}/projects/${projectId}/dashboard`);
  await page.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value").nth(8).waitFor();
  await page.waitForTimeout(500);
  const axes = (await yLabels(page)).filter((labels) => labels.length > 0);
  assert.ok(axes.length >= 4, `charts drawn: ${axes.length}`);
  for (const labels of axes) assert.equal(new Set(labels).size, labels.length, `repeated tick labels: ${labels.join(", ")}`);
  await shot("ten-dashboard-axes");
  await shot("ten-dashboard-axes-dark", "dark");
  assert.deepEqual(errors, []);
});
