import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createApiKey } from "../../auth/api-keys";
import { createWorkspace } from "../../auth/workspaces";
import { AppError } from "../../core/errors";
import type { Sql } from "../../db/client";
import { withTestDatabases } from "../../db/test-databases";
import { ingestRuns } from "../../ingest/service";
import { addRunsToQueue } from "./items";
import { queueItemsPage, queueOverview, reviewRun } from "./progress";
import { createQueue, listQueues, readQueue, updateQueue } from "./queues";
import { listQueueRuns } from "./reads";
import { setQueueReviewers } from "./reviewers";
import { setItemStatus } from "./service";

const forbidden = (detail: RegExp) => (error: unknown) => error instanceof AppError && error.status === 403 && detail.test(error.message);

async function member(db: Sql, workspaceId: string, name: string, role = "member"): Promise<string> {
  const id = randomUUID();
  await db.prisma.user.create({ data: { id, email: `${name}-${id.slice(0, 6)}@example.com`, name } });
  await db.prisma.membership.create({ data: { userId: id, workspaceId, role } });
  return id;
}

async function runs(db: Sql, ws: string, names: string[]): Promise<string[]> {
  const ids = names.map(() => randomUUID());
  await ingestRuns(db, ws, {
    post: ids.map((id, i) => ({
      id,
      name: names[i],
      run_type: "chain",
      session_name: "access",
      start_time: Date.UTC(2026, 10, 27, 0, 0, i),
      inputs: { q: `question ${i % 2}` },
      outputs: { a: `${names[i]} answer` },
    })),
  });
  return ids;
}

withTestDatabases("queue reviewer access and pairs", (open) => {
  test("reviewer_access_mode is stored and answered with the assigned reviewers; in 'assigned' only they draw and review", async () => {
    const db = (await open()).sql;
    const ws = (await createWorkspace(db.prisma, "access")).id;
    const [ada, bo] = [await member(db, ws, "Ada", "admin"), await member(db, ws, "Bo")];
    const ids = await runs(db, ws, ["r0", "r1"]);
    const queue = await createQueue(db, ws, { name: "experts only", reviewer_access_mode: "assigned" });
    assert.deepEqual([queue.reviewer_access_mode, queue.assigned_reviewers], ["assigned", []]);
    await addRunsToQueue(
      db,
      ws,
      queue.id,
      ids.map((run_id) => ({ run_id })),
    );
    await setQueueReviewers(db, ws, queue.id, [bo]);
    const read = await readQueue(db, ws, queue.id);
    assert.deepEqual(
      read.assigned_reviewers.map((r) => [r.id, r.name]),
      [[bo, "Bo"]],
    );
    assert.match(read.assigned_reviewers[0].email!, /^Bo-.*@example\.com$/);
    assert.deepEqual(
      (await listQueues(db, ws, { ids: [queue.id], offset: 0, limit: 10 })).map((q) => [
        q.reviewer_access_mode,
        q.assigned_reviewers.length,
      ]),
      [["assigned", 1]],
    );

    // Ada is an admin, but not assigned: nothing waits for her, and she cannot draw or mark runs.
    assert.equal((await queueOverview(db, ws, ada, queue.id)).progress.needs_my_review, 0);
    assert.equal((await queueOverview(db, ws, bo, queue.id)).progress.needs_my_review, 2);
    await assert.rejects(reviewRun(db, ws, ada, "admin", queue.id), forbidden(/only by its assigned reviewers/));
    const item = await reviewRun(db, ws, bo, "member", queue.id);
    assert.ok(item, "an assigned reviewer draws a run");
    const service = (await createApiKey(db.prisma, { workspaceId: ws, description: "nightly labeller" })).record;
    const asKey = { kind: "api_key" as const, workspaceId: ws, role: "admin" as const, apiKeyId: service.id };
    await assert.rejects(setItemStatus(db, ws, asKey, item.item_id, { status: "completed" }), forbidden(/service key/));

    // Back to "any": the admin and the service key review again.
    const any = await updateQueue(db, ws, queue.id, { reviewer_access_mode: "any" });
    assert.equal(any.reviewer_access_mode, "any");
    assert.equal((await queueOverview(db, ws, ada, queue.id)).progress.needs_my_review, 2);
    await setItemStatus(db, ws, asKey, item.item_id, { status: "completed" });
    // A service key's review is named by the key's description.
    const overview = await queueOverview(db, ws, ada, queue.id);
    assert.deepEqual(
      overview.progress.reviewers.map((r) => [r.name, r.completed]),
      [["nightly labeller (API key)", 1]],
    );
    const page = await queueItemsPage(db, ws, queue.id, { offset: 0, limit: 10 });
    assert.deepEqual(
      page.flatMap((i) => i.completed_by),
      ["nightly labeller (API key)"],
    );
  });

  test("a pairwise queue's items list both runs of each pair, on the page and in the REST run list", async () => {
    const db = (await open()).sql;
    const ws = (await createWorkspace(db.prisma, "pairs")).id;
    const [a0, a1, b0, b1] = await runs(db, ws, ["base-0", "base-1", "cand-0", "cand-1"]);
    const queue = await createQueue(db, ws, { name: "base vs cand", queue_type: "pairwise" });
    await addRunsToQueue(db, ws, queue.id, [
      { run_id: a0, paired_run_id: b0 },
      { run_id: a1, paired_run_id: b1 },
    ]);
    const page = await queueItemsPage(db, ws, queue.id, { offset: 0, limit: 10 });
    assert.deepEqual(
      page.map((i) => [i.name, i.paired?.name]),
      [
        ["base-0", "cand-0"],
        ["base-1", "cand-1"],
      ],
    );
    assert.match(page[0].output_preview ?? "", /base-0 answer/);
    assert.match(page[0].paired!.output_preview ?? "", /cand-0 answer/);
    const listed = await listQueueRuns(db, ws, queue.id, "someone", { offset: 0, limit: 10 });
    assert.deepEqual(
      listed.map((r) => [r.id, r.paired_run_id]),
      [
        [a0, b0],
        [a1, b1],
      ],
    );
  });
});
