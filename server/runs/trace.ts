import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { notFound } from "../http/errors";
import { runColumns, type RunRow } from "./columns";
import { serializeRuns } from "./read";

/** The most runs of one trace the trace view loads at once. */
export const TRACE_RUN_LIMIT = 20_000;

/** What the trace view needs of each run: everything but the large JSON columns. */
export const TRACE_RUN_FIELDS: ReadonlySet<string> = new Set([
  "name", "run_type", "status", "start_time", "end_time", "error", "tags", "trace_id", "dotted_order", "parent_run_id",
  "session_id", "latency", "first_token_time", "prompt_tokens", "completion_tokens", "total_tokens", "prompt_cost",
  "completion_cost", "total_cost", "feedback_stats", "thread_id", "reference_example_id",
]);

export interface TraceRuns {
  runs: Record<string, unknown>[];
  /** True when the trace has more than TRACE_RUN_LIMIT runs and only the first ones came back. */
  truncated: boolean;
}

/**
 * Every run of one trace in tree order (dotted order: a parent before its children, siblings by
 * start time), without inputs and outputs so that a trace of thousands of runs stays small.
 */
export async function traceRuns(db: Sql, workspaceId: string, traceId: string): Promise<TraceRuns> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(traceId)) throw notFound(`Trace ${traceId} not found.`);
  const rows = await db.query<RunRow>(sql`
    SELECT ${runColumns("r", new Set())} FROM runs r
    WHERE r.workspace_id = ${workspaceId} AND r.trace_id = ${traceId}
    ORDER BY r.dotted_order LIMIT ${TRACE_RUN_LIMIT + 1}`);
  if (rows.length === 0) throw notFound(`Trace ${traceId} not found.`);
  const page = rows.slice(0, TRACE_RUN_LIMIT);
  return { runs: await serializeRuns(db, workspaceId, page, TRACE_RUN_FIELDS), truncated: rows.length > TRACE_RUN_LIMIT };
}
