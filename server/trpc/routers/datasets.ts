import { z } from "zod";
import { listExamples } from "../../datasets/examples";
import { addRunsToDataset } from "../../datasets/runs";
import { addRuns, datasetCreate, datasetListQuery, exampleListQuery } from "../../datasets/schema";
import { createDataset, listDatasets, readDataset } from "../../datasets/service";
import { uuid } from "../../core/uuid";
import { router, workspaceProcedure, workspaceWriteProcedure } from "../init";

export const datasetsRouter = router({
  list: workspaceProcedure
    .input(z.object({ nameContains: z.string().max(200).optional(), offset: z.number().int().min(0).default(0) }))
    .query(({ ctx, input }) =>
      listDatasets(
        ctx.sql,
        ctx.workspaceId,
        datasetListQuery.parse({
          name_contains: input.nameContains || undefined,
          offset: input.offset,
          limit: 100,
        }),
      ),
    ),

  get: workspaceProcedure
    .input(z.object({ datasetId: uuid }))
    .query(({ ctx, input }) => readDataset(ctx.sql, ctx.workspaceId, input.datasetId)),

  examples: workspaceProcedure
    .input(
      z.object({
        datasetId: uuid,
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(200).default(50),
        split: z.string().max(200).optional(),
      }),
    )
    .query(({ ctx, input }) =>
      listExamples(
        ctx.sql,
        ctx.workspaceId,
        exampleListQuery.parse({
          dataset: input.datasetId,
          offset: input.offset,
          limit: input.limit,
          splits: input.split || undefined,
        }),
      ),
    ),

  create: workspaceWriteProcedure
    .input(z.object({ dataset: datasetCreate }))
    .mutation(({ ctx, input }) => createDataset(ctx.sql, ctx.workspaceId, input.dataset)),

  /** The run view's "add to dataset": each run becomes an example with the run's inputs and outputs. */
  addRuns: workspaceWriteProcedure
    .input(z.object({ datasetId: uuid, body: addRuns }))
    .mutation(({ ctx, input }) => addRunsToDataset(ctx.sql, ctx.workspaceId, input.datasetId, input.body)),
});
