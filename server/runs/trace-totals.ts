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

/** The root's value of an expression over the trace's runs `r` (the first root by id: a trace has one but for a moment). */
const ofRoot = (expression: string) => `(array_agg(${expression} ORDER BY r.id) FILTER (WHERE r.is_root))[1]`;

/**
 * The root's columns a trace's row keeps, and how each is read from `runs` and from the inserted
 * runs' rows (`INSERTED_RUN_COLUMNS`, which return them for roots only).
 */
const ROOT_COLUMNS: { column: string; fromRuns: string; fromInserted: string }[] = [
  { column: "project_id", fromRuns: "r.project_id", fromInserted: "r.project_id" },
  { column: "root_total_tokens", fromRuns: "r.total_tokens", fromInserted: "r.total_tokens" },
  { column: "root_total_cost", fromRuns: "r.total_cost", fromInserted: "r.total_cost" },
  { column: "root_user_id", fromRuns: "run_user_id(r.extra)", fromInserted: "r.root_user_id" },
  { column: "root_thread_id", fromRuns: "r.thread_id", fromInserted: "r.root_thread_id" },
  { column: "root_start_time", fromRuns: "r.start_time", fromInserted: "r.root_start_time" },
  { column: "root_error", fromRuns: "r.error IS NOT NULL", fromInserted: "r.root_error" },
];

/**
 * The INSERT … SELECT of a trace's totals from runs `r` (the FROM and GROUP BY r.trace_id follow), with
 * its root's project and own tokens and cost: what the runs table sorted by tokens or cost reads for
 * root runs through trace_totals' indexes (server/runs/sorted.ts). The project stays null until the root is written.
 */
const totalsOf = (workspaceId: string, from: "fromRuns" | "fromInserted") => sql`
    INSERT INTO trace_totals AS t (workspace_id, trace_id, runs, llm_runs, error_runs, prompt_tokens, completion_tokens,
                                   total_tokens, prompt_cost, completion_cost, total_cost, updated_at,
                                   ${raw(ROOT_COLUMNS.map((c) => c.column).join(", "))})
    SELECT ${workspaceId}::uuid, r.trace_id, count(*), count(*) FILTER (WHERE r.run_type = 'llm'),
           count(*) FILTER (WHERE r.status = 'error'),
           sum(r.prompt_tokens) FILTER (WHERE r.run_type = 'llm'), sum(r.completion_tokens) FILTER (WHERE r.run_type = 'llm'),
           sum(r.total_tokens) FILTER (WHERE r.run_type = 'llm'), sum(r.prompt_cost) FILTER (WHERE r.run_type = 'llm'),
           sum(r.completion_cost) FILTER (WHERE r.run_type = 'llm'), sum(r.total_cost) FILTER (WHERE r.run_type = 'llm'), now(),
           ${raw(ROOT_COLUMNS.map((c) => ofRoot(c[from])).join(", "))}`;

/** The upsert of `refreshTraceTotals` (for use in a WITH); `runIds` must not be empty. */
export function traceTotalsUpsert(workspaceId: string, runIds: string[]): SqlFragment {
  return sql`
    ${totalsOf(workspaceId, "fromRuns")}
    FROM runs r
    WHERE ${inWorkspace(workspaceId, "r")}
      AND r.trace_id IN (SELECT trace_id FROM runs WHERE ${inWorkspace(workspaceId)} AND id = ANY(${runIds}::uuid[]) AND trace_id IS NOT NULL)
    GROUP BY r.trace_id
    ON CONFLICT (workspace_id, trace_id) DO UPDATE SET
      runs = EXCLUDED.runs, llm_runs = EXCLUDED.llm_runs, error_runs = EXCLUDED.error_runs,
      prompt_tokens = EXCLUDED.prompt_tokens, completion_tokens = EXCLUDED.completion_tokens, total_tokens = EXCLUDED.total_tokens,
      prompt_cost = EXCLUDED.prompt_cost, completion_cost = EXCLUDED.completion_cost, total_cost = EXCLUDED.total_cost,
      updated_at = now(), ${raw(ROOT_COLUMNS.map((c) => `${c.column} = EXCLUDED.${c.column}`).join(", "))}`;
}

/** A run just inserted, as its INSERT returned it: what it adds to its trace's totals. */
export interface InsertedRun {
  id: string;
  trace_id: string;
  project_id: string;
  is_root: boolean;
  run_type: string;
  status: string;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  /** Costs as PostgreSQL's text form of the numeric, so no digit is lost on the way back. */
  prompt_cost: string | null;
  completion_cost: string | null;
  total_cost: string | null;
  /** A root's end user, thread, start (PostgreSQL's text of the timestamp) and failure; null for other runs. */
  root_user_id: string | null;
  root_thread_id: string | null;
  root_start_time: string | null;
  root_error: boolean | null;
}

/** The columns of `runs` an INSERT … RETURNING gives for `traceTotalsAdd`. */
export const INSERTED_RUN_COLUMNS =
  "id, trace_id, project_id, is_root, run_type, status, prompt_tokens, completion_tokens, total_tokens, prompt_cost::text, completion_cost::text, total_cost::text, " +
  "CASE WHEN is_root THEN run_user_id(extra) END AS root_user_id, CASE WHEN is_root THEN thread_id END AS root_thread_id, " +
  "CASE WHEN is_root THEN start_time::text END AS root_start_time, CASE WHEN is_root THEN error IS NOT NULL END AS root_error";

const added = (column: string) =>
  `${column} = CASE WHEN EXCLUDED.${column} IS NULL THEN t.${column} ELSE coalesce(t.${column}, 0) + EXCLUDED.${column} END`;

/** A root's column, kept when the inserted runs hold no root of the trace (its project is then null). */
const rootOnly = (column: string) => `${column} = CASE WHEN EXCLUDED.project_id IS NULL THEN t.${column} ELSE EXCLUDED.${column} END`;

/**
 * Adds runs just inserted to their traces' totals (for use in a WITH; `runs` must not be empty).
 * The same sums as `traceTotalsUpsert`, from the inserted rows alone: a new run only adds to its
 * trace, so the trace's other runs are not read again — a request's cost no longer grows with the
 * size of the traces it extends. A run that was updated changes what it added, so those traces
 * are recomputed by `traceTotalsUpsert` instead.
 */
export function traceTotalsAdd(workspaceId: string, runs: InsertedRun[]): SqlFragment {
  return sql`
    ${totalsOf(workspaceId, "fromInserted")}
    FROM jsonb_to_recordset(${JSON.stringify(runs)}::jsonb) AS r(id uuid, trace_id uuid, project_id uuid, is_root boolean, run_type text,
      status text, prompt_tokens bigint, completion_tokens bigint, total_tokens bigint, prompt_cost numeric, completion_cost numeric,
      total_cost numeric, root_user_id text, root_thread_id text, root_start_time timestamptz, root_error boolean)
    GROUP BY r.trace_id
    ON CONFLICT (workspace_id, trace_id) DO UPDATE SET
      runs = t.runs + EXCLUDED.runs, llm_runs = t.llm_runs + EXCLUDED.llm_runs, error_runs = t.error_runs + EXCLUDED.error_runs,
      ${raw([added("prompt_tokens"), added("completion_tokens"), added("total_tokens"), added("prompt_cost"), added("completion_cost"), added("total_cost")].join(",\n      "))},
      updated_at = now(), ${raw(ROOT_COLUMNS.map((c) => rootOnly(c.column)).join(", "))}`;
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
