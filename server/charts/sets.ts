import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { join, sql, type SqlFragment } from "../db/sql";
import { badRequest, conflict, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { compileFilter } from "../runs/filter/index";
import type { ChartSection, ChartSetCreate, ChartSetRender, ChartSetUpdate } from "./schema";
import { chartSeries, type Chart } from "./series";
import { UUID } from "../core/uuid";

interface ChartSetRow {
  id: string;
  workspace_id: string;
  project_id: string | null;
  name: string;
  description: string | null;
  sections: ChartSection[];
  created_at: string;
  modified_at: string;
}

export interface ChartSet {
  id: string;
  name: string;
  description: string | null;
  project_id: string | null;
  sections: ChartSection[];
  created_at: string | null;
  modified_at: string | null;
}

const missing = (id: string) => notFound(`Chart set ${id} not found.`);
const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

function toWire(row: ChartSetRow): ChartSet {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    project_id: row.project_id,
    sections: row.sections,
    created_at: isoFromDb(row.created_at),
    modified_at: isoFromDb(row.modified_at),
  };
}

/** Gives sections and charts stable ids and checks every saved filter now, not when it is drawn. */
function normalise(sections: ChartSection[]): ChartSection[] {
  return sections.map((s) => ({
    ...s,
    id: s.id ?? randomUUID(),
    charts: s.charts.map((c) => {
      for (const filter of [c.filter, c.trace_filter, c.tree_filter]) if (filter) compileFilter(filter, "r");
      return { ...c, id: c.id ?? randomUUID() };
    }),
  }));
}

async function projectExists(db: Sql, workspaceId: string, projectId: string): Promise<void> {
  const rows = await db.query(sql`SELECT 1 FROM projects WHERE workspace_id = ${workspaceId} AND id = ${projectId}`);
  if (rows.length === 0) throw notFound(`Project (session) ${projectId} not found.`);
}

export async function createChartSet(db: Sql, workspaceId: string, input: ChartSetCreate): Promise<ChartSet> {
  if (input.project_id) await projectExists(db, workspaceId, input.project_id);
  try {
    const [row] = await db.query<ChartSetRow>(sql`
      INSERT INTO chart_sets (id, workspace_id, project_id, name, description, sections)
      VALUES (${randomUUID()}, ${workspaceId}, ${input.project_id ?? null}, ${input.name}, ${input.description ?? null},
        ${JSON.stringify(normalise(input.sections))}::jsonb)
      RETURNING *`);
    return toWire(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A chart set named ${JSON.stringify(input.name)} already exists in this workspace.`);
    throw error;
  }
}

export async function listChartSets(db: Sql, workspaceId: string, projectId?: string): Promise<ChartSet[]> {
  if (projectId !== undefined && !UUID.test(projectId)) throw badRequest("project_id must be a UUID.");
  const rows = await db.query<ChartSetRow>(sql`
    SELECT * FROM chart_sets WHERE workspace_id = ${workspaceId}${projectId ? sql` AND project_id = ${projectId}` : sql``}
    ORDER BY name`);
  return rows.map(toWire);
}

export async function readChartSet(db: Sql, workspaceId: string, id: string): Promise<ChartSet> {
  if (!UUID.test(id)) throw missing(id);
  const [row] = await db.query<ChartSetRow>(sql`SELECT * FROM chart_sets WHERE workspace_id = ${workspaceId} AND id = ${id}`);
  if (!row) throw missing(id);
  return toWire(row);
}

export async function updateChartSet(db: Sql, workspaceId: string, id: string, change: ChartSetUpdate): Promise<ChartSet> {
  if (!UUID.test(id)) throw missing(id);
  const sets: SqlFragment[] = [sql`modified_at = now()`];
  if (change.name !== undefined) sets.push(sql`name = ${change.name}`);
  if (change.description !== undefined) sets.push(sql`description = ${change.description}`);
  if (change.sections !== undefined) sets.push(sql`sections = ${JSON.stringify(normalise(change.sections))}::jsonb`);
  try {
    const [row] = await db.query<ChartSetRow>(sql`
      UPDATE chart_sets SET ${join(sets)} WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING *`);
    if (!row) throw missing(id);
    return toWire(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A chart set named ${JSON.stringify(change.name)} already exists in this workspace.`);
    throw error;
  }
}

export async function deleteChartSet(db: Sql, workspaceId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw missing(id);
  const rows = await db.query(sql`DELETE FROM chart_sets WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`);
  if (rows.length === 0) throw missing(id);
}

/** Every chart of a set over one time range; a project set's charts are scoped to its project. */
export async function renderChartSet(db: Sql, workspaceId: string, id: string, range: ChartSetRender): Promise<ChartSet & { sections: (ChartSection & { charts: (ChartSection["charts"][number] & { data: Chart })[] })[] }> {
  const set = await readChartSet(db, workspaceId, id);
  const sections = await Promise.all(set.sections.map(async (section) => ({
    ...section,
    charts: await Promise.all(section.charts.map(async (chart) => ({
      ...chart,
      data: await chartSeries(db, workspaceId, {
        ...chart,
        session: set.project_id ? [set.project_id] : chart.session,
        start_time: range.start_time,
        end_time: range.end_time,
        bucket: range.bucket ?? chart.bucket,
      }),
    }))),
  })));
  return { ...set, sections };
}
