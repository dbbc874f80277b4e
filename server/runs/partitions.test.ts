import { before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { uuid7FromTime } from "langsmith";
import { createWorkspace } from "../auth/workspaces";
import type { Sql } from "../db/client";
import { listMigrations, migrate } from "../db/migrate";
import { sql } from "../db/sql";
import { withTestDatabases } from "../db/test-databases";
import { createFeedback } from "../feedback/service";
import { ingestRuns } from "../ingest/service";
import { addRunsToQueue } from "../review/queues/items";
import { createQueue } from "../review/queues/queues";
import { compactRollups } from "./rollups/compact";
import { updateSession } from "../sessions/service";
import { addRunPartition, addRunPartitionsAhead, dropExpiredRunPartitions, runPartitionMonths } from "./partitions";

const DAY = 86_400_000;

withTestDatabases("runs partitioned by month", (open) => {
  let db: Sql;
  let ws: string;
  before(async () => {
    db = (await open()).sql;
    ws = (await createWorkspace(db.prisma, "partitions")).id;
  });

  const partitionOf = async (id: string) =>
    (await db.query<{ p: string }>(sql`SELECT tableoid::regclass::text AS p FROM runs WHERE id = ${id}`))[0]?.p;
  const projectId = async (name: string) => (await db.prisma.project.findFirstOrThrow({ where: { workspaceId: ws, name } })).id;

  /** A trace in `project` (root, and a child with an attachment) with UUIDv7 ids of `idTime`, started at `start`. */
  const trace = async (project: string, idTime: number, start = idTime, childIdTime = idTime): Promise<[string, string]> => {
    const root = uuid7FromTime(idTime);
    const child = uuid7FromTime(childIdTime);
    await ingestRuns(db, ws, {
      post: [
        { id: root, trace_id: root, name: "root", run_type: "chain", session_name: project, start_time: start, end_time: start + 10 },
        {
          ...{ id: child, trace_id: root, parent_run_id: root, name: "child", run_type: "llm", session_name: project },
          ...{ start_time: start + 1, end_time: start + 5, extra: { metadata: { ls_model_name: "m" } } },
          outputs: { usage_metadata: { input_tokens: 3, output_tokens: 4, total_tokens: 7 } },
        },
      ],
      attachments: [{ runId: child, name: "file", mimeType: "text/plain", content: Buffer.from(`file of ${root}`) }],
    });
    return [root, child];
  };

  /** What the rollups of a project say, and what its runs and feedback say when counted now. */
  const counts = async (project: string) => {
    await compactRollups(db);
    const id = await projectId(project);
    const [rolled] = await db.query<Record<string, number>>(sql`
      SELECT (SELECT coalesce(sum(runs), 0)::int FROM run_buckets WHERE project_id = ${id} AND bucket_start > '-infinity') AS runs,
             (SELECT coalesce(sum(total_tokens), 0)::int FROM run_buckets WHERE project_id = ${id} AND bucket_start > '-infinity') AS tokens,
             (SELECT coalesce(sum(trace_total_tokens), 0)::int FROM run_buckets WHERE project_id = ${id} AND bucket_start > '-infinity') AS trace_tokens,
             (SELECT coalesce(sum(n), 0)::int FROM run_sketches WHERE project_id = ${id} AND metric = 1)
               + (SELECT coalesce(sum(n), 0)::int FROM run_dim_sketches WHERE project_id = ${id} AND dim = 'none' AND span = 1 AND metric = 1) AS latencies,
             (SELECT coalesce(sum(n), 0)::int FROM feedback_buckets WHERE project_id = ${id} AND bucket_start > '-infinity') AS feedback`);
    const [counted] = await db.query<Record<string, number>>(sql`
      SELECT (SELECT count(*)::int FROM runs WHERE project_id = ${id}) AS runs,
             (SELECT coalesce(sum(total_tokens), 0)::int FROM runs WHERE project_id = ${id}) AS tokens,
             (SELECT coalesce(sum(coalesce(t.total_tokens, r.total_tokens)), 0)::int FROM runs r
                LEFT JOIN trace_totals t ON t.workspace_id = r.workspace_id AND t.trace_id = r.trace_id
                WHERE r.project_id = ${id} AND r.is_root) AS trace_tokens,
             (SELECT count(latency_ms)::int FROM runs WHERE project_id = ${id}) AS latencies,
             (SELECT count(*)::int FROM feedback f JOIN runs r ON r.id = f.run_id WHERE r.project_id = ${id}) AS feedback`);
    return { rolled, counted };
  };

  test("runs land in the partition of their id's month; OpenTelemetry spans and random ids elsewhere", async () => {
    const now = new Date();
    await addRunPartitionsAhead(db, now);
    const month = `runs_y${now.getUTCFullYear()}m${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    const [root, child] = await trace("placed", now.getTime());
    const span = "00000000-0000-0000-0123-456789abcdef";
    const random = "f0e1d2c3-b4a5-4697-8876-a5b4c3d2e1f0";
    await ingestRuns(db, ws, {
      post: [span, random].map((id) => ({
        id,
        trace_id: id,
        name: "other",
        run_type: "chain",
        session_name: "placed",
        start_time: Date.now(),
      })),
    });
    assert.deepEqual(await Promise.all([root, child, span, random].map(partitionOf)), [month, month, "runs_before", "runs_far"]);
    assert.ok((await runPartitionMonths(db)).length >= 3, "this month and the next two");
  });

  test("a month made after its runs arrived takes them from the default partition with their attachments, queue items and reviews; the rollups do not move", async () => {
    const future = Date.UTC(2031, 2, 14);
    const [root, child] = await trace("early", future, Date.now());
    const queue = await createQueue(db, ws, { name: `q-${randomUUID()}` });
    const [item] = await addRunsToQueue(db, ws, queue.id, [{ run_id: child }]);
    await db.query(
      sql`INSERT INTO annotation_queue_reviews (queue_run_id, reviewer_id, status) VALUES (${item!.id}, 'reviewer', 'completed')`,
    );
    await createFeedback(db, ws, { run_id: child, key: "ok", score: 1 });
    assert.equal(await partitionOf(root), "runs_default");
    const before = await counts("early");
    assert.deepEqual(before.rolled, before.counted);

    assert.equal(await addRunPartition(db, "2031-03-01"), true);
    assert.equal(await addRunPartition(db, "2031-03-01"), false, "made once");
    assert.deepEqual(await Promise.all([root, child].map(partitionOf)), ["runs_y2031m03", "runs_y2031m03"]);
    assert.equal(await db.prisma.attachment.count({ where: { runId: child } }), 1);
    assert.equal(await db.prisma.annotationQueueRun.count({ where: { runId: child } }), 1);
    const [reviews] = await db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM annotation_queue_reviews WHERE queue_run_id = ${item!.id}`,
    );
    assert.equal(reviews!.n, 1);
    assert.deepEqual(await counts("early"), before);
  });

  test("a past month whose runs all outlived their retention is dropped with their traces, files and queue items; the rollups lose exactly those runs; a month with a run kept stays", async () => {
    const old = Date.now() - 150 * DAY;
    const oldMonth = new Date(old).toISOString().slice(0, 8) + "01";
    const older = Date.now() - 250 * DAY;
    const olderMonth = new Date(older).toISOString().slice(0, 8) + "01";
    await addRunPartition(db, oldMonth);
    await addRunPartition(db, olderMonth);
    // Expired: a long-lived project keeping 30 days. One trace's child started a month later.
    const [gone] = await trace("expiring", old);
    const [spanning, lateChild] = await trace("expiring", old, old, Date.now());
    const queue = await createQueue(db, ws, { name: `q-${randomUUID()}` });
    await addRunsToQueue(db, ws, queue.id, [{ run_id: gone }]);
    const [kept] = await trace("expiring", Date.now());
    // The older month also holds an extended trace of a short-lived project (feedback): kept 400 days.
    const [extended, extendedChild] = await trace("extended", older);
    await createFeedback(db, ws, { run_id: extendedChild, key: "ok", score: 1 });
    await trace("extended", older + DAY);
    await updateSession(db, ws, await projectId("expiring"), { trace_tier: "longlived", long_lived_retention_days: 30 });
    await updateSession(db, ws, await projectId("extended"), { trace_tier: "shortlived" });
    const released = await db.prisma.blobKey.count({ where: { orphanedSince: { not: null } } });

    assert.deepEqual(await dropExpiredRunPartitions(db), [oldMonth]);
    assert.ok(!(await runPartitionMonths(db)).includes(oldMonth));
    assert.ok((await runPartitionMonths(db)).includes(olderMonth));
    for (const id of [gone, spanning, lateChild]) assert.equal(await partitionOf(id), undefined, `${id} dropped`);
    for (const id of [kept, extended]) assert.ok(await partitionOf(id), `${id} kept`);
    assert.equal(await db.prisma.traceTotals.count({ where: { workspaceId: ws, traceId: { in: [gone, spanning] } } }), 0);
    assert.equal(await db.prisma.annotationQueueRun.count({ where: { queueId: queue.id } }), 0);
    assert.ok((await db.prisma.blobKey.count({ where: { orphanedSince: { not: null } } })) >= released + 2, "their files are released");
    const after = await counts("expiring");
    assert.deepEqual(after.rolled, after.counted);
    assert.equal(after.counted.runs, 2);
    assert.deepEqual(await dropExpiredRunPartitions(db), [], "nothing more to drop");
  });

  test("a month left detached by a process that stopped is finished by the next pass", async () => {
    const old = Date.now() - 300 * DAY;
    const month = new Date(old).toISOString().slice(0, 8) + "01";
    await addRunPartition(db, month);
    const [root] = await trace("stopped", old);
    await trace("stopped", Date.now());
    await updateSession(db, ws, await projectId("stopped"), { trace_tier: "longlived", long_lived_retention_days: 30 });
    await db.query(sql`SELECT runs_detach_month(${month}::date)`);
    assert.equal(await partitionOf(root), undefined, "out of runs");
    assert.ok((await dropExpiredRunPartitions(db)).includes(month));
    const after = await counts("stopped");
    assert.deepEqual(after.rolled, after.counted);
    assert.equal(after.counted.runs, 2);
  });
});

withTestDatabases(
  "runs partitioned by month, from an older install",
  (open) => {
    test("the migration moves every run into its partition; attachments, queue items and rollups as before, cascades included", async () => {
      const database = await open();
      const db = database.sql;
      const dir = await mkdtemp(path.join(tmpdir(), "tracelight-migrations-"));
      try {
        const all = await listMigrations();
        const before = all.findIndex((m) => m.name.endsWith("_runs_partitions"));
        // With the function today's ingest calls (below), which works on the older table as well.
        const older = [...all.slice(0, before), ...all.filter((m) => m.name.endsWith("_ingest_cached_plans"))];
        for (const m of older) await cp(path.join("prisma/migrations", m.name), path.join(dir, m.name), { recursive: true });
        await migrate(database, dir);
        // The workspace as the older schema holds it (Prisma Client reads today's columns).
        const ws = randomUUID();
        await db.query(sql`INSERT INTO workspaces (id, name) VALUES (${ws}::uuid, 'upgrade')`);
        const ids = [
          uuid7FromTime(Date.UTC(2025, 4, 2)),
          uuid7FromTime(Date.now()),
          "00000000-0000-0000-0123-456789abcdef",
          "f0e1d2c3-b4a5-4697-8876-a5b4c3d2e1f0",
          // A UUIDv4 whose first bits read as 2038.
          "02000000-0000-4000-8000-000000000000",
        ];
        // The runs and their attachment as that install's schema holds them (today's ingest writes
        // trace totals' columns added later).
        const project = randomUUID();
        await db.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${project}, ${ws}, 'p')`);
        await db.query(sql`
          INSERT INTO runs (id, workspace_id, project_id, trace_id, dotted_order, is_root, name, run_type, status, start_time, end_time, latency_ms)
          SELECT id, ${ws}::uuid, ${project}::uuid, id, to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISSUS"Z"') || id, true, 'r', 'llm',
            'success', now(), now() + interval '5 milliseconds', 5
          FROM unnest(${ids}::uuid[]) AS id`);
        await db.query(sql`INSERT INTO attachments (id, workspace_id, run_id, name, mime_type, size, blob_key)
          VALUES (${randomUUID()}, ${ws}, ${ids[0]!}, 'file', 'text/plain', 4, 'kept')`);
        // The queue as that install's schema holds it (today's service writes columns added later).
        const queueId = randomUUID();
        await db.query(sql`INSERT INTO annotation_queues (id, workspace_id, name) VALUES (${queueId}, ${ws}, 'q')`);
        await db.query(sql`INSERT INTO annotation_queue_runs (id, queue_id, workspace_id, run_id, project_id, start_time)
          SELECT ${randomUUID()}, ${queueId}, workspace_id, id, project_id, start_time FROM runs WHERE id = ${ids[1]!}`);
        // The install's own fold (compactRollups reads the answer of a later migration's version).
        await db.query(sql`SELECT rollup_compact()`);
        const buckets = sql`SELECT sum(runs)::int AS n FROM run_buckets WHERE bucket_start > '-infinity'`;
        const [rolled] = await db.query<{ n: number }>(buckets);

        await migrate(database);
        const placed = await db.query<{ id: string; p: string }>(sql`SELECT id, tableoid::regclass::text AS p FROM runs`);
        const month = (t: Date) => `runs_y${t.getUTCFullYear()}m${String(t.getUTCMonth() + 1).padStart(2, "0")}`;
        assert.deepEqual(
          ids.map((id) => placed.find((r) => r.id === id)?.p),
          ["runs_y2025m05", month(new Date()), "runs_before", "runs_far", "runs_default"],
        );
        assert.equal(await db.prisma.attachment.count({ where: { runId: ids[0] } }), 1);
        assert.equal(await db.prisma.annotationQueueRun.count({ where: { runId: ids[1] } }), 1);
        assert.deepEqual(await db.query(buckets), [rolled]);
        // The foreign keys hold on the new table: a project's deletion still takes its runs and their rows.
        await db.prisma.project.deleteMany({ where: { workspaceId: ws } });
        assert.equal(await db.prisma.run.count({ where: { workspaceId: ws } }), 0);
        assert.equal(await db.prisma.attachment.count({ where: { workspaceId: ws } }), 0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
  { migrated: false },
);
