// The reviewer's "next run" in a 100,000-run annotation queue: reserve the next run for a reviewer
// (nextForReviewer) and complete it (finishReview), with the queue half done and the reviewer
// having already reviewed 1,000 runs that wait for a second reviewer, next to reading one whole run
// by id (the baseline, measured in the same run).
// Usage: npx tsx bench/queues.ts [draws]   (BENCH_DATABASE_URL=postgres://… for PostgreSQL)
import { createWorkspace } from "../server/auth/workspaces";
import { openDatabase, type Database } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { sql } from "../server/db/sql";
import { loadQueue, createQueue } from "../server/review/queues/queues";
import { finishReview, nextForReviewer } from "../server/review/queues/reviewing";
import { readRun } from "../server/runs/read";
import { createSession } from "../server/sessions/service";
import { scratchDatabase } from "../e2e/harness/server";
import { percentile, timed } from "./timing";

const SIZE = 100_000;
const DRAWS = Number(process.argv[2] ?? 300);
const pgUrl = process.env.BENCH_DATABASE_URL;

async function seed(db: Database, ws: string, project: string, queueId: string) {
  await db.sql.query(sql`
    INSERT INTO runs (id, workspace_id, project_id, trace_id, dotted_order, is_root, name, run_type, status, start_time, inputs, outputs)
    SELECT id, ${ws}::uuid, ${project}::uuid, id, to_char(t, 'YYYYMMDD"T"HH24MISSUS"Z"') || id, true, 'answer', 'llm', 'success', t,
      jsonb_build_object('q', n), jsonb_build_object('a', n)
    FROM (SELECT gen_random_uuid() AS id, n, timestamptz '2026-11-01' + n * interval '1 second' AS t FROM generate_series(1, ${SIZE}) n) s`);
  await db.sql.query(sql`
    INSERT INTO annotation_queue_runs (id, queue_id, workspace_id, run_id, project_id, start_time, added_at, completed_count, archived)
    SELECT gen_random_uuid(), ${queueId}::uuid, ${ws}::uuid, r.id, r.project_id, r.start_time, r.start_time,
      CASE WHEN row_number() OVER (ORDER BY r.start_time) <= ${SIZE / 2} THEN 2 ELSE 0 END,
      row_number() OVER (ORDER BY r.start_time) <= ${SIZE / 2}
    FROM runs r WHERE r.workspace_id = ${ws}`);
  // The reviewer under test already did the first 1,000 runs that are not done; they wait for a second reviewer.
  await db.sql.query(sql`
    INSERT INTO annotation_queue_reviews (queue_run_id, reviewer_id, status)
    SELECT id, 'busy-reviewer', 'completed' FROM annotation_queue_runs WHERE queue_id = ${queueId} AND NOT archived ORDER BY added_at LIMIT 1000`);
  await db.sql.query(sql`
    UPDATE annotation_queue_runs SET completed_count = 1
    WHERE id IN (SELECT queue_run_id FROM annotation_queue_reviews WHERE reviewer_id = 'busy-reviewer')`);
  await db.sql.query(sql`ANALYZE annotation_queue_runs`);
  await db.sql.query(sql`ANALYZE annotation_queue_reviews`);
}

async function main() {
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const db: Database = await openDatabase(scratch ? { url: scratch.url } : { dataDir: "memory" });
  try {
    await migrate(db);
    const ws = (await createWorkspace(db.prisma, "bench")).id;
    const project = (await createSession(db.sql, ws, { name: "queue" })).id;
    const created = await createQueue(db.sql, ws, { name: "100k", num_reviewers_per_item: 2 });
    const t0 = performance.now();
    await seed(db, ws, project, created.id);
    console.log(`seeded ${SIZE} runs and queue items in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const queue = await loadQueue(db.sql, ws, created.id);
    const runIds = (await db.sql.query<{ id: string }>(sql`SELECT id FROM runs WHERE workspace_id = ${ws} LIMIT 500`)).map((r) => r.id);

    const measure = (op: (i: number) => Promise<unknown>) => timed(DRAWS, op);
    const results: [string, number[]][] = [
      ["read one whole run by id (baseline)", await measure((i) => readRun(db.sql, ws, runIds[Math.abs(i) % runIds.length]!))],
      ["next run for a reviewer (reserve)", await measure((i) => nextForReviewer(db.sql, queue, `reviewer-${i}`))],
      [
        "next run, then complete it (one reviewer in a row)",
        await measure(async () => {
          const item = await nextForReviewer(db.sql, queue, "steady-reviewer");
          if (item) await finishReview(db.sql, queue, item, "steady-reviewer", "completed");
        }),
      ],
      ["next run for a reviewer who did 1,000 waiting runs", await measure(() => nextForReviewer(db.sql, queue, "busy-reviewer"))],
    ];
    const base = percentile(results[0]![1], 0.5);
    console.log(
      `\nAnnotation queue benchmark — ${pgUrl ? "PostgreSQL" : "embedded PGlite"}, ${SIZE} runs in the queue (half done), ${DRAWS} draws each`,
    );
    for (const [name, times] of results) {
      const p50 = percentile(times, 0.5);
      console.log(
        `${name.padEnd(56)} p50 ${p50.toFixed(2).padStart(7)} ms  p95 ${percentile(times, 0.95).toFixed(2).padStart(7)} ms  ${(p50 / base).toFixed(2)}× baseline`,
      );
    }
  } finally {
    await db.close();
    await scratch?.drop();
  }
}

void main();
