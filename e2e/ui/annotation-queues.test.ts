/**
 * Human review in Debian's Chromium: a queue with a categorical and a continuous rubric item built
 * in the UI, runs sent to it from the runs table, three runs reviewed with the keyboard only, the
 * progress on the queue's page, and the answers read back through the SDK as signed feedback.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { Client } from "langsmith";
import { createKeyInBrowser } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("reviewer@example.com");

test("build a queue, fill it from the runs table, review three runs by keyboard, see progress", { skip: noChromium }, async () => {
  const { server, page, user, dialogs, shot } = suite;
  const client = new Client({ apiUrl: server.url, apiKey: await createKeyInBrowser(page, user), autoBatchTracing: false });
  const project = await client.createProject({ projectName: "support-bot" });
  const runIds: string[] = [];
  for (const [i, question] of ["Where is my order?", "Can I return shoes?", "Do you ship to Peru?", "Is it waterproof?"].entries()) {
    const id = randomUUID();
    runIds.push(id);
    await client.createRun({
      id,
      name: `answer-${i + 1}`,
      run_type: "llm",
      inputs: { messages: [{ role: "user", content: question }] },
      outputs: { choices: [{ message: { role: "assistant", content: `Answer to: ${question}` } }] },
      project_name: project.name,
      start_time: Date.UTC(2026, 10, 26, 3, 0, i),
      end_time: Date.UTC(2026, 10, 26, 3, 0, i) + 800,
    } as never);
  }

  // The queue and its rubric, built in the UI.
  await page.goto(`${server.url}/o/${user.workspaceId}/queues`);
  await page.getByRole("button", { name: "New queue" }).click();
  const form = page.getByRole("form", { name: "New queue" });
  await form.getByLabel("Queue name").fill("Support answers");
  await form.getByLabel("Instructions").fill("Judge the tone, then how accurate the answer is.");
  await form.getByLabel("Rubric item 1 key").fill("tone");
  await form.getByLabel("Rubric item 1 categories").fill("rude, neutral, kind");
  await form.getByRole("button", { name: "Add rubric item" }).click();
  await form.getByLabel("Rubric item 2 key").fill("accuracy");
  await form.getByLabel("Rubric item 2 type").selectOption("continuous");
  await shot("queue-new");
  await form.getByRole("button", { name: "Create queue" }).click();
  await page.waitForURL(/\/queues\/[0-9a-f-]{36}$/);
  const queueUrl = page.url();

  // Runs ticked in the table go to the queue.
  await page.goto(`${server.url}/o/${user.workspaceId}/projects/${project.id}`);
  for (const i of [1, 2, 3, 4])
    await page
      .locator('[data-testid="run-row"]', { hasText: `answer-${i}` })
      .first()
      .getByRole("checkbox")
      .check();
  const bar = page.getByTestId("bulk-actions");
  await bar.getByRole("button", { name: "Add to queue" }).click();
  const add = bar.getByRole("form", { name: "Add to annotation queue" });
  await add.getByLabel("Annotation queue").selectOption({ label: "Support answers" });
  await add.getByRole("button", { name: "Add 4 runs" }).click();
  await add.getByText("for review").waitFor();

  await page.goto(queueUrl);
  await page.getByTestId("queue-runs").locator("tbody tr").nth(3).waitFor();
  await page.getByRole("link", { name: "Review 4 runs" }).click();
  await page.waitForURL(/\/review$/);

  // Three runs, keyboard only: 3 picks "kind", the score field takes the focus, Enter submits.
  const reviewed: string[] = [];
  const title = page.getByTestId("run-detail").locator("h2");
  for (const score of ["1", "0.5", "0"]) {
    await page.getByTestId("question-tone").waitFor();
    await title.waitFor();
    const name = (await title.innerText()).trim();
    assert.ok(!reviewed.includes(name), `a new run each time (${name})`);
    reviewed.push(name);
    if (reviewed.length === 1) {
      await shot("queue-review");
      await shot("queue-review-dark", "dark");
    }
    await page.keyboard.press("3");
    await page.keyboard.type(score);
    await page.keyboard.press("Enter");
    // The next run is shown: its name, not the loading state between the two.
    await page.waitForFunction((prev) => {
      const shown = document.querySelector('[data-testid="run-detail"] h2')?.textContent?.trim();
      return !!shown && shown !== prev;
    }, name);
  }
  assert.deepEqual(reviewed, ["answer-1", "answer-2", "answer-3"], "queue order");
  // ← goes back to the last one reviewed, with the reviewer's answers.
  await page.keyboard.press("ArrowLeft");
  await page.getByText("You reviewed this run").waitFor();
  assert.equal((await title.innerText()).trim(), "answer-3");
  assert.equal(await page.getByLabel("accuracy").inputValue(), "0");

  await page.goto(queueUrl);
  const reviewers = page.getByTestId("reviewers");
  await reviewers.waitFor();
  assert.match(await reviewers.innerText(), /Ada Lovelace\s+3\s+0/);
  assert.match(await page.locator(".stat-row").innerText(), /3 \/ 4/);
  await shot("queue-page");
  await shot("queue-page-dark", "dark");
  await page.goto(`${server.url}/o/${user.workspaceId}/queues`);
  await page.getByTestId("queues").getByText("1 to review").waitFor();
  await shot("queues");
  await shot("queues-dark", "dark");

  const feedback: { key: string; score?: number | null; feedback_source?: any }[] = [];
  for await (const f of client.listFeedback({ runIds: runIds.slice(0, 3) })) feedback.push(f as never);
  assert.deepEqual(feedback.map((f) => `${f.key}=${f.score}`).sort(), [
    "accuracy=0",
    "accuracy=0.5",
    "accuracy=1",
    "tone=2",
    "tone=2",
    "tone=2",
  ]);
  assert.ok(feedback.every((f) => f.feedback_source?.metadata?.user_name === "Ada Lovelace"));
  assert.deepEqual(dialogs, []);
});
