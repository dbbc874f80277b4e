import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { AppError } from "../core/errors";
import { withTestDatabases } from "../db/test-databases";
import { storeProject, storeRun } from "../feedback/test-runs";
import { startJobs, stopJobs } from "../jobs/queue";
import { createQueue } from "../review/queues/queues";
import { triggerRule } from "./evaluate";
import { ruleCreate, ruleUpdate } from "./schema";
import { createRule, ruleLogs, updateRule } from "./service";

async function until(what: string, done: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const refusal = (error: unknown) =>
  error instanceof AppError &&
  error.status === 400 &&
  /pairwise queue: it takes pairs of runs.*not the single runs a rule adds/.test(error.message);

withTestDatabases("a rule adding runs to a pairwise queue", (open) => {
  let db: Sql;
  let ws: string;
  let project: string;
  test("setup", async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "pairwise rules")).id;
    project = await storeProject(db, ws);
    await startJobs(db, 1);
  });

  test("is refused at create and at update with a 400 naming the queue; an older such rule skips with its reason logged", async () => {
    const pairwise = await createQueue(db, ws, { name: "A vs B", queue_type: "pairwise" });
    const single = await createQueue(db, ws, { name: "singles" });
    const rule = (queueId: string) =>
      createRule(db, ws, ruleCreate.parse({ display_name: "to queue", session_id: project, add_to_annotation_queue_id: queueId }));
    await assert.rejects(rule(pairwise.id), (e: unknown) => refusal(e) && /"A vs B"/.test((e as Error).message));
    const ok = await rule(single.id);
    await assert.rejects(updateRule(db, ws, ok.id, ruleUpdate.parse({ add_to_annotation_queue_id: pairwise.id })), refusal);

    // A rule made before the refusal existed: its queue is pairwise (changed under it here).
    await db.prisma.annotationQueue.update({ where: { id: single.id }, data: { queueType: "pairwise" } });
    const runId = await storeRun(db, ws, project);
    assert.deepEqual((await triggerRule(db, ws, ok.id)).actions, { queued: 1 });
    await until("the log line", async () => (await ruleLogs(db, ws, ok.id, { offset: 0, limit: 10 })).length > 0);
    await new Promise((r) => setTimeout(r, 300));
    const logs = await ruleLogs(db, ws, ok.id, { offset: 0, limit: 10 });
    assert.deepEqual(
      logs.map((l) => [l.run_id, l.action, l.outcome, l.attempts]),
      [[runId, "add_to_annotation_queue", "skipped", 1]],
      "one line, skipped, not retried",
    );
    assert.match(logs[0].detail ?? "", /"singles" is a pairwise queue: it takes pairs of runs .* this run was not added/);
    assert.equal(await db.prisma.annotationQueueRun.count({ where: { queueId: single.id } }), 0);
  });

  test("teardown", async () => {
    await stopJobs();
  });
});
