/**
 * The evaluate → compare loop in Debian's Chromium: two experiments recorded by the real SDK's
 * evaluate(), the dataset's Experiments tab, the comparison against a baseline with the regression
 * marked, the regressions-only filter, keyboard moves, and the single-experiment view the SDK links to.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "langsmith";
import { evaluate } from "langsmith/evaluation";
import { createKeyInBrowser } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("experiments@example.com");

test("a dataset's experiments, compared against a baseline, regressions marked", { skip: noChromium }, async () => {
  const { server, page, user, dialogs, shot } = suite;
  const client = new Client({ apiUrl: server.url, apiKey: await createKeyInBrowser(page, user) });
  const dataset = await client.createDataset("capitals");
  const capitals: [string, string][] = [
    ["France", "Paris"],
    ["Japan", "Tokyo"],
    ["Kenya", "Nairobi"],
    ["Peru", "Lima"],
  ];
  await client.createExamples({
    datasetId: dataset.id,
    inputs: capitals.map(([country]) => ({ country })),
    outputs: capitals.map(([, capital]) => ({ capital })),
  });
  const exact = ({ outputs, referenceOutputs }: { outputs?: Record<string, any>; referenceOutputs?: Record<string, any> }) => ({
    key: "correct",
    score: outputs?.capital === referenceOutputs?.capital ? 1 : 0,
  });
  const answers = new Map(capitals);
  const good = await evaluate((inputs: Record<string, any>) => ({ capital: answers.get(inputs.country) }), {
    data: dataset.name,
    client,
    experimentPrefix: "gpt-big",
    metadata: { model: "big-model" },
    evaluators: [exact],
  });
  const bad = await evaluate(
    (inputs: Record<string, any>) => ({ capital: inputs.country === "Kenya" ? "Mombasa" : answers.get(inputs.country) }),
    {
      data: dataset.name,
      client,
      experimentPrefix: "gpt-small",
      metadata: { model: "small-model" },
      evaluators: [exact],
    },
  );
  await client.awaitPendingTraceBatches();
  const experiments: { id: string; name?: string }[] = [];
  for await (const p of client.listProjects({ referenceDatasetId: dataset.id })) experiments.push(p);
  const goodId = experiments.find((e) => e.name === good.experimentName)!.id;
  const badId = experiments.find((e) => e.name === bad.experimentName)!.id;

  await page.goto(`${server.url}/o/${user.workspaceId}/datasets/${dataset.id}?tab=experiments`);
  const table = page.locator('[data-testid="experiments"]');
  await table.locator("tbody tr").nth(1).waitFor();
  assert.match((await table.textContent()) ?? "", /big-model/);
  await shot("experiments-tab");
  await shot("experiments-tab-dark", "dark");
  await page.locator(`input[aria-label="Select ${good.experimentName}"]`).check();
  await page.locator(`input[aria-label="Select ${bad.experimentName}"]`).check();
  await page.locator('[data-testid="compare-selected"]').click();
  await page.waitForURL(/\/compare\?selectedSessions=/, { waitUntil: "commit" });
  assert.deepEqual(new URL(page.url()).searchParams.get("selectedSessions")!.split(",").sort(), [goodId, badId].sort());

  // The baseline is the one picked first; the worse experiment's Kenya cell is the regression.
  const grid = page.locator('[data-testid="compare-grid"]');
  await grid.locator('[data-testid="compare-row"]').nth(3).waitFor();
  const regression = grid.locator('td[data-verdict="worse"]');
  await regression.waitFor();
  assert.equal(await regression.count(), 1);
  assert.match((await regression.textContent()) ?? "", /Mombasa/);
  assert.match((await page.locator('[data-testid="experiment-summaries"]').textContent()) ?? "", /1 worse/);
  await shot("experiments-compare");
  await shot("experiments-compare-dark", "dark");

  await page.getByRole("button", { name: "Regressions only" }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-row"]').length === 1);
  assert.match((await grid.textContent()) ?? "", /Kenya/);
  assert.equal(new URL(page.url()).searchParams.get("only"), "regressions");

  // The detail under the grid diffs the selected cell's output against the baseline's.
  const detail = page.locator('[data-testid="example-detail"]');
  assert.match((await detail.textContent()) ?? "", /Mombasa/);
  assert.ok(await detail.locator("span[class*=removed]", { hasText: "Nairobi" }).count(), "the baseline's answer shows as removed");
  await shot("experiments-compare-regressions");

  // Keyboard: → to the other experiment, Enter opens that run's trace.
  await page.getByRole("button", { name: "All examples" }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-row"]').length === 4);
  await grid.locator('[data-testid="compare-row"]').first().locator("td").first().click();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/traces\/[0-9a-f-]{36}/, { waitUntil: "commit" });

  // The address evaluate() prints for one experiment opens that experiment example by example.
  await page.goto(`${server.url}/o/${user.workspaceId}/datasets/${dataset.id}/compare?selectedSessions=${goodId}`);
  await page.locator('[data-testid="compare-title"]', { hasText: good.experimentName }).waitFor();
  assert.equal(await page.locator('[data-testid="compare-row"]').count(), 4);
  assert.equal(await page.locator("td[data-verdict]").count(), 0, "one experiment has nothing to be judged against");
  await shot("experiment-single-dark", "dark");

  // Pairwise review: pick per example with the keyboard (1, 2, 0 for a tie); win rates follow.
  await page.goto(`${server.url}/o/${user.workspaceId}/datasets/${dataset.id}/compare?selectedSessions=${goodId},${badId}`);
  await page.getByRole("button", { name: "Start pairwise review" }).click();
  await page.waitForURL(/comparativeExperiment=/, { waitUntil: "commit" });
  const picker = page.locator('[data-testid="preference-picker"]');
  await picker.waitFor();
  const tallies = ["1–0–0", "1–1–0", "2–1–0", "2–2–0"];
  for (const [i, key] of ["1", "0", "1", "0"].entries()) {
    await page.keyboard.press(key);
    await page.waitForFunction(
      (want) => (document.querySelector('[data-testid="win-rates"]')?.textContent ?? "").includes(want),
      tallies[i],
    );
  }
  const rates = page.locator('[data-testid="win-rates"]').first();
  assert.match((await rates.textContent()) ?? "", /75% wins/);
  await shot("experiments-pairwise");
  await page.goto(`${server.url}/o/${user.workspaceId}/datasets/${dataset.id}?tab=pairwise`);
  await page.locator('[data-testid="pairwise-list"]').waitFor();
  assert.match((await page.locator('[data-testid="pairwise-list"]').textContent()) ?? "", /75% wins/);
  await shot("experiments-pairwise-list-dark", "dark");
  assert.deepEqual(dialogs, []);
});
