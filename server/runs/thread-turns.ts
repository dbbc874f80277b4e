import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { isoFromDb } from "../core/time";
import { fromStorage } from "../db/storable";
import { spokenText } from "./preview";

/** A key's feedback on one turn (its trace): how many, and the mean score when scored. */
export interface TurnFeedback {
  n: number;
  avg: number | null;
  /** The value most given when the feedback is categorical (no score). */
  value: string | null;
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
  /** The turn's trace totals (all its runs), as the runs table shows a root run. */
  total_tokens: number | null;
  total_cost: number | null;
  /** Runs of the turn's trace that failed (the root's own error included). */
  error_runs: number;
  feedback: Record<string, TurnFeedback>;
}

/**
 * A thread as a transcript: its traces' roots in time order, each read as what was asked and
 * answered, with the turn's tokens, cost, latency, failed runs and feedback. Three reads, each one
 * index range: the roots (runs_thread_idx), their trace totals and their feedback (by trace).
 */
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
    total_tokens: number | null;
    total_cost: number | null;
    error_runs: number | null;
  }>(sql`
    SELECT r.id, r.trace_id, r.name, r.start_time, r.latency_ms, r.inputs, r.outputs, r.error,
      coalesce(tt.total_tokens, r.total_tokens)::float8 AS total_tokens, coalesce(tt.total_cost, r.total_cost)::float8 AS total_cost,
      tt.error_runs
    FROM runs r LEFT JOIN trace_totals tt ON tt.workspace_id = r.workspace_id AND tt.trace_id = r.trace_id
    WHERE r.workspace_id = ${workspaceId} AND r.project_id = ${projectId} AND r.thread_id = ${threadId} AND r.is_root
    ORDER BY r.start_time, r.id LIMIT ${limit}`);
  const traces = rows.map((r) => r.trace_id);
  const feedback = traces.length
    ? await db.query<{ trace_id: string; key: string; n: number; avg: number | null; value: string | null }>(sql`
        SELECT f.trace_id, f.key, count(*)::int AS n, avg(f.score)::float8 AS avg, mode() WITHIN GROUP (ORDER BY f.value #>> '{}') AS value
        FROM feedback f WHERE f.workspace_id = ${workspaceId} AND f.trace_id = ANY(${traces}::uuid[])
        GROUP BY f.trace_id, f.key`)
    : [];
  const byTrace = new Map<string, Record<string, TurnFeedback>>();
  for (const f of feedback.map(fromStorage)) {
    const keys = byTrace.get(f.trace_id) ?? {};
    keys[f.key] = { n: f.n, avg: f.avg, value: f.value };
    byTrace.set(f.trace_id, keys);
  }
  return rows.map(fromStorage).map((r) => ({
    run_id: r.id,
    trace_id: r.trace_id,
    name: r.name,
    start_time: isoFromDb(r.start_time),
    latency: r.latency_ms === null ? null : r.latency_ms / 1000,
    user: spokenText(r.inputs, "input"),
    assistant: spokenText(r.outputs, "output"),
    error: r.error,
    total_tokens: r.total_tokens,
    total_cost: r.total_cost,
    error_runs: Math.max(r.error_runs ?? 0, r.error ? 1 : 0),
    feedback: byTrace.get(r.trace_id) ?? {},
  }));
}
