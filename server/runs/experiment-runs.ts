import type { Sql } from "../db/client";
import { join, sql, type SqlFragment } from "../db/sql";
import { fromStorage } from "../db/storable";
import { runColumns, type RunRow } from "./columns";
import { compileFilter } from "./filter";
import { serializeRuns } from "./read";
import type { SelectedRun } from "./serialize";

export interface ExperimentRunsQuery {
  /** The experiments (projects) to read. */
  projectIds: string[];
  /** Only runs answering these examples; all when absent. */
  exampleIds?: string[];
  /** Filter-language expressions per project id, all of which that project's runs must pass. */
  filters?: Record<string, string[]>;
  /** Heavy JSON columns to read (inputs, outputs, extra); none when absent. */
  heavy?: ReadonlySet<string>;
  /** The SDK's selection; every field when absent. */
  select?: ReadonlySet<string> | null;
}

/**
 * The root runs of experiments that answer dataset examples (an experiment's target runs, one per
 * example and repetition), with their trace totals and feedback statistics, oldest first.
 */
export async function experimentRuns(db: Sql, workspaceId: string, q: ExperimentRunsQuery): Promise<SelectedRun[]> {
  if (q.projectIds.length === 0) return [];
  const where: SqlFragment[] = [
    sql`r.workspace_id = ${workspaceId}`,
    sql`r.project_id = ANY(${q.projectIds}::uuid[])`,
    sql`r.is_root`,
    sql`r.reference_example_id IS NOT NULL`,
  ];
  if (q.exampleIds) where.push(sql`r.reference_example_id = ANY(${q.exampleIds}::uuid[])`);
  for (const [projectId, expressions] of Object.entries(q.filters ?? {})) {
    for (const expression of expressions) where.push(sql`(r.project_id <> ${projectId}::uuid OR (${compileFilter(expression, "r")}))`);
  }
  const rows = await db.query<RunRow>(sql`
    SELECT ${runColumns("r", q.heavy ?? new Set())} FROM runs r
    WHERE ${join(where, " AND ")}
    ORDER BY r.start_time, r.id`);
  return serializeRuns(db, workspaceId, rows.map(fromStorage), q.select ?? null);
}

/** An experiment run's numbers, without its content: what every row of a comparison is judged by. */
export interface ExperimentRunOutline {
  id: string;
  session_id: string;
  reference_example_id: string;
  status: string;
  latency: number | null;
  /** The whole trace's tokens and cost (its LLM runs), as a root run shows them. */
  total_tokens: number | null;
  total_cost: number | null;
}

/** The outlines of every root run of these experiments that answers an example, oldest first: one light query. */
export async function experimentRunOutlines(db: Sql, workspaceId: string, projectIds: string[]): Promise<ExperimentRunOutline[]> {
  if (projectIds.length === 0) return [];
  return db.query<ExperimentRunOutline>(sql`
    SELECT r.id, r.project_id AS session_id, r.reference_example_id, r.status, (r.latency_ms / 1000)::float8 AS latency,
      coalesce(t.total_tokens, r.total_tokens)::float8 AS total_tokens, coalesce(t.total_cost, r.total_cost)::float8 AS total_cost
    FROM runs r LEFT JOIN trace_totals t ON t.workspace_id = r.workspace_id AND t.trace_id = r.trace_id
    WHERE r.workspace_id = ${workspaceId} AND r.project_id = ANY(${projectIds}::uuid[]) AND r.is_root AND r.reference_example_id IS NOT NULL
    ORDER BY r.start_time, r.id`);
}
