import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { fromStorage } from "../db/storable";

/** The most runs of one trace read at once here (the trace view reads its outline, trace-outline.ts). */
export const TRACE_RUN_LIMIT = 20_000;
/** Long errors are cut in the tree; the run detail reads the whole error. */
const ERROR_PREVIEW = 300;

/** One run of a trace without its inputs and outputs (the MCP tool `get_trace` reads those of the runs it lists). */
export interface TraceRun {
  id: string;
  parent_run_id: string | null;
  name: string;
  run_type: string;
  status: string;
  start_time: string;
  end_time: string | null;
  /** Seconds. */
  latency: number | null;
  error: string | null;
  total_tokens: number;
  total_cost: number | null;
  /** The model an LLM run called, when known. */
  model: string | null;
  /** Milliseconds from the run's start to its first streamed token. */
  first_token_ms: number | null;
}

export interface TraceRuns {
  runs: TraceRun[];
  /** True when the trace has more than TRACE_RUN_LIMIT runs and only the first ones came back. */
  truncated: boolean;
}

/** One run as the SQL below aggregates it: [id, parent, name, type, status, start, end, latency ms, error, tokens, cost, model, first token ms]. */
type Tuple = [
  string,
  string | null,
  string,
  string,
  string,
  string,
  string | null,
  number | null,
  string | null,
  number | null,
  number | null,
  string | null,
  number | null,
];

/**
 * Every run of one trace in tree order (dotted order: a parent before its children, siblings by
 * start time), with only the columns the tree needs, so a trace of 10,000 runs stays a small answer.
 */
export async function traceRuns(db: Sql, workspaceId: string, traceId: string): Promise<TraceRuns> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(traceId)) throw notFound(`Trace ${traceId} not found.`);
  // One JSON value instead of 10,000 rows: decoding rows one by one costs more than the query itself.
  // The trace is found by its own index alone; combining that with the workspace index would scan
  // every run of the workspace. The workspace condition is applied to the trace's rows afterwards.
  const [{ runs: text }] = await db.query<{ runs: string }>(sql`
    WITH trace AS MATERIALIZED (
      SELECT workspace_id, id, parent_run_id, name, run_type, status, start_time, end_time, latency_ms, left(error, ${ERROR_PREVIEW}) AS error,
        total_tokens, total_cost, dotted_order, model, first_token_time
      FROM runs WHERE trace_id = ${traceId})
    SELECT coalesce(json_agg(json_build_array(r.id, r.parent_run_id, r.name, r.run_type, r.status, r.start_time, r.end_time,
      r.latency_ms, r.error, r.total_tokens, r.total_cost::float8, r.model,
      extract(epoch FROM r.first_token_time - r.start_time) * 1000) ORDER BY r.dotted_order), '[]')::text AS runs
    FROM (
      SELECT r.id, r.parent_run_id, r.name, r.run_type, r.status, r.start_time, r.end_time, r.latency_ms, r.error, r.total_tokens,
        r.total_cost, r.dotted_order, r.model, r.first_token_time
      FROM trace r WHERE r.workspace_id = ${workspaceId}
      ORDER BY r.dotted_order LIMIT ${TRACE_RUN_LIMIT + 1}
    ) r`);
  const rows = fromStorage(JSON.parse(text) as Tuple[]);
  if (rows.length === 0) throw notFound(`Trace ${traceId} not found.`);
  const runs = rows
    .slice(0, TRACE_RUN_LIMIT)
    .map(([id, parent, name, runType, status, start, end, latencyMs, error, tokens, cost, model, firstTokenMs]) => ({
      id,
      parent_run_id: parent,
      name,
      run_type: runType,
      status,
      start_time: isoFromDb(start)!,
      end_time: isoFromDb(end),
      latency: latencyMs === null ? null : latencyMs / 1000,
      error,
      total_tokens: tokens ?? 0,
      total_cost: cost,
      model,
      first_token_ms: firstTokenMs === null ? null : Math.max(0, firstTokenMs),
    }));
  return { runs, truncated: rows.length > TRACE_RUN_LIMIT };
}
