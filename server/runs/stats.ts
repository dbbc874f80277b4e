import { z } from "zod";
import type { Sql } from "../db/client";
import { raw, sql, type SqlFragment } from "../db/sql";
import { isoFromDb } from "../core/time";
import { runConditions } from "./conditions";
import type { RunSelection } from "./selection";
import { rollupStats, statsSource } from "./rollups/stats";

/** One feedback key's scores over a run set. */
export const wireFeedbackKeyStats = z.object({
  n: z.number(),
  avg: z.number().nullable(),
  stdev: z.number().nullable(),
  values: z.record(z.string(), z.number()),
});
export type FeedbackKeyStats = z.infer<typeof wireFeedbackKeyStats>;

/** POST /runs/stats as the SDKs read it (latencies in seconds, costs in dollars). */
export const wireRunStats = z.object({
  run_count: z.number(),
  error_rate: z.number().nullable(),
  latency_p50: z.number().nullable(),
  latency_p99: z.number().nullable(),
  first_token_p50: z.number().nullable(),
  first_token_p99: z.number().nullable(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  median_tokens: z.number().nullable(),
  tokens_p99: z.number().nullable(),
  prompt_cost: z.number().nullable(),
  completion_cost: z.number().nullable(),
  total_cost: z.number().nullable(),
  cost_p50: z.number().nullable(),
  cost_p99: z.number().nullable(),
  streaming_rate: z.number().nullable(),
  last_run_start_time: z.string().nullable(),
  feedback_stats: z.record(z.string(), wireFeedbackKeyStats),
  run_facets: z.array(z.unknown()),
});
export type RunStats = z.infer<typeof wireRunStats>;

/**
 * The aggregate columns of a run set aliased `r`, its tokens and costs read from alias `tk` (the
 * run itself, or its trace's roll-up for root runs). Latencies are in seconds as LangSmith reports
 * them; the streaming rate is the share of LLM runs that reported a first token.
 */
const statsColumns = (tk: string) => sql`
  count(*)::int AS run_count,
  avg((r.error IS NOT NULL)::int)::float8 AS error_rate,
  (percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_ms) / 1000)::float8 AS latency_p50,
  (percentile_cont(0.99) WITHIN GROUP (ORDER BY r.latency_ms) / 1000)::float8 AS latency_p99,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (r.first_token_time - r.start_time)))::float8 AS first_token_p50,
  percentile_cont(0.99) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (r.first_token_time - r.start_time)))::float8 AS first_token_p99,
  coalesce(sum(${raw(tk)}.prompt_tokens), 0)::float8 AS prompt_tokens,
  coalesce(sum(${raw(tk)}.completion_tokens), 0)::float8 AS completion_tokens,
  coalesce(sum(${raw(tk)}.total_tokens), 0)::float8 AS total_tokens,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY ${raw(tk)}.total_tokens)::float8 AS median_tokens,
  percentile_cont(0.99) WITHIN GROUP (ORDER BY ${raw(tk)}.total_tokens)::float8 AS tokens_p99,
  sum(${raw(tk)}.prompt_cost)::float8 AS prompt_cost,
  sum(${raw(tk)}.completion_cost)::float8 AS completion_cost,
  sum(${raw(tk)}.total_cost)::float8 AS total_cost,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY ${raw(tk)}.total_cost)::float8 AS cost_p50,
  percentile_cont(0.99) WITHIN GROUP (ORDER BY ${raw(tk)}.total_cost)::float8 AS cost_p99,
  (avg((r.first_token_time IS NOT NULL)::int) FILTER (WHERE r.run_type = 'llm'))::float8 AS streaming_rate,
  max(r.start_time) AS last_run_start_time`;

const STATS_COLUMNS = statsColumns("r");

/** Root runs count their whole trace's tokens and costs, as their wire answers do. */
const ROOT_STATS_FROM = sql`runs r LEFT JOIN trace_totals tt ON tt.workspace_id = r.workspace_id AND tt.trace_id = r.trace_id
  CROSS JOIN LATERAL (SELECT coalesce(tt.prompt_tokens, r.prompt_tokens) AS prompt_tokens,
    coalesce(tt.completion_tokens, r.completion_tokens) AS completion_tokens, coalesce(tt.total_tokens, r.total_tokens) AS total_tokens,
    coalesce(tt.prompt_cost, r.prompt_cost) AS prompt_cost, coalesce(tt.completion_cost, r.completion_cost) AS completion_cost,
    coalesce(tt.total_cost, r.total_cost) AS total_cost) tk`;

/** Feedback statistics per key over the runs `runIds` selects (a subquery of run ids). */
export async function feedbackStatsOver(db: Sql, workspaceId: string, runIds: SqlFragment): Promise<Record<string, FeedbackKeyStats>> {
  const [scores, values] = await Promise.all([
    db.query<{ key: string; n: number; avg: number | null; stdev: number | null }>(sql`
      SELECT f.key, count(*)::int AS n, avg(f.score)::float8 AS avg, stddev_pop(f.score)::float8 AS stdev
      FROM feedback f WHERE f.workspace_id = ${workspaceId} AND f.run_id IN (${runIds}) GROUP BY f.key`),
    // String values counted as the rollups count them (rollup_feedback_value: longer ones are free text).
    db.query<{ key: string; value: string; n: number }>(sql`
      SELECT f.key, rollup_feedback_value(f.value) AS value, count(*)::int AS n
      FROM feedback f WHERE f.workspace_id = ${workspaceId} AND f.run_id IN (${runIds}) AND rollup_feedback_value(f.value) IS NOT NULL
      GROUP BY 1, 2`),
  ]);
  const out: Record<string, FeedbackKeyStats> = {};
  for (const row of scores) out[row.key] = { n: row.n, avg: row.avg, stdev: row.stdev, values: {} };
  for (const row of values) if (out[row.key]) out[row.key].values[row.value] = row.n;
  return out;
}

/** An aggregate row (STATS_COLUMNS) as the wire shape, with its feedback statistics. */
export function statsFromRow(row: Record<string, unknown>, feedback: Record<string, FeedbackKeyStats>): RunStats {
  const n = (key: string) => (row[key] === null || row[key] === undefined ? null : Number(row[key]));
  return {
    run_count: n("run_count") ?? 0,
    error_rate: n("error_rate"),
    latency_p50: n("latency_p50"),
    latency_p99: n("latency_p99"),
    first_token_p50: n("first_token_p50"),
    first_token_p99: n("first_token_p99"),
    prompt_tokens: n("prompt_tokens") ?? 0,
    completion_tokens: n("completion_tokens") ?? 0,
    total_tokens: n("total_tokens") ?? 0,
    median_tokens: n("median_tokens"),
    tokens_p99: n("tokens_p99"),
    prompt_cost: n("prompt_cost"),
    completion_cost: n("completion_cost"),
    total_cost: n("total_cost"),
    cost_p50: n("cost_p50"),
    cost_p99: n("cost_p99"),
    streaming_rate: n("streaming_rate"),
    last_run_start_time: isoFromDb(row.last_run_start_time),
    feedback_stats: feedback,
    run_facets: [],
  };
}

/**
 * Aggregates over the runs a selection matches (POST /runs/stats, the runs table's header), read from the rollups
 * when they can answer the selection (rollups/scope.ts), else by the scan.
 */
export async function runStats(db: Sql, workspaceId: string, selection: RunSelection): Promise<RunStats> {
  const source = statsSource(workspaceId, selection);
  if (!source) return runStatsScan(db, workspaceId, selection);
  return (await rollupStats(db, source)).get(null) ?? statsFromRow({}, {});
}

/** runStats by a scan of the runs: any selection, cost proportional to the runs it matches. */
export async function runStatsScan(db: Sql, workspaceId: string, selection: RunSelection): Promise<RunStats> {
  const where = runConditions(workspaceId, selection, "r");
  const [[row], feedback] = await Promise.all([
    selection.isRoot === true
      ? db.query(sql`SELECT ${statsColumns("tk")} FROM ${ROOT_STATS_FROM} WHERE ${where}`)
      : db.query(sql`SELECT ${STATS_COLUMNS} FROM runs r WHERE ${where}`),
    feedbackStatsOver(db, workspaceId, sql`SELECT r.id FROM runs r WHERE ${where}`),
  ]);
  return statsFromRow(row, feedback);
}
