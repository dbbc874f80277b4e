import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { join, sql, type SqlFragment } from "../db/sql";
import { badRequest, conflict, isUniqueViolation, notFound } from "../core/errors";
import { formatMicros, isoFromDb, parseInstant } from "../core/time";
import type { Deleted, ProjectWithStats, SessionCreate, SessionListQuery, SessionUpdate, WireProject } from "./schema";
import { projectStats } from "./stats";
import { UUID } from "../core/uuid";

interface ProjectRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  extra: Record<string, unknown> | null;
  reference_dataset_id: string | null;
  start_time: string;
  end_time: string | null;
  trace_tier: "shortlived" | "longlived" | null;
  long_lived_retention_days: number | null;
}

const missing = (id: string) => notFound(`Project (session) ${id} not found.`);
const taken = (name: string) => conflict(`A project named ${JSON.stringify(name)} already exists in this workspace.`);

function time(value: string | number | null | undefined, field: string): string | null {
  if (value === null || value === undefined) return null;
  const micros = parseInstant(value);
  if (micros === null) throw badRequest(`Invalid ${field}: ${JSON.stringify(value)} is not an ISO-8601 time or epoch milliseconds.`);
  return formatMicros(micros);
}

function toWire(row: ProjectRow): WireProject {
  return {
    id: row.id,
    tenant_id: row.workspace_id,
    name: row.name,
    description: row.description,
    start_time: isoFromDb(row.start_time)!,
    end_time: isoFromDb(row.end_time),
    extra: row.extra ?? {},
    reference_dataset_id: row.reference_dataset_id,
    default_dataset_id: null,
    trace_tier: row.trace_tier,
    long_lived_retention_days: row.long_lived_retention_days,
  };
}

async function withStats(db: Sql, workspaceId: string, rows: ProjectRow[], include: boolean | undefined): Promise<ProjectWithStats[]> {
  if (!include) return rows.map(toWire);
  const stats = await projectStats(
    db,
    workspaceId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...toWire(row), ...stats.get(row.id) }));
}

/** GET /sessions: an array, newest first, narrowed by name, ids, dataset or metadata. */
export async function listSessions(db: Sql, workspaceId: string, q: SessionListQuery): Promise<ProjectWithStats[]> {
  const where: SqlFragment[] = [sql`workspace_id = ${workspaceId}`];
  if (q.name !== undefined) where.push(sql`name = ${q.name}`);
  if (q.name_contains) where.push(sql`name ILIKE ${`%${q.name_contains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  if (q.id) where.push(sql`id = ANY(${q.id}::uuid[])`);
  if (q.reference_dataset) where.push(sql`reference_dataset_id = ANY(${q.reference_dataset}::uuid[])`);
  if (q.reference_free === true) where.push(sql`reference_dataset_id IS NULL`);
  if (q.reference_free === false) where.push(sql`reference_dataset_id IS NOT NULL`);
  if (q.metadata) where.push(sql`coalesce(extra, '{}'::jsonb) @> ${JSON.stringify({ metadata: q.metadata })}::jsonb`);
  const rows = await db.query<ProjectRow>(sql`
    SELECT * FROM projects WHERE ${join(where, " AND ")} ORDER BY start_time DESC, id LIMIT ${q.limit} OFFSET ${q.offset}`);
  return withStats(db, workspaceId, rows, q.include_stats);
}

export async function readSession(db: Sql, workspaceId: string, id: string, includeStats?: boolean): Promise<ProjectWithStats> {
  if (!UUID.test(id)) throw missing(id);
  const rows = await db.query<ProjectRow>(sql`SELECT * FROM projects WHERE workspace_id = ${workspaceId} AND id = ${id}`);
  if (rows.length === 0) throw missing(id);
  return (await withStats(db, workspaceId, rows, includeStats))[0];
}

/** 404 naming the first of `ids` that is not a project of the workspace. */
export async function requireProjects(db: Sql, workspaceId: string, ids: string[]): Promise<void> {
  const found = await db.prisma.project.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } });
  const known = new Set(found.map((p) => p.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown) throw missing(unknown);
}

/** POST /sessions: 409 when the name is taken, unless `upsert` asks to update that project instead. */
export async function createSession(db: Sql, workspaceId: string, input: SessionCreate, upsert = false): Promise<WireProject> {
  const id = input.id ?? randomUUID();
  const extra = input.extra ? JSON.stringify(input.extra) : null;
  const start = time(input.start_time, "start_time");
  let rows: ProjectRow[];
  try {
    rows = await db.query<ProjectRow>(sql`
      INSERT INTO projects (id, workspace_id, name, description, extra, reference_dataset_id, start_time, end_time)
      VALUES (${id}, ${workspaceId}, ${input.name}, ${input.description ?? null}, ${extra}::jsonb, ${input.reference_dataset_id ?? null},
        coalesce(${start}::timestamptz, now()), ${time(input.end_time, "end_time")}::timestamptz)
      ON CONFLICT (workspace_id, name) DO NOTHING RETURNING *`);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A project with id ${id} already exists.`);
    throw error;
  }
  if (rows.length > 0) return toWire(rows[0]);
  if (!upsert) throw taken(input.name);
  const updated = await db.query<ProjectRow>(sql`
    UPDATE projects SET description = coalesce(${input.description ?? null}, description),
      extra = coalesce(${extra}::jsonb, extra),
      reference_dataset_id = coalesce(${input.reference_dataset_id ?? null}::uuid, reference_dataset_id)
    WHERE workspace_id = ${workspaceId} AND name = ${input.name} RETURNING *`);
  return toWire(updated[0]);
}

/** PATCH /sessions/{id}: fields sent as null are left as they are (the JS client sends them all). */
export async function updateSession(db: Sql, workspaceId: string, id: string, change: SessionUpdate): Promise<ProjectWithStats> {
  if (!UUID.test(id)) throw missing(id);
  const sets: SqlFragment[] = [];
  if (change.name != null) sets.push(sql`name = ${change.name}`);
  if (change.description != null) sets.push(sql`description = ${change.description}`);
  if (change.extra != null) sets.push(sql`extra = ${JSON.stringify(change.extra)}::jsonb`);
  if (change.end_time != null) sets.push(sql`end_time = ${time(change.end_time, "end_time")}::timestamptz`);
  if (change.trace_tier !== undefined) sets.push(sql`trace_tier = ${change.trace_tier}`);
  if (change.long_lived_retention_days !== undefined) sets.push(sql`long_lived_retention_days = ${change.long_lived_retention_days}`);
  if (sets.length === 0) return readSession(db, workspaceId, id);
  try {
    const rows = await db.query<ProjectRow>(sql`
      UPDATE projects SET ${join(sets)} WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING *`);
    if (rows.length === 0) throw missing(id);
    return toWire(rows[0]);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(change.name ?? "");
    throw error;
  }
}

/**
 * DELETE /sessions: projects with everything that belongs to them, in one transaction. The
 * database's cascades delete runs (and their attachment records), feedback, chart sets, rules and
 * refused-run records with the project; the trace roll-ups are removed first, while the runs still
 * say which traces they were. The answer counts what went.
 */
export async function deleteSessions(db: Sql, workspaceId: string, ids: string[]): Promise<Deleted> {
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined) throw badRequest(`Invalid session id ${JSON.stringify(bad)}: must be a UUID.`);
  if (ids.length === 0) throw badRequest("Name the projects to delete with session_ids.");
  return db.tx(async (tx) => {
    const projects = sql`SELECT id FROM projects WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::uuid[])`;
    const [counted] = await tx.query<Omit<Deleted, "projects">>(sql`
      SELECT
        (SELECT count(*)::int FROM runs WHERE workspace_id = ${workspaceId} AND project_id IN (${projects})) AS runs,
        (SELECT count(*)::int FROM feedback WHERE project_id IN (${projects})) AS feedback,
        (SELECT count(*)::int FROM attachments WHERE run_id IN (SELECT id FROM runs WHERE workspace_id = ${workspaceId} AND project_id IN (${projects}))) AS attachments,
        (SELECT count(*)::int FROM chart_sets WHERE project_id IN (${projects})) AS chart_sets`);
    await tx.query(
      sql`DELETE FROM trace_totals WHERE workspace_id = ${workspaceId} AND trace_id IN (SELECT trace_id FROM runs WHERE workspace_id = ${workspaceId} AND project_id IN (${projects}))`,
    );
    const removed = await tx.query(sql`DELETE FROM projects WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::uuid[]) RETURNING id`);
    if (removed.length === 0) throw notFound(`No project among ${ids.join(", ")} exists in this workspace.`);
    return { projects: removed.length, ...counted! };
  });
}
