import { z } from "zod";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { badRequest } from "../core/errors";
import { isoFromDb } from "../core/time";
import { runConditions } from "./conditions";
import type { RunGroupBody } from "./schema";
import { fromStorage } from "../db/storable";
import { PREVIEW_CHARS, spokenText } from "./preview";
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

/** A thread in the v2 shape (`client.threads.query`): without its filter, with `start_time`. */
export const wireThreadV2 = wireThread.omit({ filter: true }).extend({ start_time: z.string().nullable() });

const GROUPS = new Set(["conversation", "thread", "thread_id"]);

/**
 * POST /runs/group: a project's conversations. A thread is every trace with a run whose metadata
 * named it (thread_id, session_id or conversation_id, resolved at ingest); `count` is its traces,
 * tokens and cost cover all their runs, latency and first/last messages come from the roots.
 */
export async function groupThreads(db: Sql, workspaceId: string, body: RunGroupBody): Promise<{ groups: Thread[]; total: number }> {
  if (body.group_by && !GROUPS.has(body.group_by))
    throw badRequest(`Invalid group_by ${JSON.stringify(body.group_by)}: expected "conversation".`);
  const where = runConditions(
    workspaceId,
    { session: [body.session_id], filter: body.filter, start_time: body.start_time, end_time: body.end_time },
    "r",
  );
  const limit = body.limit ?? 100;
  const offset = body.offset ?? 0;
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
    db.query<{ thread_id: string; key: string; n: number; avg: number | null; stdev: number | null }>(sql`
      SELECT tr.thread_id, f.key, count(*)::int AS n, avg(f.score)::float8 AS avg, stddev_pop(f.score)::float8 AS stdev
      FROM (${traces}) tr JOIN feedback f ON f.workspace_id = ${workspaceId} AND f.trace_id = tr.trace_id
      GROUP BY tr.thread_id, f.key`),
  ]);
  const byThread = <T extends { thread_id: string }>(rows: T[]) => new Map(rows.map((r) => [r.thread_id, r]));
  const totalsBy = byThread(totals);
  const rootsBy = byThread(roots.map(fromStorage));
  const feedbackBy = new Map<string, Record<string, FeedbackKeyStats>>();
  for (const row of feedback) {
    const stats = feedbackBy.get(row.thread_id) ?? {};
    stats[row.key] = { n: row.n, avg: row.avg, stdev: row.stdev, values: {} };
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

export interface ThreadTurn {
  run_id: string;
  trace_id: string;
  name: string;
  start_time: string | null;
  latency: number | null;
  /** What the user said in this turn, and what came back (null when the turn failed or is running). */
  user: string | null;
  assistant: string | null;
  error: string | null;
}

/** A thread as a transcript: its traces' roots in time order, each read as what was asked and answered. */
export async function threadTurns(db: Sql, workspaceId: string, projectId: string, threadId: string, limit = 200): Promise<ThreadTurn[]> {
  const rows = await db.query<{
    id: string;
    trace_id: string;
    name: string;
    start_time: string;
    latency_ms: number | null;
    inputs: unknown;
    outputs: unknown;
    error: string | null;
  }>(sql`
    SELECT r.id, r.trace_id, r.name, r.start_time, r.latency_ms, r.inputs, r.outputs, r.error FROM runs r
    WHERE r.workspace_id = ${workspaceId} AND r.project_id = ${projectId} AND r.thread_id = ${threadId} AND r.is_root
    ORDER BY r.start_time, r.id LIMIT ${limit}`);
  return rows.map(fromStorage).map((r) => ({
    run_id: r.id,
    trace_id: r.trace_id,
    name: r.name,
    start_time: isoFromDb(r.start_time),
    latency: r.latency_ms === null ? null : r.latency_ms / 1000,
    user: spokenText(r.inputs, "input"),
    assistant: spokenText(r.outputs, "output"),
    error: r.error,
  }));
}
