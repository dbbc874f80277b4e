import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { isoFromDb } from "../core/time";
import { fromStorage } from "../db/storable";
import { feedbackOfTraces, type TraceKeyFeedback } from "../feedback/stats";
import { spokenText } from "./preview";

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
  feedback: Record<string, TraceKeyFeedback>;
}

/**
 * A thread as a transcript: its traces' roots in time order, each read as what was asked and
 * answered, with the turn's tokens, cost, latency, failed runs and feedback. Two reads, each one
 * index range: the roots with their trace totals (runs_thread_idx), and their feedback by trace
 * (server/feedback). The roots are read in SQL, not Prisma Client: a turn's start_time goes out
 * with its microseconds, which Prisma's DateTime (a JS Date) would drop.
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
  const byTrace = await feedbackOfTraces(db, workspaceId, traces);
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
