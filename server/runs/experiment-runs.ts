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
