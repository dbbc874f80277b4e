import type { Sql } from "../db/client";
import { sql } from "../db/sql";

/** The trace a run of the workspace belongs to, or null when the workspace has no such run. */
export async function traceOfRun(db: Sql, workspaceId: string, runId: string): Promise<string | null> {
  const [run] = await db.query<{ trace_id: string }>(sql`SELECT trace_id FROM runs WHERE id = ${runId} AND workspace_id = ${workspaceId}`);
  return run?.trace_id ?? null;
}

/** Which of these ids are runs of the workspace. */
export async function existingRuns(db: Sql, workspaceId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ id: string }>(sql`SELECT id FROM runs WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::uuid[])`);
  return new Set(rows.map((r) => r.id));
}
