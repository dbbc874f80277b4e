import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { join, sql, type SqlFragment } from "../db/sql";
import { conflict, isUniqueViolation, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import type { DatasetCreate, DatasetListQuery, DatasetUpdate, WireDataset } from "./schema";
import { UUID } from "../core/uuid";

export interface DatasetRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  data_type: string;
  inputs_schema_definition: unknown;
  outputs_schema_definition: unknown;
  extra: Record<string, unknown> | null;
  created_at: string;
  modified_at: string;
}

export const isUuid = (id: string) => UUID.test(id);
/** "dataset not found" in the text tells the JS client the route exists (see updateDatasetSplits). */
export const datasetMissing = (id: string) => notFound(`Dataset not found: no dataset ${id} in this workspace.`);
const taken = (name: string) => conflict(`A dataset named ${JSON.stringify(name)} already exists in this workspace.`);

/** The dataset row, or 404 (another workspace's dataset is missing too). */
export async function findDataset(db: Sql, workspaceId: string, id: string): Promise<DatasetRow> {
  if (!isUuid(id)) throw datasetMissing(id);
  const [row] = await db.query<DatasetRow>(sql`SELECT * FROM datasets WHERE workspace_id = ${workspaceId} AND id = ${id}`);
  if (!row) throw datasetMissing(id);
  return row;
}

async function wire(db: Sql, workspaceId: string, rows: DatasetRow[]): Promise<WireDataset[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const counts = await db.query<{ dataset_id: string; n: number }>(sql`
    SELECT dataset_id, count(*)::int AS n FROM example_versions
    WHERE workspace_id = ${workspaceId} AND dataset_id = ANY(${ids}::uuid[]) AND valid_to IS NULL GROUP BY dataset_id`);
  const sessions = await db.query<{ dataset_id: string; n: number; last: string | null }>(sql`
    SELECT reference_dataset_id AS dataset_id, count(*)::int AS n, max(start_time) AS last FROM projects
    WHERE workspace_id = ${workspaceId} AND reference_dataset_id = ANY(${ids}::uuid[]) GROUP BY reference_dataset_id`);
  const exampleCount = new Map(counts.map((c) => [c.dataset_id, c.n]));
  const sessionStats = new Map(sessions.map((s) => [s.dataset_id, s]));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    tenant_id: row.workspace_id,
    data_type: row.data_type,
    created_at: isoFromDb(row.created_at)!,
    modified_at: isoFromDb(row.modified_at)!,
    inputs_schema_definition: row.inputs_schema_definition ?? null,
    outputs_schema_definition: row.outputs_schema_definition ?? null,
    metadata: (row.extra?.metadata as Record<string, unknown> | undefined) ?? null,
    extra: row.extra ?? null,
    example_count: exampleCount.get(row.id) ?? 0,
    session_count: sessionStats.get(row.id)?.n ?? 0,
    last_session_start_time: isoFromDb(sessionStats.get(row.id)?.last ?? null),
  }));
}

export async function datasetWire(db: Sql, workspaceId: string, row: DatasetRow): Promise<WireDataset> {
  return (await wire(db, workspaceId, [row]))[0];
}

/** Inserts a dataset row; 409 when the name (or the id) is taken. */
export async function insertDataset(db: Sql, workspaceId: string, input: DatasetCreate): Promise<DatasetRow> {
  const extra = { ...(input.extra ?? {}), ...(input.metadata ? { metadata: input.metadata } : {}) };
  const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  try {
    const rows = await db.query<DatasetRow>(sql`
      INSERT INTO datasets (id, workspace_id, name, description, data_type, inputs_schema_definition, outputs_schema_definition, extra)
      VALUES (${input.id ?? randomUUID()}, ${workspaceId}, ${input.name}, ${input.description ?? null}, ${input.data_type ?? "kv"},
        ${json(input.inputs_schema_definition)}::jsonb, ${json(input.outputs_schema_definition)}::jsonb,
        ${Object.keys(extra).length ? JSON.stringify(extra) : null}::jsonb)
      ON CONFLICT (workspace_id, name) DO NOTHING RETURNING *`);
    if (rows.length === 0) throw taken(input.name);
    return rows[0];
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A dataset with id ${input.id} already exists.`);
    throw error;
  }
}

/** POST /datasets. */
export async function createDataset(db: Sql, workspaceId: string, input: DatasetCreate): Promise<WireDataset> {
  return datasetWire(db, workspaceId, await insertDataset(db, workspaceId, input));
}

/** GET /datasets: an array, newest first. */
export async function listDatasets(db: Sql, workspaceId: string, q: DatasetListQuery): Promise<WireDataset[]> {
  const where: SqlFragment[] = [sql`workspace_id = ${workspaceId}`];
  if (q.id) where.push(sql`id = ANY(${q.id}::uuid[])`);
  if (q.name !== undefined) where.push(sql`name = ${q.name}`);
  if (q.name_contains) where.push(sql`name ILIKE ${`%${q.name_contains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  if (q.data_type) where.push(sql`data_type = ANY(${q.data_type}::text[])`);
  if (q.metadata) where.push(sql`coalesce(extra, '{}'::jsonb) @> ${JSON.stringify({ metadata: q.metadata })}::jsonb`);
  const rows = await db.query<DatasetRow>(sql`
    SELECT * FROM datasets WHERE ${join(where, " AND ")} ORDER BY created_at DESC, id LIMIT ${q.limit} OFFSET ${q.offset}`);
  return wire(db, workspaceId, rows);
}

export async function readDataset(db: Sql, workspaceId: string, id: string): Promise<WireDataset> {
  return datasetWire(db, workspaceId, await findDataset(db, workspaceId, id));
}

/** PATCH /datasets/{id}: fields left out or null stay as they are. */
export async function updateDataset(db: Sql, workspaceId: string, id: string, change: DatasetUpdate): Promise<WireDataset> {
  await findDataset(db, workspaceId, id);
  const sets: SqlFragment[] = [];
  if (change.name != null) sets.push(sql`name = ${change.name}`);
  if (change.description != null) sets.push(sql`description = ${change.description}`);
  if (change.data_type != null) sets.push(sql`data_type = ${change.data_type}`);
  if (change.metadata != null)
    sets.push(sql`extra = coalesce(extra, '{}'::jsonb) || ${JSON.stringify({ metadata: change.metadata })}::jsonb`);
  if (change.inputs_schema_definition != null)
    sets.push(sql`inputs_schema_definition = ${JSON.stringify(change.inputs_schema_definition)}::jsonb`);
  if (change.outputs_schema_definition != null)
    sets.push(sql`outputs_schema_definition = ${JSON.stringify(change.outputs_schema_definition)}::jsonb`);
  if (sets.length === 0) return readDataset(db, workspaceId, id);
  try {
    const [row] = await db.query<DatasetRow>(sql`
      UPDATE datasets SET ${join(sets)}, modified_at = now() WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING *`);
    if (!row) throw datasetMissing(id);
    return datasetWire(db, workspaceId, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(change.name ?? "");
    throw error;
  }
}

/** DELETE /datasets/{id}: the dataset with every version of its examples and its tags. */
export async function deleteDataset(db: Sql, workspaceId: string, id: string): Promise<{ examples: number }> {
  await findDataset(db, workspaceId, id);
  return db.tx(async (t) => {
    const [{ n }] = await t.query<{ n: number }>(sql`
      WITH d AS (DELETE FROM example_versions WHERE workspace_id = ${workspaceId} AND dataset_id = ${id} AND valid_to IS NULL RETURNING 1)
      SELECT count(*)::int AS n FROM d`);
    await t.query(sql`DELETE FROM example_versions WHERE workspace_id = ${workspaceId} AND dataset_id = ${id}`);
    await t.query(sql`DELETE FROM dataset_tags WHERE workspace_id = ${workspaceId} AND dataset_id = ${id}`);
    await t.query(sql`DELETE FROM datasets WHERE workspace_id = ${workspaceId} AND id = ${id}`);
    return { examples: n };
  });
}
