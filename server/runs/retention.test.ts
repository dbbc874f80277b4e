import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { withTestDatabases } from "../db/test-databases";
import { createExamples } from "../datasets/examples";
import { createDataset } from "../datasets/service";
import { createFeedback } from "../feedback/service";
import { ingestRuns } from "../ingest/service";
import { addRunsToQueue, removeRuns } from "../review/queues/items";
import { addRuns } from "../review/queues/service";
import { createQueue } from "../review/queues/queues";
import { updateSession } from "../sessions/service";
import { expireTraces } from "./retention";

const DAY = 86_400_000;

withTestDatabases("trace retention", (open) => {
  let db: Sql;
  let ws: string;
  before(async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "retention")).id;
  });

  /** A trace (root and one child, the child with an attachment) started `days` ago; answers [root, child]. */
  const trace = async (project: string, days: number): Promise<[string, string]> => {
    const root = randomUUID();
    const child = randomUUID();
    const start = Date.now() - days * DAY;
    await ingestRuns(db, ws, {
      post: [
        { id: root, trace_id: root, name: "root", run_type: "chain", session_name: project, start_time: start, end_time: start + 10 },
        {
          id: child,
          trace_id: root,
          parent_run_id: root,
          name: "child",
          run_type: "llm",
          session_name: project,
          start_time: start + 1,
          end_time: start + 5,
        },
      ],
      attachments: [{ runId: child, name: "file", mimeType: "text/plain", content: Buffer.from(`file of ${root}`) }],
    });
    return [root, child];
  };
  const projectId = async (name: string) => (await db.prisma.project.findFirstOrThrow({ where: { workspaceId: ws, name } })).id;
  const exists = async (id: string) => (await db.prisma.run.count({ where: { id } })) === 1;

  test("a short-lived project keeps 14 days, extended traces (feedback, examples, queues, extend_trace_retention) 400; a long-lived one its own days; no tier keeps all", async () => {
    const [recent] = await trace("short", 3);
    const [old, oldChild] = await trace("short", 20);
    const [scored, scoredChild] = await trace("short", 20);
    const [example, exampleChild] = await trace("short", 20);
    const [queued, queuedChild] = await trace("short", 20);
    const [ancient, ancientChild] = await trace("short", 500);
    await createFeedback(db, ws, { run_id: scoredChild, key: "ok", score: 1 });
    await createFeedback(db, ws, { run_id: ancientChild, key: "ok", score: 1 });
    const dataset = await createDataset(db, ws, { name: `from-runs-${randomUUID()}` });
    await createExamples(db, ws, dataset.id, [{ inputs: { q: 1 }, source_run_id: exampleChild }]);
    const queue = await createQueue(db, ws, { name: `review-${randomUUID()}` });
    await addRunsToQueue(db, ws, queue.id, [{ run_id: queuedChild }]);
    // Upgraded by the client (extend_trace_retention): kept after it leaves the queue.
    const [upgraded, upgradedChild] = await trace("short", 20);
    await addRuns(db, ws, queue.id, [{ run_id: upgradedChild }], { extendTraceRetention: true });
    await removeRuns(db, queue.id, { run_ids: [upgradedChild] });
    const [longKept] = await trace("long", 20);
    const [longGone] = await trace("long", 40);
    const [untiered] = await trace("kept", 1000);

    await updateSession(db, ws, await projectId("short"), { trace_tier: "shortlived" });
    const long = await updateSession(db, ws, await projectId("long"), { trace_tier: "longlived", long_lived_retention_days: 30 });
    assert.deepEqual([long.trace_tier, long.long_lived_retention_days], ["longlived", 30]);

    assert.equal(await expireTraces(db), 3);
    for (const id of [old, oldChild, ancient, ancientChild, longGone]) assert.equal(await exists(id), false, `${id} expired`);
    for (const id of [recent, scored, example, queued, upgraded, longKept, untiered]) assert.equal(await exists(id), true, `${id} kept`);
    assert.equal(await db.prisma.traceTotals.count({ where: { workspaceId: ws, traceId: { in: [old, ancient, longGone] } } }), 0);
    const released = await db.prisma.blobKey.count({ where: { orphanedSince: { not: null } } });
    assert.ok(released >= 3, "the expired traces' files are released to the blob sweep");
    assert.equal(await expireTraces(db), 0, "nothing more to do");
  });
});
