import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { Prisma, type Dataset } from "../db/generated/client";
import { sql } from "../db/sql";
import { conflict, isUniqueViolation, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import type { DatasetCreate, DatasetFilter, DatasetUpdate, WireDataset } from "./schema";
import { UUID } from "../core/uuid";
import { likeLiteral } from "../core/like";
import { experimentsOfDatasets } from "../sessions/service";
import { checkDatasetSchema } from "./example-schemas";
import { recordAudit } from "../audit/record";

/** A dataset's row, as Prisma Client reads it. */
export type DatasetRow = Dataset;

export const isUuid = (id: string) => UUID.test(id);
/** "dataset not found" in the text tells the JS client the route exists (see updateDatasetSplits). */
export const datasetMissing = (id: string) => notFound(`Dataset not found: no dataset ${id} in this workspace.`);
const taken = (name: string) => conflict(`A dataset named ${JSON.stringify(name)} already exists in this workspace.`);

/** The dataset row, or 404 (another workspace's dataset is missing too). */
export async function findDataset(db: Sql, workspaceId: string, id: string): Promise<DatasetRow> {
  if (!isUuid(id)) throw datasetMissing(id);
  const row = await db.prisma.dataset.findFirst({ where: { workspaceId, id } });
  if (!row) throw datasetMissing(id);
  return row;
}

const asObject = (value: unknown) => (value ?? null) as Record<string, unknown> | null;

async function wire(db: Sql, workspaceId: string, rows: DatasetRow[]): Promise<WireDataset[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [counts, experiments] = await Promise.all([
    db.prisma.exampleVersion.groupBy({
      by: ["datasetId"],
      where: { workspaceId, datasetId: { in: ids }, validTo: null },
      _count: { _all: true },
    }),
    experimentsOfDatasets(db, workspaceId, ids),
  ]);
  const exampleCount = new Map(counts.map((c) => [c.datasetId, c._count._all]));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    tenant_id: row.workspaceId,
    data_type: row.dataType,
    created_at: isoFromDb(row.createdAt)!,
    modified_at: isoFromDb(row.modifiedAt)!,
    inputs_schema_definition: row.inputsSchemaDefinition ?? null,
    outputs_schema_definition: row.outputsSchemaDefinition ?? null,
    metadata: asObject(asObject(row.extra)?.metadata),
    extra: asObject(row.extra),
    example_count: exampleCount.get(row.id) ?? 0,
    session_count: experiments.get(row.id)?.count ?? 0,
    last_session_start_time: isoFromDb(experiments.get(row.id)?.lastStart ?? null),
  }));
}

export async function datasetWire(db: Sql, workspaceId: string, row: DatasetRow): Promise<WireDataset> {
  return (await wire(db, workspaceId, [row]))[0];
}

/** A JSON column's value to write: absent (null or undefined) is SQL NULL. */
const json = (value: object | null | undefined) => (value == null ? Prisma.DbNull : (value as Prisma.InputJsonObject));

/** Inserts a dataset row; 409 when the name (or the id) is taken. */
export async function insertDataset(db: Sql, workspaceId: string, input: DatasetCreate): Promise<DatasetRow> {
  checkDatasetSchema(input.inputs_schema_definition, "inputs_schema_definition");
  checkDatasetSchema(input.outputs_schema_definition, "outputs_schema_definition");
  const extra = { ...(input.extra ?? {}), ...(input.metadata ? { metadata: input.metadata } : {}) };
  // Checked first: inside a transaction a failed INSERT would end it, so the cause could not be read after.
  if (await db.prisma.dataset.findFirst({ where: { workspaceId, name: input.name }, select: { id: true } })) throw taken(input.name);
  try {
    return await db.prisma.dataset.create({
      data: {
        id: input.id ?? randomUUID(),
        workspaceId,
        name: input.name,
        description: input.description ?? null,
        dataType: input.data_type ?? "kv",
        inputsSchemaDefinition: json(input.inputs_schema_definition),
        outputsSchemaDefinition: json(input.outputs_schema_definition),
        extra: json(Object.keys(extra).length ? extra : null),
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw input.id ? conflict(`A dataset with id ${input.id} already exists.`) : taken(input.name);
    throw error;
  }
}

/** POST /datasets. */
export async function createDataset(db: Sql, workspaceId: string, input: DatasetCreate): Promise<WireDataset> {
  return datasetWire(db, workspaceId, await insertDataset(db, workspaceId, input));
}

/** GET /datasets: an array, newest first. */
export async function listDatasets(db: Sql, workspaceId: string, q: DatasetFilter): Promise<WireDataset[]> {
  const where: Prisma.DatasetWhereInput[] = [{ workspaceId }];
  if (q.ids) where.push({ id: { in: q.ids } });
  if (q.name !== undefined) where.push({ name: q.name });
  if (q.nameContains) where.push({ name: { contains: likeLiteral(q.nameContains), mode: "insensitive" } });
  if (q.dataTypes) where.push({ dataType: { in: q.dataTypes } });
  if (q.metadata) {
    // JSON containment (nested values included) has no Prisma filter: the matching ids come first.
    const matching = await db.query<{ id: string }>(sql`
      SELECT id FROM datasets WHERE workspace_id = ${workspaceId}
        AND coalesce(extra, '{}'::jsonb) @> ${JSON.stringify({ metadata: q.metadata })}::jsonb`);
    where.push({ id: { in: matching.map((m) => m.id) } });
  }
  const rows = await db.prisma.dataset.findMany({
    where: { AND: where },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    skip: q.offset ?? 0,
    take: q.limit ?? 100,
  });
  return wire(db, workspaceId, rows);
}

export async function readDataset(db: Sql, workspaceId: string, id: string): Promise<WireDataset> {
  return datasetWire(db, workspaceId, await findDataset(db, workspaceId, id));
}

/** PATCH /datasets/{id}: fields left out or null stay as they are; metadata replaces `extra.metadata`. */
export async function updateDataset(db: Sql, workspaceId: string, id: string, change: DatasetUpdate): Promise<WireDataset> {
  const row = await findDataset(db, workspaceId, id);
  checkDatasetSchema(change.inputs_schema_definition, "inputs_schema_definition");
  checkDatasetSchema(change.outputs_schema_definition, "outputs_schema_definition");
  const data: Prisma.DatasetUpdateInput = {
    name: change.name ?? undefined,
    description: change.description ?? undefined,
    dataType: change.data_type ?? undefined,
    extra: change.metadata != null ? ({ ...(asObject(row.extra) ?? {}), metadata: change.metadata } as Prisma.InputJsonObject) : undefined,
    inputsSchemaDefinition: (change.inputs_schema_definition ?? undefined) as Prisma.InputJsonObject | undefined,
    outputsSchemaDefinition: (change.outputs_schema_definition ?? undefined) as Prisma.InputJsonObject | undefined,
  };
  if (Object.values(data).every((value) => value === undefined)) return datasetWire(db, workspaceId, row);
  try {
    return datasetWire(
      db,
      workspaceId,
      await db.prisma.dataset.update({ where: { id: row.id }, data: { ...data, modifiedAt: new Date() } }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(change.name ?? "");
    throw error;
  }
}

/** DELETE /datasets/{id}: the dataset; its examples' versions and its tags go with it (foreign keys). */
export async function deleteDataset(db: Sql, workspaceId: string, id: string): Promise<{ examples: number }> {
  const row = await findDataset(db, workspaceId, id);
  return db.prisma.$transaction(async (tx) => {
    const examples = await tx.exampleVersion.count({ where: { datasetId: row.id, validTo: null } });
    await tx.dataset.delete({ where: { id: row.id } });
    await recordAudit(tx, {
      workspaceId,
      action: "dataset.delete",
      target: { type: "dataset", id: row.id },
      before: { name: row.name, examples },
    });
    return { examples };
  });
}
