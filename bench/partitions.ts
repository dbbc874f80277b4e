// Expiry of a month of runs: the partition dropped (`runs_drop_month`, what the retention task does
// when a whole month has outlived its retention) against the per-trace deletes of `expireTraces`
// (the baseline, same run, same number of runs in another month): time and, on PostgreSQL, the
// write-ahead log each writes. Then what the partitions cost reads: the newest root runs of the
// project and runs by id, on `runs` against an unpartitioned copy of the same rows.
// Usage: npx tsx bench/partitions.ts [runs per month]   (BENCH_DATABASE_URL=postgres://… for PostgreSQL)
import { randomUUID } from "node:crypto";
import { openDatabase } from "../server/db/client";
import { migrate } from "../server/db/migrate";
import { sql } from "../server/db/sql";
import { compactRollups } from "../server/runs/rollups/compact";
import { addRunPartition, dropExpiredRunPartitions } from "../server/runs/partitions";
import { expireTraces } from "../server/runs/retention";
import { scratchDatabase } from "../e2e/harness/server";
import { percentile, timed } from "./timing";

const pgUrl = process.env.BENCH_DATABASE_URL;
const PER_MONTH = Number(process.argv[2] ?? (pgUrl ? 500_000 : 100_000));
const REPS = Number(process.env.BENCH_REPS ?? 200);
const DAY = 86_400_000;

/** `YYYY-MM-01` of the month `back` months before this one. */
const monthBack = (back: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 10);
};

async function main(): Promise<void> {
  const scratch = pgUrl ? await scratchDatabase(pgUrl) : null;
  const db = await openDatabase(scratch ? { url: scratch.url } : { dataDir: "memory" });
  const q = db.sql;
  const wal = async () => (pgUrl ? (await q.query<{ lsn: string }>(sql`SELECT pg_current_wal_lsn()::text AS lsn`))[0]!.lsn : null);
  const walSince = async (lsn: string | null) =>
    lsn
      ? (await q.query<{ mb: number }>(sql`SELECT (pg_wal_lsn_diff(pg_current_wal_lsn(), ${lsn}::pg_lsn) / 1048576.0)::float8 AS mb`))[0]!
          .mb
      : NaN;
  try {
    await migrate(db);
    const ws = randomUUID();
    const project = randomUUID();
    await q.query(sql`INSERT INTO workspaces (id, name) VALUES (${ws}, 'bench')`);
    await q.query(sql`INSERT INTO projects (id, workspace_id, name) VALUES (${project}, ${ws}, 'partitions-bench')`);
    // Two months with a month between them: the per-trace deletes expire the older, the drop the newer.
    const [older, newer] = [monthBack(5), monthBack(3)];
    for (const month of [older, newer]) await addRunPartition(db.sql, month);
    console.log(
      `Seeding ${PER_MONTH.toLocaleString()} runs (5 per trace) in ${older} and in ${newer} (${pgUrl ? "PostgreSQL" : "embedded PGlite"})…`,
    );
    for (const month of [older, newer]) {
      for (let from = 0; from < PER_MONTH; from += 100_000) {
        const to = Math.min(PER_MONTH, from + 100_000);
        // UUIDv7 ids of each run's start time, as the SDKs make them.
        await q.query(sql`
          INSERT INTO runs (id, workspace_id, project_id, trace_id, parent_run_id, dotted_order, is_root, name, run_type, status,
            start_time, end_time, latency_ms, inputs, outputs, total_tokens, model)
          SELECT id, ${ws}::uuid, ${project}::uuid, first_value(id) OVER (PARTITION BY t ORDER BY pos), NULL, 'x' || i, pos = 0,
            'step', CASE WHEN pos = 0 THEN 'chain' ELSE 'llm' END, 'success', st, st + interval '1 second', 1000,
            jsonb_build_object('q', 'question ' || t), jsonb_build_object('a', 'answer ' || t), 100 + pos, 'gpt-4o'
          FROM (
            SELECT i, i / 5 AS t, i % 5 AS pos, st, (substr(run_id_floor(st)::text, 1, 14) || '7' || substr(h, 1, 3) || '-8'
              || substr(h, 4, 3) || '-' || substr(h, 7, 12))::uuid AS id
            FROM (SELECT i, md5(${month} || i) AS h, (${month}::date::timestamp AT TIME ZONE 'UTC') + ((i / 5) * (27.0 * 86400 / ${PER_MONTH / 5})) * interval '1 second'
              + (i % 5) * interval '1 millisecond' AS st FROM generate_series(${from}::int, ${to - 1}::int) i) g
          ) s`);
      }
    }
    await compactRollups(db.sql);
    await db.execScript("ANALYZE runs");

    // The baseline: the retention task's per-trace deletes, 500 traces a transaction (the older month only).
    const keepDays = Math.ceil((Date.now() - Date.parse(monthBack(4))) / DAY);
    await q.query(sql`UPDATE projects SET trace_tier = 'longlived', long_lived_retention_days = ${keepDays} WHERE id = ${project}`);
    let lsn = await wal();
    let t0 = performance.now();
    const traces = await expireTraces(db.sql);
    const deleteMs = performance.now() - t0;
    const deleteWal = await walSince(lsn);

    // The partition: every run of the newer month has outlived a retention of a day.
    await q.query(sql`UPDATE projects SET long_lived_retention_days = 1 WHERE id = ${project}`);
    lsn = await wal();
    t0 = performance.now();
    const dropped = await dropExpiredRunPartitions(db.sql);
    const dropMs = performance.now() - t0;
    const dropWal = await walSince(lsn);
    console.log(
      `\nExpiring a month of ${PER_MONTH.toLocaleString()} runs (${traces.toLocaleString()} traces); dropped: ${dropped.join(", ")}`,
    );
    console.log(`${"".padEnd(34)} ${"seconds".padStart(8)} ${"WAL MB".padStart(8)}`);
    console.log(
      `${"per-trace deletes (baseline)".padEnd(34)} ${(deleteMs / 1000).toFixed(2).padStart(8)} ${deleteWal.toFixed(1).padStart(8)}`,
    );
    console.log(`${"partition dropped".padEnd(34)} ${(dropMs / 1000).toFixed(2).padStart(8)} ${dropWal.toFixed(1).padStart(8)}`);
    console.log(`ratio: ${(dropMs / deleteMs).toFixed(3)}× the time${pgUrl ? `, ${(dropWal / deleteWal).toFixed(3)}× the WAL` : ""}`);

    // Reads: the same rows in runs and in an unpartitioned copy with the same two indexes.
    const month = monthBack(1);
    await addRunPartition(db.sql, month);
    await q.query(sql`UPDATE projects SET trace_tier = NULL WHERE id = ${project}`);
    await q.query(sql`
      INSERT INTO runs (id, workspace_id, project_id, trace_id, dotted_order, is_root, name, run_type, status, start_time)
      SELECT id, ${ws}::uuid, ${project}::uuid, id, 'x', true, 'root', 'chain', 'success', st
      FROM (SELECT (substr(run_id_floor(st)::text, 1, 14) || '7' || substr(h, 1, 3) || '-8' || substr(h, 4, 3) || '-' || substr(h, 7, 12))::uuid AS id, st
            FROM (SELECT md5('r' || i) AS h, now() - i * interval '1 minute' AS st FROM generate_series(1, ${PER_MONTH / 5}::int) i) g) s`);
    await db.execScript(`CREATE TABLE runs_flat AS SELECT * FROM runs;
      ALTER TABLE runs_flat ADD PRIMARY KEY (id);
      CREATE INDEX ON runs_flat (workspace_id, project_id, start_time DESC, id) WHERE is_root;
      ANALYZE runs; ANALYZE runs_flat;`);
    const ids = (await q.query<{ id: string }>(sql`SELECT id FROM runs ORDER BY md5(id::text) LIMIT 1000`)).map((r) => r.id);
    console.log(
      `\nReads over ${(await q.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM runs`))[0]!.n.toLocaleString()} runs, ${REPS} each`,
    );
    console.log(`${"".padEnd(34)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)}   ${"flat p50".padStart(8)}  ratio`);
    for (const [name, read] of [
      [
        "newest 100 roots of the project",
        (table: string) =>
          q.text(`SELECT id FROM ${table} WHERE workspace_id = $1 AND project_id = $2 AND is_root ORDER BY start_time DESC, id LIMIT 100`, [
            ws,
            project,
          ]),
      ],
      ["a run by id", (table: string, i: number) => q.text(`SELECT * FROM ${table} WHERE id = $1`, [ids[Math.abs(i) % ids.length]])],
    ] as const) {
      const partitioned = await timed(REPS, (i) => read("runs", i));
      const flat = await timed(REPS, (i) => read("runs_flat", i));
      const p50 = percentile(partitioned, 0.5);
      console.log(
        `${name.padEnd(34)} ${p50.toFixed(2).padStart(8)} ${percentile(partitioned, 0.95).toFixed(2).padStart(8)}   ${percentile(flat, 0.5).toFixed(2).padStart(8)}  ${(p50 / percentile(flat, 0.5)).toFixed(2)}×`,
      );
    }
  } finally {
    await db.close();
    await scratch?.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
