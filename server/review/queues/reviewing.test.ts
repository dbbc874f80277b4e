import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../../auth/workspaces";
import { AppError } from "../../core/errors";
import type { Sql } from "../../db/client";
import { withTestDatabases } from "../../db/test-databases";
import { readExamples } from "../../datasets/examples";
import { createDataset } from "../../datasets/service";
import { createFeedbackConfig } from "../../feedback/configs";
import { listFeedback } from "../../feedback/service";
import { ingestRuns } from "../../ingest/service";
import { addRunsToQueue, loadItem } from "./items";
import { createQueue, loadQueue, updateQueue } from "./queues";
import { countQueueRuns, listItems } from "./reads";
import { nextForReviewer } from "./reviewing";
import { addQueueRunToDataset, submitReview } from "./submit";

const status = (code: number, detail: RegExp) => (error: unknown) =>
  error instanceof AppError && error.status === code && detail.test(error.message);

async function runs(db: Sql, ws: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await ingestRuns(db, ws, {
    post: ids.map((id, i) => ({
      id,
      name: `run-${i}`,
      run_type: "llm",
      session_name: "review-me",
      start_time: Date.UTC(2026, 10, 26, 0, 0, i),
      inputs: { i },
    })),
  });
  return ids;
}

withTestDatabases("annotation queues", (open) => {
  test("concurrent reviewers never hold the same run; a run needing two reviewers is done only after both", async () => {
    const db = (await open()).sql;
    const ws = (await createWorkspace(db.prisma, "queues")).id;
    const ids = await runs(db, ws, 12);
    const created = await createQueue(db, ws, { name: "two each", num_reviewers_per_item: 2, reservation_minutes: 10 });
    await addRunsToQueue(
      db,
      ws,
      created.id,
      ids.map((run_id) => ({ run_id })),
    );
    const queue = await loadQueue(db, ws, created.id);

    // One reviewer drawing several times at once holds one run.
    const same = await Promise.all([1, 2, 3].map(() => nextForReviewer(db, queue, "reviewer-0")));
    assert.equal(new Set(same.map((d) => d!.id)).size, 1);
    // Twelve reviewers draw at once: twelve different runs.
    const reviewers = Array.from({ length: 12 }, (_, i) => `reviewer-${i}`);
    const drawn = await Promise.all(reviewers.map((r) => nextForReviewer(db, queue, r)));
    assert.equal(new Set(drawn.map((d) => d!.id)).size, 12);
    // Asking again gives each the run they hold; a thirteenth reviewer finds nothing free.
    assert.equal((await nextForReviewer(db, queue, "reviewer-3"))!.id, drawn[3]!.id);
    assert.equal(await nextForReviewer(db, queue, "late"), null);

    const ada = { id: "ada", name: "Ada" };
    const bo = { id: "bo", name: "Bo" };
    const first = drawn[0]!;
    await submitReview(db, ws, { id: "reviewer-0", name: "R0" }, { queueId: queue.id, itemId: first.id, answers: [] });
    assert.equal((await loadItem(db, queue.id, first.id)).archived, false, "one of two reviewers");
    assert.equal(await countQueueRuns(db, queue.id, "reviewer-0", "needs_others_review"), 1);
    await submitReview(db, ws, ada, { queueId: queue.id, itemId: first.id, answers: [] });
    assert.equal((await loadItem(db, queue.id, first.id)).archived, true, "both reviewers");
    // Completing again counts once; a reviewer never draws a run they finished or skipped.
    await submitReview(db, ws, ada, { queueId: queue.id, itemId: first.id, answers: [] });
    assert.equal((await loadItem(db, queue.id, first.id)).completedCount, 2);
    await submitReview(db, ws, bo, { queueId: queue.id, itemId: drawn[1]!.id, answers: [], skip: true });
    assert.equal(await countQueueRuns(db, queue.id, "bo", "needs_my_review"), 10);
    assert.equal(await countQueueRuns(db, queue.id, "bo", "completed"), 1);

    // Needing one reviewer from now on: runs with one completion are done.
    await submitReview(db, ws, bo, { queueId: queue.id, itemId: drawn[2]!.id, answers: [] });
    await updateQueue(db, ws, queue.id, { num_reviewers_per_item: 1 });
    assert.equal(await countQueueRuns(db, queue.id, "x", "completed"), 2);

    // Items page by page through the cursor.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listItems(db, queue.id, "x", { status: "all", cursor, limit: 5 });
      seen.push(...page.items.map((i) => i.run_id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, ids);
  });

  test("answers follow the rubric and the feedback configs, signed with the reviewer and the queue", async () => {
    const db = (await open()).sql;
    const ws = (await createWorkspace(db.prisma, "rubric")).id;
    const [run] = await runs(db, ws, 1);
    await createFeedbackConfig(db, ws, { feedback_key: "accuracy", feedback_config: { type: "continuous", min: 0, max: 1 } });
    await createFeedbackConfig(db, ws, {
      feedback_key: "tone",
      feedback_config: {
        type: "categorical",
        categories: [
          { value: 0, label: "rude" },
          { value: 1, label: "kind" },
        ],
      },
    });
    const queue = await createQueue(db, ws, {
      name: "rubric",
      rubric_items: [
        { feedback_key: "accuracy", is_required: true },
        { feedback_key: "tone" },
        { feedback_key: "why", regex_validator: "^[A-Z]" },
      ],
    });
    const [item] = await addRunsToQueue(db, ws, queue.id, [{ run_id: run }]);
    const ada = { id: randomUUID(), name: "Ada" };
    const submit = (answers: { key: string; score?: number; value?: string }[]) =>
      submitReview(db, ws, ada, { queueId: queue.id, itemId: item.id, answers });
    await assert.rejects(submit([{ key: "tone", score: 1 }]), status(400, /"accuracy" is required/));
    await assert.rejects(submit([{ key: "accuracy", score: 3 }]), status(400, /outside the range of "accuracy": 0 to 1/));
    await assert.rejects(
      submit([
        { key: "accuracy", score: 1 },
        { key: "tone", score: 5 },
      ]),
      status(400, /not a category of "tone"/),
    );
    await assert.rejects(
      submit([
        { key: "accuracy", score: 1 },
        { key: "why", value: "lowercase" },
      ]),
      status(400, /does not match the pattern/),
    );
    await submit([
      { key: "accuracy", score: 0.5 },
      { key: "tone", score: 1, value: "kind" },
    ]);
    // Answering again replaces the reviewer's answer.
    await submit([{ key: "accuracy", score: 1 }]);
    const feedback = await listFeedback(db, ws, { run: [run], key: [], source: [], session: [], offset: 0, limit: 10 });
    assert.deepEqual(feedback.map((f) => [f.key, f.score]).sort(), [
      ["accuracy", 1],
      ["tone", 1],
    ]);
    assert.deepEqual(feedback[0].feedback_source, {
      type: "app",
      metadata: { user_id: ada.id, user_name: "Ada", annotation_queue_id: queue.id },
    });

    // `d`: the run into a dataset, its output corrected; without a dataset the message says so.
    await assert.rejects(addQueueRunToDataset(db, ws, { queueId: queue.id, itemId: item.id }), status(400, /no default dataset/));
    const dataset = await createDataset(db, ws, { name: "golden" } as never);
    const added = await addQueueRunToDataset(db, ws, {
      queueId: queue.id,
      itemId: item.id,
      datasetId: dataset.id,
      outputs: { answer: "fixed" },
    });
    const [example] = await readExamples(db, ws, [added.example_id]);
    assert.deepEqual([example.outputs, example.source_run_id], [{ answer: "fixed" }, run]);
  });
});
