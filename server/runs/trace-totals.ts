import type { Sql } from "../db/client";
import { raw, sql, type SqlFragment } from "../db/sql";
import { inWorkspace } from "../db/sql";

/**
 * Recomputes the roll-ups of every trace the given runs belong to: run, LLM-run and error counts,
 * and tokens and costs summed over the trace's LLM runs. Runs in the ingest transaction, so a
 * trace's totals always match its runs.
 */
export async function refreshTraceTotals(db: Sql, workspaceId: string, runIds: string[]): Promise<void> {
  if (runIds.length === 0) return;
  await db.query(traceTotalsUpsert(workspaceId, runIds));
}

/** The INSERT … SELECT of a trace's totals from runs `r` (the FROM and GROUP BY r.trace_id follow). */
const totalsOf = (workspaceId: string) => sql`
    INSERT INTO trace_totals AS t (workspace_id, trace_id, runs, llm_runs, error_runs, prompt_tokens, completion_tokens,
                                   total_tokens, prompt_cost, completion_cost, total_cost, updated_at)
    SELECT ${workspaceId}::uuid, r.trace_id, count(*), count(*) FILTER (WHERE r.run_type = 'llm'),
           count(*) FILTER (WHERE r.status = 'error'),
           sum(r.prompt_tokens) FILTER (WHERE r.run_type = 'llm'), sum(r.completion_tokens) FILTER (WHERE r.run_type = 'llm'),
           sum(r.total_tokens) FILTER (WHERE r.run_type = 'llm'), sum(r.prompt_cost) FILTER (WHERE r.run_type = 'llm'),
           sum(r.completion_cost) FILTER (WHERE r.run_type = 'llm'), sum(r.total_cost) FILTER (WHERE r.run_type = 'llm'), now()`;

/** The upsert of `refreshTraceTotals` (for use in a WITH); `runIds` must not be empty. */
export function traceTotalsUpsert(workspaceId: string, runIds: string[]): SqlFragment {
  return sql`
    ${totalsOf(workspaceId)}
    FROM runs r
    WHERE ${inWorkspace(workspaceId, "r")}
      AND r.trace_id IN (SELECT trace_id FROM runs WHERE ${inWorkspace(workspaceId)} AND id = ANY(${runIds}::uuid[]) AND trace_id IS NOT NULL)
    GROUP BY r.trace_id
    ON CONFLICT (workspace_id, trace_id) DO UPDATE SET
      runs = EXCLUDED.runs, llm_runs = EXCLUDED.llm_runs, error_runs = EXCLUDED.error_runs,
      prompt_tokens = EXCLUDED.prompt_tokens, completion_tokens = EXCLUDED.completion_tokens, total_tokens = EXCLUDED.total_tokens,
      prompt_cost = EXCLUDED.prompt_cost, completion_cost = EXCLUDED.completion_cost, total_cost = EXCLUDED.total_cost,
      updated_at = now()`;
}

/** A run just inserted, as its INSERT returned it: what it adds to its trace's totals. */
export interface InsertedRun {
  id: string;
  trace_id: string;
  run_type: string;
  status: string;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  /** Costs as PostgreSQL's text form of the numeric, so no digit is lost on the way back. */
  prompt_cost: string | null;
  completion_cost: string | null;
  total_cost: string | null;
}

/** The columns of `runs` an INSERT … RETURNING gives for `traceTotalsAdd`. */
export const INSERTED_RUN_COLUMNS =
  "id, trace_id, run_type, status, prompt_tokens, completion_tokens, total_tokens, prompt_cost::text, completion_cost::text, total_cost::text";

const added = (column: string) =>
  `${column} = CASE WHEN EXCLUDED.${column} IS NULL THEN t.${column} ELSE coalesce(t.${column}, 0) + EXCLUDED.${column} END`;

/**
 * Adds runs just inserted to their traces' totals (for use in a WITH; `runs` must not be empty).
 * The same sums as `traceTotalsUpsert`, from the inserted rows alone: a new run only adds to its
 * trace, so the trace's other runs are not read again — a request's cost no longer grows with the
 * size of the traces it extends. A run that was updated changes what it added, so those traces
 * are recomputed by `traceTotalsUpsert` instead.
 */
export function traceTotalsAdd(workspaceId: string, runs: InsertedRun[]): SqlFragment {
  const rows = runs.map(({ id: _id, ...run }) => run);
  return sql`
    ${totalsOf(workspaceId)}
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(trace_id uuid, run_type text, status text, prompt_tokens bigint,
      completion_tokens bigint, total_tokens bigint, prompt_cost numeric, completion_cost numeric, total_cost numeric)
    GROUP BY r.trace_id
    ON CONFLICT (workspace_id, trace_id) DO UPDATE SET
      runs = t.runs + EXCLUDED.runs, llm_runs = t.llm_runs + EXCLUDED.llm_runs, error_runs = t.error_runs + EXCLUDED.error_runs,
      ${raw([added("prompt_tokens"), added("completion_tokens"), added("total_tokens"), added("prompt_cost"), added("completion_cost"), added("total_cost")].join(",\n      "))},
      updated_at = now()`;
}

export interface TraceTotals {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  prompt_cost: number | null;
  completion_cost: number | null;
  total_cost: number | null;
}

/** The roll-ups of the given traces, by trace id. */
export async function traceTotals(db: Sql, workspaceId: string, traceIds: string[]): Promise<Map<string, TraceTotals>> {
  if (traceIds.length === 0) return new Map();
  const rows = await db.query<TraceTotals & { trace_id: string }>(sql`
    SELECT trace_id, prompt_tokens::float8 AS prompt_tokens, completion_tokens::float8 AS completion_tokens,
           total_tokens::float8 AS total_tokens, prompt_cost::float8 AS prompt_cost,
           completion_cost::float8 AS completion_cost, total_cost::float8 AS total_cost
    FROM trace_totals WHERE workspace_id = ${workspaceId} AND trace_id = ANY(${traceIds}::uuid[])`);
  return new Map(rows.map(({ trace_id, ...totals }) => [trace_id, totals]));
}
