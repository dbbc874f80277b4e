import { isUuid } from "../core/uuid";
import type { Sql } from "../db/client";
import { inWorkspace, raw, sql } from "../db/sql";
import { runConditions } from "./conditions";
import { RUN_COLUMNS, type RunRow } from "./columns";
import type { RunSelection } from "./selection";

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
export async function matchingRunIds(db: Sql, workspaceId: string, selection: RunSelection, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    sql`SELECT r.id FROM runs r WHERE ${runConditions(workspaceId, selection)} ORDER BY r.start_time, r.id LIMIT ${limit}`,
  );
  return rows.map((r) => r.id);
}

/** The stored columns other domains read from runs by id (`runsByIds`). */
const READABLE = new Set([
  "trace_id",
  "parent_run_id",
  "project_id",
  "is_root",
  "name",
  "run_type",
  "status",
  "start_time",
  "end_time",
  "inputs",
  "outputs",
  "error",
  "extra",
  "tags",
  "total_tokens",
  "total_cost",
  "reference_example_id",
  "input_preview",
  "output_preview",
] as const);
type ReadableColumn = typeof READABLE extends Set<infer C> ? C : never;

/**
 * Those of these runs that the workspace has, with the named columns as stored (content still
 * escaped: `fromStorage` reads it back), in one statement; `T` is the row the caller reads.
 */
export async function runsByIds<T extends { id: string }>(
  db: Sql,
  workspaceId: string,
  ids: string[],
  columns: readonly ReadableColumn[],
): Promise<T[]> {
  for (const column of columns) if (!READABLE.has(column)) throw new Error(`runsByIds: ${column} is not a readable column`);
  return db.query<T>(sql`SELECT id, ${raw(columns.join(", "))} FROM runs WHERE id = ANY(${ids}::uuid[]) AND ${inWorkspace(workspaceId)}`);
}

/** The ids of a trace's runs other than its root, in tree order (dotted_order), at most `limit`. */
export async function traceRunIdsBelowRoot(db: Sql, workspaceId: string, traceId: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(sql`
    SELECT id FROM runs WHERE trace_id = ${traceId}::uuid AND id <> ${traceId}::uuid AND ${inWorkspace(workspaceId)}
    ORDER BY dotted_order LIMIT ${limit}`);
  return rows.map((r) => r.id);
}

/** The stored rows of a trace's runs in tree order (dotted_order); `ids` narrows them. Content still escaped. */
export async function traceRunRows(db: Sql, workspaceId: string, traceId: string, ids: string[] = []): Promise<RunRow[]> {
  return db.query<RunRow>(sql`
    SELECT ${RUN_COLUMNS} FROM runs r
    WHERE r.workspace_id = ${workspaceId} AND r.trace_id = ${traceId}
      ${ids.length ? sql`AND r.id = ANY(${ids}::uuid[])` : sql``}
    ORDER BY r.dotted_order`);
}

/** Whether some run of the project carries this thread id. */
export async function threadHasRuns(db: Sql, workspaceId: string, projectId: string, threadId: string): Promise<boolean> {
  return !!(await db.prisma.run.findFirst({ where: { workspaceId, projectId, threadId }, select: { id: true } }));
}

/** Those of these runs that the workspace has, with their project and start time. */
export async function runProjectsAndStarts(
  db: Sql,
  workspaceId: string,
  ids: string[],
): Promise<{ id: string; projectId: string; startTime: Date }[]> {
  return db.prisma.run.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true, projectId: true, startTime: true } });
}

/** What an evaluator judges of each of these runs, whatever their workspace (an evaluation job names its runs). Content still escaped. */
export async function runsForEvaluation(db: Sql, ids: string[]) {
  return db.query<{
    id: string;
    workspace_id: string;
    trace_id: string;
    name: string;
    run_type: string;
    inputs: unknown;
    outputs: unknown;
    error: string | null;
    tags: string[];
    metadata: unknown;
    reference_example_id: string | null;
  }>(sql`
    SELECT r.id, r.workspace_id, r.trace_id, r.name, r.run_type, r.inputs, r.outputs, r.error, r.tags,
      r.extra -> 'metadata' AS metadata, r.reference_example_id
    FROM runs r
    WHERE r.id = ANY(${ids}::uuid[])`);
}
