import type { Sql } from "../db/client";
import { sql, type SqlFragment } from "../db/sql";
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

/** The upsert of `refreshTraceTotals` (for use in a WITH); `runIds` must not be empty. */
export function traceTotalsUpsert(workspaceId: string, runIds: string[]): SqlFragment {
  return sql`
    INSERT INTO trace_totals AS t (workspace_id, trace_id, runs, llm_runs, error_runs, prompt_tokens, completion_tokens,
                                   total_tokens, prompt_cost, completion_cost, total_cost, updated_at)
    SELECT ${workspaceId}::uuid, r.trace_id, count(*), count(*) FILTER (WHERE r.run_type = 'llm'),
           count(*) FILTER (WHERE r.status = 'error'),
           sum(r.prompt_tokens) FILTER (WHERE r.run_type = 'llm'), sum(r.completion_tokens) FILTER (WHERE r.run_type = 'llm'),
           sum(r.total_tokens) FILTER (WHERE r.run_type = 'llm'), sum(r.prompt_cost) FILTER (WHERE r.run_type = 'llm'),
           sum(r.completion_cost) FILTER (WHERE r.run_type = 'llm'), sum(r.total_cost) FILTER (WHERE r.run_type = 'llm'), now()
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
