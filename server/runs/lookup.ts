import { isUuid } from "../core/uuid";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { runConditions } from "./conditions";
import type { RunSelection } from "./schema";

/** The trace a run of the workspace belongs to, or null when the workspace has no such run. */
export async function traceOfRun(db: Sql, workspaceId: string, runId: string): Promise<string | null> {
  const run = await db.prisma.run.findFirst({ where: { id: runId, workspaceId }, select: { traceId: true } });
  return run?.traceId ?? null;
}

/** The traces of those of these runs that the workspace has, by run id. */
export async function tracesOfRuns(db: Sql, workspaceId: string, runIds: string[]): Promise<Map<string, string>> {
  const ids = runIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const runs = await db.prisma.run.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true, traceId: true } });
  return new Map(runs.map((r) => [r.id, r.traceId]));
}

/** Which of these ids are runs of the workspace. */
export async function existingRuns(db: Sql, workspaceId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const runs = await db.prisma.run.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } });
  return new Set(runs.map((r) => r.id));
}

/** The projects these runs of the workspace belong to. */
export async function projectsOfRuns(db: Sql, workspaceId: string, runIds: string[]): Promise<string[]> {
  const runs = await db.prisma.run.findMany({
    where: { workspaceId, id: { in: runIds } },
    select: { projectId: true },
    distinct: ["projectId"],
  });
  return runs.map((r) => r.projectId);
}

/** Ids of the runs of the workspace matching a selection (projects, filter language, root only…), oldest first, at most `limit`. */
export async function matchingRunIds(db: Sql, workspaceId: string, selection: Partial<RunSelection>, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    sql`SELECT r.id FROM runs r WHERE ${runConditions(workspaceId, selection)} ORDER BY r.start_time, r.id LIMIT ${limit}`,
  );
  return rows.map((r) => r.id);
}
