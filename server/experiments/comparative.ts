import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { badRequest, conflict, notFound } from "../core/errors";
import { isoFromDb } from "../core/time";
import { uuid } from "../core/uuid";

/** POST /datasets/comparative as the SDKs send it (createComparativeExperiment / create_comparative_experiment). */
export const comparativeCreate = z.object({
  id: uuid.nullish(),
  name: z.string().max(1000).nullish(),
  description: z.string().max(10_000).nullish(),
  experiment_ids: z.array(uuid).min(1, "needs at least one experiment").max(100),
  reference_dataset_id: uuid.nullish(),
  created_at: z.string().nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});
export type ComparativeCreate = z.infer<typeof comparativeCreate>;

interface Row {
  id: string;
  workspace_id: string;
  name: string | null;
  description: string | null;
  reference_dataset_id: string;
  extra: Record<string, unknown> | null;
  created_at: string;
  modified_at: string;
}

/**
 * Records a comparison of experiments over one dataset. Every experiment must be a project of the
 * workspace; the dataset defaults to the first experiment's and must be the same for all of them.
 */
export async function createComparativeExperiment(db: Sql, workspaceId: string, input: ComparativeCreate) {
  const ids = [...new Set(input.experiment_ids)];
  const projects = await db.query<{ id: string; name: string; reference_dataset_id: string | null }>(sql`
    SELECT id, name, reference_dataset_id FROM projects WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::uuid[])`);
  const missing = ids.filter((id) => !projects.some((p) => p.id === id));
  if (missing.length) throw notFound(`Experiment ${missing.join(", ")} not found.`);
  const datasetId = input.reference_dataset_id ?? projects.find((p) => p.id === ids[0])?.reference_dataset_id;
  if (!datasetId) throw badRequest("reference_dataset_id is required: the experiments name no dataset.");
  const [dataset] = await db.query(sql`SELECT 1 FROM datasets WHERE id = ${datasetId} AND workspace_id = ${workspaceId}`);
  if (!dataset) throw notFound(`Dataset ${datasetId} not found.`);
  const elsewhere = projects.filter((p) => p.reference_dataset_id && p.reference_dataset_id !== datasetId);
  if (elsewhere.length)
    throw badRequest(`Experiment ${elsewhere.map((p) => p.name).join(", ")} was run on another dataset than ${datasetId}.`);
  const id = input.id ?? randomUUID();
  const [row] = await db.query<Row>(sql`
    INSERT INTO comparative_experiments (id, workspace_id, name, description, reference_dataset_id, experiment_ids, extra, created_at)
    VALUES (${id}, ${workspaceId}, ${input.name ?? null}, ${input.description ?? null}, ${datasetId}, ${ids}::uuid[],
      ${input.extra ? JSON.stringify(input.extra) : null}::jsonb, coalesce(${input.created_at ?? null}::timestamptz, now()))
    ON CONFLICT (id) DO NOTHING
    RETURNING *`);
  if (!row) throw conflict(`Comparative experiment ${id} already exists.`);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tenant_id: row.workspace_id,
    reference_dataset_id: row.reference_dataset_id,
    extra: row.extra ?? {},
    created_at: isoFromDb(row.created_at),
    modified_at: isoFromDb(row.modified_at),
    experiments_info: ids.map((eid) => ({ id: eid, name: projects.find((p) => p.id === eid)!.name })),
    feedback_stats: {},
  };
}
