import { z } from "zod";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { fromStorage } from "../db/storable";

/** One key's feedback on a run: the count, mean and population deviation of scores, and string values. */
export const wireKeyStats = z.object({
  n: z.number(),
  avg: z.number().nullable(),
  stdev: z.number().optional(),
  /** How often each categorical (string) value was given. */
  values: z.record(z.string(), z.number()),
});
export type KeyStats = z.infer<typeof wireKeyStats>;
export type FeedbackStats = Record<string, KeyStats>;

/**
 * Per-run `feedback_stats` as the runs API returns it: per key, the count, the mean and the
 * population standard deviation of the scores, and the counts of string values.
 */
export async function feedbackStats(db: Sql, workspaceId: string, runIds: string[]): Promise<Map<string, FeedbackStats>> {
  const out = new Map<string, FeedbackStats>();
  if (runIds.length === 0) return out;
  const [scores, values] = await Promise.all([
    db.query<{ run_id: string; key: string; n: number; avg: number | null; stdev: number | null }>(sql`
      SELECT run_id, key, count(*)::int AS n, avg(score)::float8 AS avg, stddev_pop(score)::float8 AS stdev
      FROM feedback WHERE workspace_id = ${workspaceId} AND run_id = ANY(${runIds}::uuid[])
      GROUP BY run_id, key`),
    db.query<{ run_id: string; key: string; value: string; n: number }>(sql`
      SELECT run_id, key, value #>> '{}' AS value, count(*)::int AS n
      FROM feedback WHERE workspace_id = ${workspaceId} AND run_id = ANY(${runIds}::uuid[]) AND jsonb_typeof(value) = 'string'
      GROUP BY run_id, key, value #>> '{}'`),
  ]);
  for (const row of scores) {
    const stats: KeyStats = { n: row.n, avg: row.avg === null ? null : Number(row.avg), values: {} };
    if (row.stdev !== null) stats.stdev = Number(row.stdev);
    const perRun = out.get(row.run_id) ?? {};
    perRun[row.key] = stats;
    out.set(row.run_id, perRun);
  }
  for (const row of values) {
    const stats = out.get(row.run_id)?.[row.key];
    if (stats) stats.values[row.value] = row.n;
  }
  return out;
}

/** The mean score per run and key of these runs (numbers only: what comparisons rank by). */
export async function scoresOfRuns(db: Sql, workspaceId: string, runIds: string[]): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  if (runIds.length === 0) return out;
  const rows = await db.query<{ run_id: string; key: string; avg: number }>(sql`
    SELECT run_id, key, avg(score)::float8 AS avg FROM feedback
    WHERE workspace_id = ${workspaceId} AND run_id = ANY(${runIds}::uuid[]) AND score IS NOT NULL
    GROUP BY run_id, key`);
  for (const row of rows) out.set(row.run_id, { ...out.get(row.run_id), [row.key]: row.avg });
  return out;
}

/** A key's feedback on one trace: how many, and the mean score when scored. */
export interface TraceKeyFeedback {
  n: number;
  avg: number | null;
  /** The value most given when the feedback is categorical (no score). */
  value: string | null;
}

/**
 * Per trace and key, the feedback on these traces (a thread's turns). Set-based: the most given
 * value is `mode()`, an ordered-set aggregate Prisma's groupBy has no word for, and one statement
 * over the feedback's trace index answers all the turns at once.
 */
export async function feedbackOfTraces(
  db: Sql,
  workspaceId: string,
  traceIds: string[],
): Promise<Map<string, Record<string, TraceKeyFeedback>>> {
  const out = new Map<string, Record<string, TraceKeyFeedback>>();
  if (traceIds.length === 0) return out;
  const rows = await db.query<{ trace_id: string; key: string; n: number; avg: number | null; value: string | null }>(sql`
    SELECT f.trace_id, f.key, count(*)::int AS n, avg(f.score)::float8 AS avg, mode() WITHIN GROUP (ORDER BY f.value #>> '{}') AS value
    FROM feedback f WHERE f.workspace_id = ${workspaceId} AND f.trace_id = ANY(${traceIds}::uuid[])
    GROUP BY f.trace_id, f.key`);
  for (const f of rows.map(fromStorage)) out.set(f.trace_id, { ...out.get(f.trace_id), [f.key]: { n: f.n, avg: f.avg, value: f.value } });
  return out;
}
