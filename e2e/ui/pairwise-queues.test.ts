/**
 * A pairwise queue in Chromium: two experiments' runs of one dataset paired by example, listed as
 * pairs on the queue page, the two runs side by side (each name once) with the A / B / equal rubric, choices made with the keyboard and read back
 * through the SDK as feedback on both runs; the queue page's reviewer assignment. Light and dark.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { Client } from "langsmith";
import { createKeyInBrowser } from "./harness";
import { noChromium, signedInSuite } from "./suite";

const suite = signedInSuite("pairs@example.com");

test("review a pairwise queue side by side, by keyboard; assign reviewers", { skip: noChromium }, async () => {
  const { server, page, user, shot } = suite;
  const client = new Client({ apiUrl: server.url, apiKey: await createKeyInBrowser(page, user), autoBatchTracing: false });
  const dataset = await client.createDataset("support questions");
  const examples = await client.createExamples({
    datasetId: dataset.id,
    inputs: [{ question: "Can I return shoes after 40 days?" }, { question: "Do you ship to Peru?" }],
    outputs: [{ answer: "Within 30 days only." }, { answer: "Yes, in 5-7 days." }],
  });
  const experiments: string[] = [];
  const answers = {
    baseline: ["Yes.", "We ship worldwide."],
    candidate: ["Returns are accepted within 30 days of delivery, so 40 days is too late.", "Yes — Peru takes 5 to 7 business days."],
  };
  for (const [name, texts] of Object.entries(answers)) {
    const project = await client.createProject({ projectName: `support-${name}`, referenceDatasetId: dataset.id });
    experiments.push(project.id);
    for (const [i, ex] of examples.entries())
      await client.createRun({
        id: randomUUID(),
        name: `${name}-answer`,
        run_type: "llm",
        inputs: { messages: [{ role: "user", content: String(ex.inputs.question) }] },
        outputs: { choices: [{ message: { role: "assistant", content: texts[i] } }] },
        project_name: project.name,
        reference_example_id: ex.id,
        start_time: Date.UTC(2026, 10, 27, 8, 0, i),
        end_time: Date.UTC(2026, 10, 27, 8, 0, i) + 900,
      } as never);
  }
  const queue = (await client.annotationQueues.annotationQueues({
    name: "Baseline vs candidate",
    queue_type: "pairwise",
    rubric_instructions: "Which answer is **correct** and which is **kinder**?",
    rubric_items: [{ feedback_key: "correctness" }, { feedback_key: "tone", description: "Friendlier wording" }],
  } as never)) as { id: string };
  await new Promise((r) => setTimeout(r, 1500));
  await client.annotationQueues.populate({ queue_id: queue.id, session_ids: experiments });

  await page.goto(`${server.url}/o/${user.workspaceId}/queues/${queue.id}`);
  // Each item of the queue's list is a pair: run A above run B, each with its output.
  const pairs = page.getByTestId("queue-pair");
  await pairs.first().waitFor();
  assert.equal(await pairs.count(), 2);
  for (const text of ["baseline-answer", "candidate-answer", "Returns are accepted within 30 days"])
    await pairs.filter({ hasText: "Can I return shoes" }).getByText(text).first().waitFor();
  const assign = page.getByTestId("assigned-reviewers");
  await assign.getByRole("checkbox").first().check();
  await assign.getByRole("button", { name: "Save reviewers" }).click();
  await assign.getByText("Saved.").waitFor();
  // Only the assigned reviewers (Ada, ticked above) review it from now on.
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Who reviews").selectOption("assigned");
  await page.getByRole("button", { name: "Save queue" }).click();
  await page.getByTestId("access-mode").getByText("Only the assigned reviewers review this queue.").waitFor();
  const stored = await client.annotationQueues.retrieve(queue.id);
  assert.equal(stored.reviewer_access_mode, "assigned");
  assert.deepEqual(
    stored.assigned_reviewers?.map((r) => r.id),
    [user.userId],
  );
  // Light first: a light shot right after a dark one catches the colours mid-transition.
  await shot("pairwise-queue");
  await shot("pairwise-queue-dark", "dark");

  await page.getByRole("link", { name: /Review 2 runs/ }).click();
  await page.waitForURL(/\/review$/);
  const a = page.getByTestId("run-A");
  const b = page.getByTestId("run-B");
  await a.getByText("baseline-answer").first().waitFor();
  await b.getByText("candidate-answer").first().waitFor();
  await b
    .getByText(/Returns are accepted within 30 days|Peru takes 5 to 7/)
    .first()
    .waitFor();
  // Each run's name shows once, as its title, after its side (A or B).
  assert.equal(await b.getByText("candidate-answer", { exact: true }).count(), 1);
  assert.equal(await a.getByText("baseline-answer", { exact: true }).count(), 1);
  await b.getByRole("heading", { name: "candidate-answer" }).waitFor();
  await page.getByTestId("rubric-instructions").locator("strong", { hasText: "correct" }).waitFor();
  await shot("pairwise-review");
  await shot("pairwise-review-dark", "dark");
  // Keyboard: b for correctness, then e for tone, Enter sends.
  await page.keyboard.press("b");
  await page.keyboard.press("e");
  const first = await page.getByTestId("question-correctness").getByRole("button", { name: /B is better/ });
  assert.equal(await first.getAttribute("aria-pressed"), "true");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => !document.querySelector('[data-testid="question-correctness"] [aria-pressed="true"]'));

  const feedback = [];
  for await (const f of client.listFeedback({ feedbackKeys: ["correctness", "tone"] })) feedback.push(f);
  assert.deepEqual(feedback.map((f) => `${f.key}:${f.score}:${String(f.value)}`).sort(), [
    "correctness:0:worse",
    "correctness:1:better",
    "tone:1:equal",
    "tone:1:equal",
  ]);
});
