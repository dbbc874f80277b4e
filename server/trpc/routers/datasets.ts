import { z } from "zod";
import { listExamples } from "../../datasets/examples";
import { addRunsToDataset } from "../../datasets/runs";
import { addRuns, datasetCreate, datasetListQuery, exampleListQuery } from "../../datasets/schema";
import { createDataset, listDatasets, readDataset } from "../../datasets/service";
import { uuid } from "../../core/uuid";
import { router, workspaceProcedure, workspaceWriteProcedure } from "../init";

/** The wire shapes the datasets pages read (server/datasets/service.ts and examples.ts). */
export interface DatasetView {
  id: string;
  name: string;
  description: string | null;
  data_type: string;
  created_at: string;
  modified_at: string;
  example_count: number;
  session_count: number;
  metadata: Record<string, unknown> | null;
}

export interface ExampleView {
  id: string;
  dataset_id: string;
  inputs: unknown;
  outputs: unknown;
  metadata: Record<string, unknown> | null;
  created_at: string;
  modified_at: string;
  source_run_id: string | null;
}

export const datasetsRouter = router({
  list: workspaceProcedure.input(z.object({ nameContains: z.string().max(200).optional(), offset: z.number().int().min(0).default(0) }))
    .query(async ({ ctx, input }) => (await listDatasets(ctx.sql, ctx.workspaceId, datasetListQuery.parse({
      name_contains: input.nameContains || undefined, offset: input.offset, limit: 100,
    }))) as unknown as DatasetView[]),

  get: workspaceProcedure.input(z.object({ datasetId: uuid })).query(async ({ ctx, input }) =>
    (await readDataset(ctx.sql, ctx.workspaceId, input.datasetId)) as unknown as DatasetView),

  examples: workspaceProcedure
    .input(z.object({ datasetId: uuid, offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(200).default(50), split: z.string().max(200).optional() }))
    .query(async ({ ctx, input }) => (await listExamples(ctx.sql, ctx.workspaceId, exampleListQuery.parse({
      dataset: input.datasetId, offset: input.offset, limit: input.limit, splits: input.split || undefined,
    }))) as unknown as ExampleView[]),

  create: workspaceWriteProcedure.input(z.object({ dataset: datasetCreate })).mutation(async ({ ctx, input }) =>
    (await createDataset(ctx.sql, ctx.workspaceId, input.dataset)) as unknown as DatasetView),

  /** The run view's "add to dataset": each run becomes an example with the run's inputs and outputs. */
  addRuns: workspaceWriteProcedure.input(z.object({ datasetId: uuid, body: addRuns })).mutation(async ({ ctx, input }) =>
    (await addRunsToDataset(ctx.sql, ctx.workspaceId, input.datasetId, input.body)) as unknown as ExampleView[]),
});
