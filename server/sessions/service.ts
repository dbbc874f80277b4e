import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import type { Prisma, Project } from "../db/generated/client";
import { sql } from "../db/sql";
import { badRequest, conflict, isUniqueViolation, notFound } from "../core/errors";
import { formatMicros, isoFromDb, parseInstant } from "../core/time";
import type { Deleted, ProjectWithStats, SessionCreate, SessionFilter, SessionUpdate, WireProject } from "./schema";
import { projectStats } from "./stats";
import { deleteTraceTotalsOfProjects, runIdsOfProjects, runsOfProjectsCount } from "../runs/sets";
import { UUID } from "../core/uuid";
import { likeLiteral } from "../core/like";
import { recordAudit } from "../audit/record";

const missing = (id: string) => notFound(`Project (session) ${id} not found.`);
const taken = (name: string) => conflict(`A project named ${JSON.stringify(name)} already exists in this workspace.`);

function time(value: string | number | null | undefined, field: string): Date | null {
  if (value === null || value === undefined) return null;
  const micros = parseInstant(value);
  if (micros === null) throw badRequest(`Invalid ${field}: ${JSON.stringify(value)} is not an ISO-8601 time or epoch milliseconds.`);
  return new Date(formatMicros(micros));
}

function toWire(row: Project): WireProject {
  return {
    id: row.id,
    tenant_id: row.workspaceId,
    name: row.name,
    description: row.description,
    start_time: isoFromDb(row.startTime)!,
    end_time: isoFromDb(row.endTime),
    extra: (row.extra as Record<string, unknown> | null) ?? {},
    reference_dataset_id: row.referenceDatasetId,
    default_dataset_id: null,
    trace_tier: row.traceTier as WireProject["trace_tier"],
    long_lived_retention_days: row.longLivedRetentionDays,
  };
}

async function withStats(db: Sql, workspaceId: string, rows: Project[], include: boolean | undefined): Promise<ProjectWithStats[]> {
  if (!include) return rows.map(toWire);
  const stats = await projectStats(
    db,
    workspaceId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...toWire(row), ...stats.get(row.id) }));
}

/** GET /sessions: an array, newest first, narrowed by name, ids, dataset or metadata. */
export async function listSessions(db: Sql, workspaceId: string, q: SessionFilter): Promise<ProjectWithStats[]> {
  const where: Prisma.ProjectWhereInput[] = [{ workspaceId }];
  if (q.name !== undefined) where.push({ name: q.name });
  if (q.nameContains) where.push({ name: { contains: likeLiteral(q.nameContains), mode: "insensitive" } });
  if (q.ids) where.push({ id: { in: q.ids } });
  if (q.referenceDatasetIds) where.push({ referenceDatasetId: { in: q.referenceDatasetIds } });
  if (q.referenceFree !== undefined) where.push({ referenceDatasetId: q.referenceFree ? null : { not: null } });
  if (q.metadata) {
    // JSON containment (nested values included) has no Prisma filter: the matching ids come first.
    const matching = await db.query<{ id: string }>(sql`
      SELECT id FROM projects WHERE workspace_id = ${workspaceId}
        AND coalesce(extra, '{}'::jsonb) @> ${JSON.stringify({ metadata: q.metadata })}::jsonb`);
    where.push({ id: { in: matching.map((m) => m.id) } });
  }
  const rows = await db.prisma.project.findMany({
    where: { AND: where },
    orderBy: [{ startTime: "desc" }, { id: "asc" }],
    skip: q.offset ?? 0,
    take: q.limit ?? 100,
  });
  return withStats(db, workspaceId, rows, q.includeStats);
}

export async function readSession(db: Sql, workspaceId: string, id: string, includeStats?: boolean): Promise<ProjectWithStats> {
  const row = UUID.test(id) ? await db.prisma.project.findFirst({ where: { workspaceId, id } }) : null;
  if (!row) throw missing(id);
  return (await withStats(db, workspaceId, [row], includeStats))[0];
}

/** Per dataset: how many projects (experiments) reference it, and when the newest of them started. */
export async function experimentsOfDatasets(db: Sql, workspaceId: string, datasetIds: string[]) {
  const rows = await db.prisma.project.groupBy({
    by: ["referenceDatasetId"],
    where: { workspaceId, referenceDatasetId: { in: datasetIds } },
    _count: { _all: true },
    _max: { startTime: true },
  });
  return new Map(rows.map((r) => [r.referenceDatasetId!, { count: r._count._all, lastStart: r._max.startTime }]));
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
  const extra = (input.extra ?? undefined) as Prisma.InputJsonObject | undefined;
  try {
    const created = await db.prisma.project.create({
      data: {
        id,
        workspaceId,
        name: input.name,
        description: input.description ?? null,
        extra,
        referenceDatasetId: input.reference_dataset_id ?? null,
        startTime: time(input.start_time, "start_time") ?? new Date(),
        endTime: time(input.end_time, "end_time"),
      },
    });
    return toWire(created);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  // Taken: by the name (then upsert may update that project), or by the id.
  const named = await db.prisma.project.findFirst({ where: { workspaceId, name: input.name }, select: { id: true } });
  if (!named) throw conflict(`A project with id ${id} already exists.`);
  if (!upsert) throw taken(input.name);
  const updated = await db.prisma.project.update({
    where: { id: named.id },
    data: {
      description: input.description ?? undefined,
      extra,
      referenceDatasetId: input.reference_dataset_id ?? undefined,
    },
  });
  return toWire(updated);
}

/** PATCH /sessions/{id}: fields sent as null are left as they are (the JS client sends them all). */
export async function updateSession(db: Sql, workspaceId: string, id: string, change: SessionUpdate): Promise<ProjectWithStats> {
  if (!UUID.test(id)) throw missing(id);
  const data: Prisma.ProjectUpdateManyMutationInput = {
    name: change.name ?? undefined,
    description: change.description ?? undefined,
    extra: (change.extra ?? undefined) as Prisma.InputJsonObject | undefined,
    endTime: time(change.end_time, "end_time") ?? undefined,
    traceTier: change.trace_tier,
    longLivedRetentionDays: change.long_lived_retention_days,
  };
  // Prisma sends no UPDATE for an empty change (and counts 0): then it is only a read.
  if (Object.values(data).every((value) => value === undefined)) return readSession(db, workspaceId, id);
  const retention = change.trace_tier !== undefined || change.long_lived_retention_days !== undefined;
  const before = retention
    ? await db.prisma.project.findFirst({ where: { workspaceId, id }, select: { traceTier: true, longLivedRetentionDays: true } })
    : null;
  try {
    const { count } = await db.prisma.project.updateMany({ where: { workspaceId, id }, data });
    if (count === 0) throw missing(id);
    if (before)
      await recordAudit(db.prisma, {
        workspaceId,
        action: "project.retention.update",
        target: { type: "project", id },
        before: { trace_tier: before.traceTier, long_lived_retention_days: before.longLivedRetentionDays },
        after: {
          trace_tier: change.trace_tier ?? before.traceTier,
          long_lived_retention_days: change.long_lived_retention_days ?? before.longLivedRetentionDays,
        },
      });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(change.name ?? "");
    throw error;
  }
  return readSession(db, workspaceId, id);
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
        ${runsOfProjectsCount(workspaceId, projects)} AS runs,
        (SELECT count(*)::int FROM feedback WHERE project_id IN (${projects})) AS feedback,
        (SELECT count(*)::int FROM attachments WHERE run_id IN (${runIdsOfProjects(workspaceId, projects)})) AS attachments,
        (SELECT count(*)::int FROM chart_sets WHERE project_id IN (${projects})) AS chart_sets`);
    await deleteTraceTotalsOfProjects(tx, workspaceId, projects);
    const removed = await tx.query<{ id: string; name: string }>(
      sql`DELETE FROM projects WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::uuid[]) RETURNING id, name`,
    );
    if (removed.length === 0) throw notFound(`No project among ${ids.join(", ")} exists in this workspace.`);
    for (const project of removed)
      await recordAudit(tx, {
        workspaceId,
        action: "project.delete",
        target: { type: "project", id: project.id },
        before: { name: project.name },
      });
    return { projects: removed.length, ...counted! };
  });
}
