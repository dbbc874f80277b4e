import { randomUUID } from "node:crypto";
import { blobUrl } from "../blobs/store";
import type { Sql } from "../db/client";
import { runsByIds } from "../runs/lookup";
import { join, sql, type SqlFragment } from "../db/sql";
import { badRequest, conflict, notFound } from "../core/errors";
import { formatMicros, isoFromDb, parseInstant } from "../core/time";
import { checkExample } from "./example-schemas";
import { compileExampleFilter } from "./filter";
import type { ExampleFilter, WireExample, WriteResult } from "./schema";
import { findDataset, isUuid } from "./service";
import { resolveAsOf, versionTime, visibleAt } from "./versions";
import { fromStorage, storableJson } from "../db/storable";

type Json = Record<string, unknown>;

export interface StoredAttachment {
  blob_key: string;
  mime_type: string;
  size: number;
}

export interface NewExample {
  id?: string | null;
  inputs?: Json | null;
  outputs?: Json | null;
  metadata?: Json | null;
  split?: string | string[] | null;
  source_run_id?: string | null;
  use_source_run_io?: boolean | null;
  /** Names of the source run's attachments to copy onto the example. */
  use_source_run_attachments?: string[] | null;
  created_at?: string | number | null;
  attachments?: Record<string, StoredAttachment>;
}

export interface VersionRow {
  id: string;
  dataset_id: string;
  example_id: string;
  inputs: Json;
  outputs: Json | null;
  metadata: Json | null;
  attachments: Record<string, StoredAttachment> | null;
  source_run_id: string | null;
  created_at: string;
  /** Index in the creating request, kept by every later version (list order after created_at). */
  position: number;
  valid_from: string;
}

export const exampleMissing = (id: string) => notFound(`Example ${id} not found in this workspace.`);

export function withSplit(metadata: Json | null, split: string | string[] | null | undefined): Json | null {
  if (split === undefined || split === null) return metadata;
  return { ...(metadata ?? {}), dataset_split: Array.isArray(split) ? [...new Set(split)] : [split] };
}

export function checkDistinct(ids: string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw badRequest(`Example ${id} appears twice in one request.`);
    seen.add(id);
  }
}

export async function exampleWire(stored: VersionRow): Promise<WireExample> {
  const row = fromStorage(stored);
  const attachments = Object.entries(row.attachments ?? {});
  const links = Object.fromEntries(
    await Promise.all(
      attachments.map(async ([name, a]) => {
        const url = await blobUrl(a.blob_key, a.mime_type);
        return [`attachment.${name}`, { presigned_url: url, s3_url: url, mime_type: a.mime_type }] as const;
      }),
    ),
  );
  return {
    id: row.example_id,
    dataset_id: row.dataset_id,
    inputs: row.inputs,
    outputs: row.outputs,
    metadata: row.metadata,
    created_at: isoFromDb(row.created_at)!,
    modified_at: isoFromDb(row.valid_from)!,
    source_run_id: row.source_run_id,
    attachment_urls: attachments.length ? links : null,
  };
}

export type Insert = Omit<VersionRow, "valid_from" | "created_at"> & { created_at: string | null };

export async function insertVersions(t: Sql, workspaceId: string, rows: Insert[], at: string): Promise<void> {
  if (rows.length === 0) return;
  await t.query(sql`
    INSERT INTO example_versions (id, workspace_id, dataset_id, example_id, inputs, outputs, metadata, attachments, source_run_id, created_at, position, valid_from)
    SELECT v.id, ${workspaceId}::uuid, v.dataset_id, v.example_id, coalesce(v.inputs, '{}'::jsonb), v.outputs, v.metadata,
      coalesce(v.attachments, '{}'::jsonb), v.source_run_id, coalesce(v.created_at, ${at}::timestamptz), v.position, ${at}::timestamptz
    FROM jsonb_to_recordset(${storableJson(rows)}::jsonb) AS v(id uuid, dataset_id uuid, example_id uuid, inputs jsonb, outputs jsonb,
      metadata jsonb, attachments jsonb, source_run_id uuid, created_at timestamptz, position integer)`);
}

export async function touchDatasets(t: Sql, datasetIds: string[], at: string): Promise<void> {
  await t.prisma.dataset.updateMany({ where: { id: { in: [...new Set(datasetIds)] } }, data: { modifiedAt: new Date(at) } });
}

async function sourceRuns(db: Sql, workspaceId: string, items: NewExample[]) {
  const wanted = items.filter((i) => i.source_run_id && (i.use_source_run_io || i.use_source_run_attachments?.length));
  const ids = [...new Set(wanted.map((i) => i.source_run_id!))];
  if (ids.length === 0)
    return {
      runs: new Map<string, { inputs: Json | null; outputs: Json | null }>(),
      files: [] as ({ run_id: string; name: string } & StoredAttachment)[],
    };
  const rows = await runsByIds<{ id: string; inputs: Json | null; outputs: Json | null }>(db, workspaceId, ids, ["inputs", "outputs"]);
  const runs = new Map(rows.map((r) => [r.id, fromStorage(r)]));
  const gone = ids.find((id) => !runs.has(id));
  if (gone) throw notFound(`Run ${gone} (a source_run_id) not found in this workspace.`);
  const files = await db.query<{ run_id: string; name: string } & StoredAttachment>(sql`
    SELECT run_id, name, mime_type, size, blob_key FROM attachments WHERE workspace_id = ${workspaceId} AND run_id = ANY(${ids}::uuid[])`);
  return { runs, files };
}

/** Adds examples to a dataset as one new version (multipart POST, POST /examples, bulk, CSV, runs). */
export async function createExamples(db: Sql, workspaceId: string, datasetId: string, items: NewExample[]): Promise<WriteResult> {
  const dataset = await findDataset(db, workspaceId, datasetId);
  if (items.length === 0) return { count: 0, example_ids: [], as_of: null };
  const ids = items.map((i) => i.id ?? randomUUID());
  checkDistinct(ids);
  const { runs, files } = await sourceRuns(db, workspaceId, items);
  const rows: Insert[] = items.map((item, i) => {
    const run = item.source_run_id ? runs.get(item.source_run_id) : undefined;
    const inputs = item.use_source_run_io && run ? (run.inputs ?? {}) : item.inputs;
    if (inputs === null || inputs === undefined) throw badRequest(`Example ${ids[i]} has no inputs.`);
    const outputs = item.use_source_run_io && run ? run.outputs : (item.outputs ?? null);
    const attachments: Record<string, StoredAttachment> = {};
    for (const name of item.use_source_run_attachments ?? []) {
      const file = files.find((f) => f.run_id === item.source_run_id && f.name === name);
      if (!file) throw notFound(`Run ${item.source_run_id} has no attachment named ${JSON.stringify(name)}.`);
      attachments[name] = { blob_key: file.blob_key, mime_type: file.mime_type, size: file.size };
    }
    Object.assign(attachments, item.attachments ?? {});
    let created: string | null = null;
    if (item.created_at !== undefined && item.created_at !== null) {
      const micros = parseInstant(item.created_at);
      if (micros === null) throw badRequest(`Invalid created_at of example ${ids[i]}: ${JSON.stringify(item.created_at)}.`);
      created = formatMicros(micros);
    }
    return {
      id: randomUUID(),
      dataset_id: datasetId,
      example_id: ids[i],
      inputs,
      outputs: outputs ?? null,
      metadata: withSplit(item.metadata ?? null, item.split),
      attachments,
      source_run_id: item.source_run_id ?? null,
      created_at: created,
      position: i,
    };
  });
  for (const row of rows) checkExample(dataset, row.example_id, row.inputs, row.outputs);
  return db.transaction(async (t) => {
    const at = await versionTime(t);
    const [taken] = await t.query<{ example_id: string }>(
      sql`SELECT example_id FROM example_versions WHERE example_id = ANY(${ids}::uuid[]) LIMIT 1`,
    );
    if (taken) throw conflict(`An example with id ${taken.example_id} already exists.`);
    await insertVersions(t, workspaceId, rows, at);
    await touchDatasets(t, [datasetId], at);
    return { count: ids.length, example_ids: ids, as_of: isoFromDb(at) };
  });
}

/** Soft delete ends the examples' current versions (older versions still show them); hard delete removes every version. */
export async function deleteExamples(
  db: Sql,
  workspaceId: string,
  ids: string[],
  hard = false,
): Promise<{ count: number; example_ids: string[] }> {
  if (ids.length === 0) throw badRequest("Name the examples to delete with example_ids.");
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw badRequest(`Invalid example id ${JSON.stringify(bad)}: must be a UUID.`);
  return db.transaction(async (t) => {
    const at = await versionTime(t);
    const ended = hard
      ? await t.query<{ example_id: string; dataset_id: string }>(sql`
          DELETE FROM example_versions WHERE workspace_id = ${workspaceId} AND example_id = ANY(${ids}::uuid[]) RETURNING example_id, dataset_id`)
      : await t.query<{ example_id: string; dataset_id: string }>(sql`
          UPDATE example_versions SET valid_to = ${at}::timestamptz
          WHERE workspace_id = ${workspaceId} AND example_id = ANY(${ids}::uuid[]) AND valid_to IS NULL RETURNING example_id, dataset_id`);
    if (ended.length === 0) throw notFound(`No example among ${ids.join(", ")} exists in this workspace.`);
    await touchDatasets(
      t,
      ended.map((r) => r.dataset_id),
      at,
    );
    const deleted = [...new Set(ended.map((r) => r.example_id))];
    return { count: deleted.length, example_ids: deleted };
  });
}

/** GET /examples: by dataset and/or ids, as of a version, narrowed by splits, metadata and a filter. */
export async function listExamples(db: Sql, workspaceId: string, q: ExampleFilter): Promise<WireExample[]> {
  if (!q.datasetId && !q.ids) throw badRequest("Name a dataset (dataset=<id>) or examples (id=<id>, repeatable).");
  if (q.datasetId) await findDataset(db, workspaceId, q.datasetId);
  const asOf = await resolveAsOf(db, workspaceId, q.datasetId ?? null, q.asOf);
  const where: SqlFragment[] = [sql`workspace_id = ${workspaceId}`, visibleAt(asOf)];
  if (q.datasetId) where.push(sql`dataset_id = ${q.datasetId}`);
  if (q.ids) where.push(sql`example_id = ANY(${q.ids}::uuid[])`);
  if (q.splits) where.push(sql`coalesce(metadata -> 'dataset_split', '[]'::jsonb) ?| ${q.splits}::text[]`);
  if (q.metadata) where.push(sql`coalesce(metadata, '{}'::jsonb) @> ${JSON.stringify(q.metadata)}::jsonb`);
  if (q.filter) where.push(compileExampleFilter(q.filter));
  const rows = await db.query<VersionRow>(sql`
    SELECT * FROM example_versions WHERE ${join(where, " AND ")}
    ORDER BY created_at, position, example_id LIMIT ${q.limit ?? 100} OFFSET ${q.offset ?? 0}`);
  return Promise.all(rows.map(exampleWire));
}

/** GET /examples/{id}[?as_of=]: the current version, or the one in force at as_of. */
export async function readExample(db: Sql, workspaceId: string, id: string, asOfValue?: string): Promise<WireExample> {
  if (!isUuid(id)) throw exampleMissing(id);
  let asOf: string | null = null;
  if (asOfValue !== undefined) {
    const [any] = await db.query<{ dataset_id: string }>(sql`
      SELECT dataset_id FROM example_versions WHERE workspace_id = ${workspaceId} AND example_id = ${id} LIMIT 1`);
    if (!any) throw exampleMissing(id);
    asOf = await resolveAsOf(db, workspaceId, any.dataset_id, asOfValue);
  }
  const [row] = await db.query<VersionRow>(sql`
    SELECT * FROM example_versions WHERE workspace_id = ${workspaceId} AND example_id = ${id} AND ${visibleAt(asOf)}`);
  if (!row) throw exampleMissing(id);
  return exampleWire(row);
}

/** The dataset's `n` most recently changed current examples, their inputs and outputs (a model's context). */
export async function recentExamples(db: Sql, workspaceId: string, datasetId: string, n: number) {
  const rows = await db.prisma.exampleVersion.findMany({
    where: { workspaceId, datasetId, validTo: null },
    orderBy: { validFrom: "desc" },
    take: n,
    select: { inputs: true, outputs: true },
  });
  return fromStorage(rows);
}

/** The current versions of examples, as the SDKs read them, in the order of `ids`. */
export async function readExamples(db: Sql, workspaceId: string, ids: string[]): Promise<WireExample[]> {
  const rows = await db.query<VersionRow>(sql`
    SELECT * FROM example_versions WHERE workspace_id = ${workspaceId} AND example_id = ANY(${ids}::uuid[]) AND valid_to IS NULL`);
  const byId = new Map(rows.map((r) => [r.example_id, r]));
  return Promise.all(ids.filter((id) => byId.has(id)).map((id) => exampleWire(byId.get(id)!)));
}

/** The current version of each of these examples, whatever its workspace (match on `workspace_id` too). Content still escaped. */
export async function currentExamples(db: Sql, exampleIds: string[]) {
  if (exampleIds.length === 0) return [];
  return db.query<{ example_id: string; workspace_id: string; inputs: unknown; outputs: unknown; metadata: unknown }>(sql`
    SELECT example_id, workspace_id, inputs, outputs, metadata FROM example_versions
    WHERE example_id = ANY(${exampleIds}::uuid[]) AND valid_to IS NULL`);
}
