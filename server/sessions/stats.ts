import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { statsFromRow, type FeedbackKeyStats } from "../runs/stats";
import type { ProjectStats } from "./schema";
import { rollupStats, statsSource } from "../runs/rollups/stats";

/**
 * Statistics of each project, as the projects list shows them: run count, latency and error
 * rate over traces (root runs); tokens, costs and first-token times over every run.
 */
export async function projectStats(db: Sql, workspaceId: string, projectIds: string[]): Promise<Map<string, ProjectStats>> {
  const out = new Map<string, ProjectStats>();
  if (projectIds.length === 0) return out;
  // Whole projects: the rollups' all-time buckets always answer.
  const [traces, all, feedback] = await Promise.all([
    rollupStats(db, statsSource(workspaceId, { projectIds, isRoot: true }, true)!),
    rollupStats(db, statsSource(workspaceId, { projectIds }, true)!),
    db.query<{ project_id: string; key: string; n: number; avg: number | null; stdev: number | null }>(sql`
      SELECT f.project_id, f.key, count(*)::int AS n, avg(f.score)::float8 AS avg, stddev_pop(f.score)::float8 AS stdev
      FROM feedback f WHERE f.workspace_id = ${workspaceId} AND f.project_id = ANY(${projectIds}::uuid[]) GROUP BY f.project_id, f.key`),
  ]);
  const feedbackBy = new Map<string, Record<string, FeedbackKeyStats>>();
  for (const row of feedback) {
    const stats = feedbackBy.get(row.project_id) ?? {};
    stats[row.key] = { n: row.n, avg: row.avg, stdev: row.stdev, values: {} };
    feedbackBy.set(row.project_id, stats);
  }
  for (const id of projectIds) {
    const every = all.get(id) ?? statsFromRow({}, {});
    const roots = traces.get(id) ?? statsFromRow({}, {});
    out.set(id, {
      run_count: roots.run_count,
      error_rate: roots.error_rate,
      latency_p50: roots.latency_p50,
      latency_p99: roots.latency_p99,
      first_token_p50: every.first_token_p50,
      first_token_p99: every.first_token_p99,
      prompt_tokens: every.prompt_tokens,
      completion_tokens: every.completion_tokens,
      total_tokens: every.total_tokens,
      prompt_cost: every.prompt_cost,
      completion_cost: every.completion_cost,
      total_cost: every.total_cost,
      streaming_rate: every.streaming_rate,
      last_run_start_time: every.last_run_start_time,
      feedback_stats: feedbackBy.get(id) ?? {},
      run_facets: [],
    });
  }
  return out;
}
