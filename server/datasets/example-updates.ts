import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { badRequest, conflict, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { fromStorage } from "../db/storable";
import { keptAttachments, type AttachmentsOperations } from "./attachment-operations";
import { checkExample } from "./example-schemas";
import {
  checkDistinct,
  exampleMissing,
  insertVersions,
  touchDatasets,
  withSplit,
  type Insert,
  type StoredAttachment,
  type VersionRow,
} from "./examples";
import type { WriteResult } from "./schema";
import { findDataset, isUuid } from "./service";
import { versionTime } from "./versions";

type Json = Record<string, unknown>;

export interface ExampleChange {
  id: string;
  inputs?: Json | null;
  outputs?: Json | null;
  metadata?: Json | null;
  split?: string | string[] | null;
  attachments?: Record<string, StoredAttachment>;
  /** Which current attachments stay (server/datasets/attachment-operations.ts). */
  attachments_operations?: AttachmentsOperations | null;
  /** Applied to the current metadata inside the transaction (bulk metadata operations). */
  editMetadata?: (metadata: Json) => Json;
}

function applyChange(row: VersionRow, change: ExampleChange): Insert {
  let metadata = row.metadata;
  if (change.metadata !== undefined && change.metadata !== null) {
    metadata = { ...change.metadata };
    if (row.metadata?.dataset_split !== undefined && !("dataset_split" in metadata)) metadata.dataset_split = row.metadata.dataset_split;
  }
  metadata = withSplit(metadata, change.split);
  if (change.editMetadata) metadata = change.editMetadata({ ...(metadata ?? {}) });
  return {
    id: randomUUID(),
    dataset_id: row.dataset_id,
    example_id: row.example_id,
    inputs: change.inputs ?? row.inputs,
    outputs: change.outputs ?? row.outputs,
    metadata,
    attachments: {
      ...keptAttachments(row.example_id, row.attachments ?? {}, change.attachments, change.attachments_operations),
      ...(change.attachments ?? {}),
    },
    source_run_id: row.source_run_id,
    created_at: row.created_at,
    position: row.position,
  };
}

/** New inputs and outputs must match their dataset's schemas (the parts an update leaves alone are not re-checked). */
async function checkChanges(t: Sql, changes: ExampleChange[], current: VersionRow[]): Promise<void> {
  const changing = changes.filter((c) => c.inputs != null || c.outputs != null);
  if (changing.length === 0) return;
  const datasetOf = new Map(current.map((r) => [r.example_id, r.dataset_id]));
  const datasets = await t.prisma.dataset.findMany({
    where: { id: { in: [...new Set(changing.map((c) => datasetOf.get(c.id)!))] } },
    select: { id: true, inputsSchemaDefinition: true, outputsSchemaDefinition: true },
  });
  const byId = new Map(datasets.map((d) => [d.id, d]));
  for (const c of changing) checkExample(byId.get(datasetOf.get(c.id)!)!, c.id, c.inputs, c.outputs);
}

/**
 * Why examples an update names are not there: one that is in another dataset of the workspace is a
 * 409 (the SDKs update one dataset's examples at a time and expect a conflict); else a 404.
 */
async function missingExample(t: Sql, workspaceId: string, datasetId: string | null, ids: string[]) {
  if (!datasetId) return exampleMissing(ids[0]);
  const [elsewhere] = await t.query<{ example_id: string; dataset_id: string }>(sql`
    SELECT example_id, dataset_id FROM example_versions
    WHERE workspace_id = ${workspaceId} AND example_id = ANY(${ids}::uuid[]) AND valid_to IS NULL LIMIT 1`);
  if (elsewhere)
    return conflict(
      `Example ${elsewhere.example_id} belongs to dataset ${elsewhere.dataset_id}, not ${datasetId}: update each dataset's examples through that dataset.`,
    );
  return notFound(`Example ${ids[0]} not found in dataset ${datasetId}.`);
}

/** Changes examples as one new version; every example must exist (in `datasetId` when given). */
export async function updateExamples(
  db: Sql,
  workspaceId: string,
  datasetId: string | null,
  changes: ExampleChange[],
): Promise<WriteResult> {
  if (datasetId) await findDataset(db, workspaceId, datasetId);
  if (changes.length === 0) return { count: 0, example_ids: [], as_of: null };
  const ids = changes.map((c) => c.id);
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw badRequest(`Invalid example id ${JSON.stringify(bad)}: must be a UUID.`);
  checkDistinct(ids);
  return db.transaction(async (t) => {
    const at = await versionTime(t);
    const current = await t.query<VersionRow>(sql`
      SELECT * FROM example_versions WHERE workspace_id = ${workspaceId} AND example_id = ANY(${ids}::uuid[]) AND valid_to IS NULL
        ${datasetId ? sql`AND dataset_id = ${datasetId}` : sql``} FOR UPDATE`);
    const byId = new Map(current.map((r) => [r.example_id, fromStorage(r)]));
    const gone = ids.filter((id) => !byId.has(id));
    if (gone.length) throw await missingExample(t, workspaceId, datasetId, gone);
    await checkChanges(t, changes, current);
    const next = changes.map((c) => applyChange(byId.get(c.id)!, c));
    await t.query(sql`UPDATE example_versions SET valid_to = ${at}::timestamptz WHERE id = ANY(${current.map((r) => r.id)}::uuid[])`);
    await insertVersions(t, workspaceId, next, at);
    await touchDatasets(
      t,
      current.map((r) => r.dataset_id),
      at,
    );
    return { count: ids.length, example_ids: ids, as_of: isoFromDb(at) };
  });
}
