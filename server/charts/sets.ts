import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import type { ChartSet as ChartSetRow, Prisma } from "../db/generated/client";
import { badRequest, conflict, isUniqueViolation, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { compileFilter } from "../runs/filter/index";
import {
  chartInSet,
  chartQueryFromWire,
  chartSection,
  type ChartSection,
  type ChartSetCreate,
  type ChartSetRender,
  type ChartSetUpdate,
} from "./schema";
import { chartSeries, wireChart } from "./series";
import { isUuid } from "../core/uuid";
import { readSession } from "../sessions/service";

/** A saved chart set as answered. */
export const wireChartSet = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  project_id: z.string().nullable(),
  sections: z.array(chartSection),
  created_at: z.string().nullable(),
  modified_at: z.string().nullable(),
});
export type ChartSet = z.infer<typeof wireChartSet>;

/** A chart set drawn over one range: each chart with its series. */
export const wireRenderedChartSet = wireChartSet.extend({
  sections: z.array(chartSection.extend({ charts: z.array(chartInSet.extend({ data: wireChart })) })),
});

const missing = (id: string) => notFound(`Chart set ${id} not found.`);
const taken = (name: string | undefined) => conflict(`A chart set named ${JSON.stringify(name)} already exists in this workspace.`);

function toWire(row: ChartSetRow): ChartSet {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    project_id: row.projectId,
    // Stored only after the same schema accepted them.
    sections: chartSection.array().parse(row.sections),
    created_at: isoFromDb(row.createdAt),
    modified_at: isoFromDb(row.modifiedAt),
  };
}

/** Gives sections and charts stable ids and checks every saved filter now, not when it is drawn. */
function normalise(sections: ChartSection[]): Prisma.InputJsonArray {
  return sections.map((s) => ({
    ...s,
    id: s.id ?? randomUUID(),
    charts: s.charts.map((c) => {
      for (const filter of [c.filter, c.trace_filter, c.tree_filter]) if (filter) compileFilter(filter, "r");
      return { ...c, id: c.id ?? randomUUID() };
    }),
  })) as Prisma.InputJsonArray;
}

export async function createChartSet(db: Sql, workspaceId: string, input: ChartSetCreate): Promise<ChartSet> {
  if (input.project_id) await readSession(db, workspaceId, input.project_id);
  try {
    return toWire(
      await db.prisma.chartSet.create({
        data: {
          id: randomUUID(),
          workspaceId,
          projectId: input.project_id ?? null,
          name: input.name,
          description: input.description ?? null,
          sections: normalise(input.sections),
        },
      }),
    );
  } catch (error) {
    throw isUniqueViolation(error) ? taken(input.name) : error;
  }
}

export async function listChartSets(db: Sql, workspaceId: string, projectId?: string): Promise<ChartSet[]> {
  if (projectId !== undefined && !isUuid(projectId)) throw badRequest("project_id must be a UUID.");
  const rows = await db.prisma.chartSet.findMany({ where: { workspaceId, ...(projectId ? { projectId } : {}) }, orderBy: { name: "asc" } });
  return rows.map(toWire);
}

export async function readChartSet(db: Sql, workspaceId: string, id: string): Promise<ChartSet> {
  const row = isUuid(id) ? await db.prisma.chartSet.findFirst({ where: { workspaceId, id } }) : null;
  if (!row) throw missing(id);
  return toWire(row);
}

export async function updateChartSet(db: Sql, workspaceId: string, id: string, change: ChartSetUpdate): Promise<ChartSet> {
  if (!isUuid(id)) throw missing(id);
  try {
    const { count } = await db.prisma.chartSet.updateMany({
      where: { workspaceId, id },
      data: {
        modifiedAt: new Date(),
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.description !== undefined ? { description: change.description } : {}),
        ...(change.sections !== undefined ? { sections: normalise(change.sections) } : {}),
      },
    });
    if (count === 0) throw missing(id);
  } catch (error) {
    throw isUniqueViolation(error) ? taken(change.name) : error;
  }
  return readChartSet(db, workspaceId, id);
}

export async function deleteChartSet(db: Sql, workspaceId: string, id: string): Promise<void> {
  const { count } = isUuid(id) ? await db.prisma.chartSet.deleteMany({ where: { workspaceId, id } }) : { count: 0 };
  if (count === 0) throw missing(id);
}

/** Every chart of a set over one time range; a project set's charts are scoped to its project. */
export async function renderChartSet(
  db: Sql,
  workspaceId: string,
  id: string,
  range: ChartSetRender,
): Promise<z.infer<typeof wireRenderedChartSet>> {
  const set = await readChartSet(db, workspaceId, id);
  const sections = await Promise.all(
    set.sections.map(async (section) => ({
      ...section,
      charts: await Promise.all(
        section.charts.map(async (chart) => ({
          ...chart,
          data: await chartSeries(
            db,
            workspaceId,
            chartQueryFromWire({
              ...chart,
              session: set.project_id ? [set.project_id] : chart.session,
              start_time: range.start_time,
              end_time: range.end_time,
              bucket: range.bucket ?? chart.bucket,
            }),
          ),
        })),
      ),
    })),
  );
  return { ...set, sections };
}
