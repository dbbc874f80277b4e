import { z } from "zod";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { isoFromDb } from "../core/time";
import { runConditions } from "./conditions";
import type { ThreadQuery } from "./selection";
import { fromStorage } from "../db/storable";
import { PREVIEW_CHARS } from "./preview";
import type { FeedbackKeyStats } from "./stats";

/** A conversation as `POST /runs/group` answers it (`filter` selects its runs in the filter language). */
export const wireThread = z.object({
  thread_id: z.string(),
  filter: z.string(),
  count: z.number(),
  total_tokens: z.number(),
  total_cost: z.number().nullable(),
  min_start_time: z.string().nullable(),
  max_start_time: z.string().nullable(),
  latency_p50: z.number().nullable(),
  latency_p99: z.number().nullable(),
  feedback_stats: z.record(z.string(), z.custom<FeedbackKeyStats>()).nullable(),
  first_inputs: z.string(),
  last_outputs: z.string(),
  last_error: z.string().nullable(),
});
export type Thread = z.infer<typeof wireThread>;

/** A page of a project's conversations (POST /runs/group, the Threads tab). */
export const threadPage = z.object({ groups: z.array(wireThread), total: z.number() });

/** A thread in the v2 shape (`client.threads.query`): without its filter, with `start_time`. */
export const wireThreadV2 = wireThread.omit({ filter: true }).extend({ start_time: z.string().nullable() });

/**
 * A project's conversations (POST /runs/group, the Threads tab). A thread is every trace with a run whose metadata
 * named it (thread_id, session_id or conversation_id, resolved at ingest); `count` is its traces,
 * tokens and cost cover all their runs, latency and first/last messages come from the roots.
 */
export async function groupThreads(db: Sql, workspaceId: string, query: ThreadQuery): Promise<z.infer<typeof threadPage>> {
  const where = runConditions(
    workspaceId,
    { projectIds: [query.projectId], filter: query.filter, startTime: query.startTime, endTime: query.endTime },
    "r",
  );
  const limit = query.limit ?? 100;
  const offset = query.offset ?? 0;
  const page = await db.query<{ thread_id: string; count: number; min_start_time: string; max_start_time: string; total: number }>(sql`
    SELECT t.*, count(*) OVER ()::int AS total FROM (
      SELECT r.thread_id, count(DISTINCT r.trace_id)::int AS count, min(r.start_time) AS min_start_time, max(r.start_time) AS max_start_time
      FROM runs r WHERE ${where} AND r.thread_id IS NOT NULL GROUP BY r.thread_id) t
    ORDER BY t.max_start_time DESC, t.thread_id LIMIT ${limit} OFFSET ${offset}`);
  if (page.length === 0) {
    const [{ total }] = await db.query<{ total: number }>(sql`SELECT count(DISTINCT r.thread_id)::int AS total FROM runs r WHERE ${where}`);
    return { groups: [], total };
  }
  const ids = page.map((p) => p.thread_id);
  const traces = sql`SELECT DISTINCT r.thread_id, r.trace_id FROM runs r WHERE ${where} AND r.thread_id = ANY(${ids}::text[])`;
  const [totals, roots, feedback] = await Promise.all([
    db.query<{ thread_id: string; total_tokens: number; total_cost: number | null }>(sql`
      SELECT tr.thread_id, coalesce(sum(x.total_tokens), 0)::float8 AS total_tokens, sum(x.total_cost)::float8 AS total_cost
      FROM (${traces}) tr JOIN runs x ON x.workspace_id = ${workspaceId} AND x.trace_id = tr.trace_id GROUP BY tr.thread_id`),
    db.query<{
      thread_id: string;
      latency_p50: number | null;
      latency_p99: number | null;
      first_inputs: string | null;
      last_outputs: string | null;
      last_error: string | null;
    }>(sql`
      SELECT tr.thread_id,
        (percentile_cont(0.5) WITHIN GROUP (ORDER BY x.latency_ms) / 1000)::float8 AS latency_p50,
        (percentile_cont(0.99) WITHIN GROUP (ORDER BY x.latency_ms) / 1000)::float8 AS latency_p99,
        (array_agg(coalesce(x.input_preview, left(x.inputs::text, ${PREVIEW_CHARS})) ORDER BY x.start_time ASC))[1] AS first_inputs,
        (array_agg(coalesce(x.output_preview, left(x.outputs::text, ${PREVIEW_CHARS})) ORDER BY x.start_time DESC))[1] AS last_outputs,
        (array_agg(x.error ORDER BY x.start_time DESC))[1] AS last_error
      FROM (${traces}) tr JOIN runs x ON x.workspace_id = ${workspaceId} AND x.trace_id = tr.trace_id AND x.is_root
      GROUP BY tr.thread_id`),
    // The turns' feedback and the feedback on the whole thread (no run; its project and thread id).
    db.query<{ thread_id: string; key: string; n: number; avg: number | null; stdev: number | null; on_thread: boolean }>(sql`
      SELECT x.thread_id, x.key, count(*)::int AS n, avg(x.score)::float8 AS avg, stddev_pop(x.score)::float8 AS stdev,
        bool_or(x.on_thread) AS on_thread
      FROM (
        SELECT tr.thread_id, f.key, f.score, false AS on_thread
        FROM (${traces}) tr JOIN feedback f ON f.workspace_id = ${workspaceId} AND f.trace_id = tr.trace_id
        UNION ALL
        SELECT f.thread_id, f.key, f.score, true FROM feedback f
        WHERE f.workspace_id = ${workspaceId} AND f.project_id = ${query.projectId}::uuid AND f.thread_id = ANY(${ids}::text[])
      ) x
      GROUP BY x.thread_id, x.key`),
  ]);
  const byThread = <T extends { thread_id: string }>(rows: T[]) => new Map(rows.map((r) => [r.thread_id, r]));
  const totalsBy = byThread(totals);
  const rootsBy = byThread(roots.map(fromStorage));
  const feedbackBy = new Map<string, Record<string, FeedbackKeyStats>>();
  for (const row of feedback) {
    const stats = feedbackBy.get(row.thread_id) ?? {};
    stats[row.key] = { n: row.n, avg: row.avg, stdev: row.stdev, values: {}, ...(row.on_thread ? { contains_thread_feedback: true } : {}) };
    feedbackBy.set(row.thread_id, stats);
  }
  const groups = page.map((p): Thread => {
    const root = rootsBy.get(p.thread_id);
    return {
      thread_id: p.thread_id,
      filter: `eq(thread_id, ${JSON.stringify(p.thread_id)})`,
      count: p.count,
      total_tokens: totalsBy.get(p.thread_id)?.total_tokens ?? 0,
      total_cost: totalsBy.get(p.thread_id)?.total_cost ?? null,
      min_start_time: isoFromDb(p.min_start_time),
      max_start_time: isoFromDb(p.max_start_time),
      latency_p50: root?.latency_p50 ?? null,
      latency_p99: root?.latency_p99 ?? null,
      feedback_stats: feedbackBy.get(p.thread_id) ?? null,
      first_inputs: root?.first_inputs ?? "",
      last_outputs: root?.last_outputs ?? "",
      last_error: root?.last_error ?? null,
    };
  });
  return { groups, total: page[0].total };
}
