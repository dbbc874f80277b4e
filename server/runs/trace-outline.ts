import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { fromStorage } from "../db/storable";
import type { TraceOutlineWire } from "./trace-outline-wire";

/** The most runs of one trace the trace view loads at once (its tree is virtualised). */
export const TRACE_OUTLINE_LIMIT = 200_000;
/** Long errors are cut in the tree; the run detail reads the whole error. */
const ERROR_PREVIEW = 300;
/** The escape `fromStorage` undoes (U+E000): only an outline containing it is parsed here. */
const STORAGE_ESCAPE = "\uE000";

/**
 * A trace's runs as the trace view's outline (see trace-outline-wire.ts): ids, parents,
 * names, types, status, times as milliseconds from the trace's start, tokens, cost, model and the
 * start of the error, in tree order. PostgreSQL writes the whole answer as one JSON text, which is
 * passed on without being parsed: at 100,000 runs, decoding rows or objects costs more than the query.
 */
export async function traceOutline(db: Sql, workspaceId: string, traceId: string, limit = TRACE_OUTLINE_LIMIT): Promise<TraceOutlineWire> {
  return (await countedTraceOutline(db, workspaceId, traceId, limit)).outline;
}

/** The outline of the trace's first `limit` runs, and how many runs the whole trace has. */
export async function countedTraceOutline(
  db: Sql,
  workspaceId: string,
  traceId: string,
  limit: number,
): Promise<{ outline: TraceOutlineWire; total: number }> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(traceId)) throw notFound(`Trace ${traceId} not found.`);
  // The trace is found by its own index alone; combining that with the workspace index would scan
  // every run of the workspace. The workspace condition is applied to the trace's rows afterwards.
  // The runs are sorted once, in the subquery the aggregate reads (an aggregate without ORDER BY
  // takes a sorted subquery's rows in order, as PostgreSQL's manual describes). Times are float8
  // (date_part: extract's numeric went to float8 through text, three times a run), in whole
  // microseconds over 1,000: the same doubles as the exact decimal milliseconds. The origin is the
  // trace's earliest start (the same as the shown runs' unless the outline is cut).
  const [answer] = await db.query<{ start_time: unknown; runs: string | null; total: number }>(sql`
    WITH trace AS MATERIALIZED (
      SELECT workspace_id, id, parent_run_id, name, run_type, status, start_time, end_time, latency_ms, left(error, ${ERROR_PREVIEW}) AS error,
        total_tokens, total_cost, dotted_order, model, first_token_time
      FROM runs WHERE trace_id = ${traceId}),
    origin AS (SELECT min(start_time) AS t0, count(*)::int AS total FROM trace WHERE workspace_id = ${workspaceId})
    SELECT o.t0 AS start_time, o.total,
      (SELECT json_agg(json_build_array(r.id, r.parent_run_id, r.name, r.run_type, r.status,
          round(date_part('epoch', r.start_time - o.t0) * 1e6) / 1000, round(date_part('epoch', r.end_time - o.t0) * 1e6) / 1000,
          r.latency_ms, r.error, r.total_tokens, r.total_cost::float8, r.model,
          round(date_part('epoch', r.first_token_time - r.start_time) * 1e6) / 1000))::text
        FROM (SELECT * FROM trace WHERE workspace_id = ${workspaceId} ORDER BY dotted_order LIMIT ${limit}) r) AS runs
    FROM origin o`);
  if (!answer || answer.total === 0 || answer.runs === null) throw notFound(`Trace ${traceId} not found.`);
  const runs = answer.runs.includes(STORAGE_ESCAPE) ? JSON.stringify(fromStorage(JSON.parse(answer.runs) as unknown)) : answer.runs;
  return { outline: { start_time: isoFromDb(answer.start_time)!, runs, truncated: answer.total > limit }, total: answer.total };
}
