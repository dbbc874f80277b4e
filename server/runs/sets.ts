import type { Sql } from "../db/client";
import { sql, type SqlFragment } from "../db/sql";

/*
 * Set-based reads of the runs table for other domains' batch work (the automation rules' claim,
 * matching and backfills; a project's delete). The callers give their conditions on the alias `r`
 * (or name the outer columns to compare with); the statements are the ones they ran before, kept
 * here so that only this folder names the table.
 */

/** A workspace's finished runs written after `after` (by updated_at, id) and before `upTo`, oldest first. */
export async function finishedRunsAfter(
  db: Sql,
  workspaceId: string,
  after: { time: string; id: string },
  upTo: string,
  limit: number,
): Promise<{ id: string; updated_at: string }[]> {
  return db.query<{ id: string; updated_at: string }>(sql`
      SELECT r.id, r.updated_at::text AS updated_at FROM runs r
      WHERE r.workspace_id = ${workspaceId} AND r.end_time IS NOT NULL
        AND (r.updated_at, r.id) > (${after.time}::timestamptz, ${after.id}::uuid) AND r.updated_at < ${upTo}::timestamptz
      ORDER BY r.updated_at, r.id
      LIMIT ${limit}`);
}

/**
 * `EXISTS` a finished run of the workspace written after the position (updated_at, id) and before
 * `upTo`: the outer query's columns are given as SQL (`c.workspace_id`, `c.claimed_time`, `c.claimed_id`).
 */
export function finishedRunAfterExists(workspaceId: SqlFragment, time: SqlFragment, id: SqlFragment, upTo: string): SqlFragment {
  return sql`EXISTS (
      SELECT 1 FROM runs r
      WHERE r.workspace_id = ${workspaceId} AND r.end_time IS NOT NULL
        AND (r.updated_at, r.id) > (${time}, ${id}) AND r.updated_at < ${upTo}::timestamptz)`;
}

/** Ids of the runs meeting `where` (conditions on `r`) in the given order, at most `limit`. */
export async function runIdsWhere(db: Sql, where: SqlFragment, orderBy: SqlFragment, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(sql`
    SELECT r.id FROM runs r
    WHERE ${where}
    ORDER BY ${orderBy}
    LIMIT ${limit}`);
  return rows.map((r) => r.id);
}

/** How many runs meet `where` (conditions on `r`). */
export async function countRunsWhere(db: Sql, where: SqlFragment): Promise<number> {
  const [row] = await db.query<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM runs r
    WHERE ${where}`);
  return row!.n;
}

/** Id and start time of the runs meeting `where` (conditions on `r`), oldest first by (start_time, id), at most `limit`. */
export async function runStartsWhere(db: Sql, where: SqlFragment, limit: number): Promise<{ id: string; start_time: string }[]> {
  return db.query<{ id: string; start_time: string }>(sql`
    SELECT r.id, r.start_time FROM runs r
    WHERE ${where}
    ORDER BY r.start_time, r.id
    LIMIT ${limit}`);
}

/** `(SELECT count(*) …)` of the workspace's runs in the projects `projects` (a subquery of project ids) selects. */
export function runsOfProjectsCount(workspaceId: string, projects: SqlFragment): SqlFragment {
  return sql`(SELECT count(*)::int FROM runs WHERE workspace_id = ${workspaceId} AND project_id IN (${projects}))`;
}

/** `SELECT id FROM runs …` of the workspace's runs in the projects `projects` selects, for a subquery. */
export function runIdsOfProjects(workspaceId: string, projects: SqlFragment): SqlFragment {
  return sql`SELECT id FROM runs WHERE workspace_id = ${workspaceId} AND project_id IN (${projects})`;
}

/** Deletes the trace roll-ups of the workspace's runs in these projects (before the projects go, while the runs still say which traces). */
export async function deleteTraceTotalsOfProjects(db: Sql, workspaceId: string, projects: SqlFragment): Promise<void> {
  await db.query(
    sql`DELETE FROM trace_totals WHERE workspace_id = ${workspaceId} AND trace_id IN (SELECT trace_id FROM runs WHERE workspace_id = ${workspaceId} AND project_id IN (${projects}))`,
  );
}
