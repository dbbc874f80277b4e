import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import { Prisma, type ComparativeExperiment } from "../db/generated/client";
import { badRequest, conflict, isUniqueViolation } from "../core/errors";
import { isoFromDb, parseInstant } from "../core/time";
import { findDataset } from "../datasets/service";
import { loadExperiments } from "./list";
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

/**
 * Records a comparison of experiments over one dataset. Every experiment must be a project of the
 * workspace; the dataset defaults to the first experiment's and must be the same for all of them.
 */
export async function createComparativeExperiment(db: Sql, workspaceId: string, input: ComparativeCreate) {
  const ids = [...new Set(input.experiment_ids)];
  const projects = await loadExperiments(db, workspaceId, ids);
  const datasetId = input.reference_dataset_id ?? projects.find((p) => p.id === ids[0])?.reference_dataset_id;
  if (!datasetId) throw badRequest("reference_dataset_id is required: the experiments name no dataset.");
  await findDataset(db, workspaceId, datasetId);
  const elsewhere = projects.filter((p) => p.reference_dataset_id && p.reference_dataset_id !== datasetId);
  if (elsewhere.length)
    throw badRequest(`Experiment ${elsewhere.map((p) => p.name).join(", ")} was run on another dataset than ${datasetId}.`);
  const id = input.id ?? randomUUID();
  const created = input.created_at ? parseInstant(input.created_at) : null;
  if (input.created_at && created === null)
    throw badRequest(`Invalid created_at: ${JSON.stringify(input.created_at)} is not an ISO-8601 time.`);
  let row;
  try {
    row = await db.prisma.comparativeExperiment.create({
      data: {
        id,
        workspaceId,
        name: input.name ?? null,
        description: input.description ?? null,
        referenceDatasetId: datasetId,
        experimentIds: ids,
        extra: (input.extra as Prisma.InputJsonObject | undefined) ?? Prisma.DbNull,
        ...(created !== null ? { createdAt: new Date(Number(created / 1000n)) } : {}),
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`Comparative experiment ${id} already exists.`);
    throw error;
  }
  return comparativeWire(row, (id) => projects.find((p) => p.id === id)?.name ?? id, {});
}

/** A comparison as LangSmith's API answers it (`ComparativeExperiment`), each experiment with its name. */
export const wireComparative = z.object({
  id: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  tenant_id: z.string(),
  reference_dataset_id: z.string(),
  extra: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  modified_at: z.string(),
  experiments_info: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Per feedback key, the mean score of each experiment's runs. */
  feedback_stats: z.record(z.string(), z.record(z.string(), z.number())),
});
export type WireComparative = z.infer<typeof wireComparative>;

/** A comparison as LangSmith's API answers it, with each experiment's name and the feedback statistics given. */
export function comparativeWire(
  row: ComparativeExperiment,
  nameOf: (id: string) => string,
  feedbackStats: WireComparative["feedback_stats"],
): WireComparative {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tenant_id: row.workspaceId,
    reference_dataset_id: row.referenceDatasetId,
    extra: (row.extra as Record<string, unknown> | null) ?? {},
    created_at: isoFromDb(row.createdAt)!,
    modified_at: isoFromDb(row.modifiedAt)!,
    experiments_info: row.experimentIds.map((id) => ({ id, name: nameOf(id) })),
    feedback_stats: feedbackStats,
  };
}
