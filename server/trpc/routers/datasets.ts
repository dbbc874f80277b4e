import { z } from "zod";
import { datasetFromCsv } from "../../datasets/csv";
import { deleteExamples, listExamples } from "../../datasets/examples";
import { createExampleJson, updateExampleJson } from "../../datasets/json-api";
import { listSplits } from "../../datasets/splits";
import { listVersions, setTag } from "../../datasets/versions";
import { addRunsToDataset } from "../../datasets/runs";
import { addRuns, datasetCreate, dataType, split, wireDataset, wireExample, wireExamplesDeleted, wireVersion } from "../../datasets/schema";
import { createDataset, listDatasets, readDataset } from "../../datasets/service";
import { uuid } from "../../core/uuid";
import { router, workspaceProcedure, workspaceWriteProcedure } from "../init";
import { answers } from "../output";

export const datasetsRouter = router({
  list: workspaceProcedure
    .input(z.object({ nameContains: z.string().max(200).optional(), offset: z.number().int().min(0).default(0) }))
    .output(answers(z.array(wireDataset)))
    .query(({ ctx, input }) =>
      listDatasets(ctx.sql, ctx.workspaceId, { nameContains: input.nameContains || undefined, offset: input.offset, limit: 100 }),
    ),

  get: workspaceProcedure
    .input(z.object({ datasetId: uuid }))
    .output(answers(wireDataset))
    .query(({ ctx, input }) => readDataset(ctx.sql, ctx.workspaceId, input.datasetId)),

  examples: workspaceProcedure
    .input(
      z.object({
        datasetId: uuid,
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(1000).default(50),
        split: z.string().max(200).optional(),
        asOf: z.string().max(100).optional(),
      }),
    )
    .output(answers(z.array(wireExample)))
    .query(({ ctx, input }) =>
      listExamples(ctx.sql, ctx.workspaceId, {
        datasetId: input.datasetId,
        offset: input.offset,
        limit: input.limit,
        splits: input.split ? [input.split] : undefined,
        asOf: input.asOf || undefined,
      }),
    ),

  create: workspaceWriteProcedure
    .input(z.object({ dataset: datasetCreate }))
    .output(answers(wireDataset))
    .mutation(({ ctx, input }) => createDataset(ctx.sql, ctx.workspaceId, input.dataset)),

  /** The run view's "add to dataset": each run becomes an example with the run's inputs and outputs. */
  addRuns: workspaceWriteProcedure
    .input(z.object({ datasetId: uuid, body: addRuns }))
    .mutation(({ ctx, input }) => addRunsToDataset(ctx.sql, ctx.workspaceId, input.datasetId, input.body)),

  splits: workspaceProcedure
    .input(z.object({ datasetId: uuid }))
    .output(answers(z.array(z.string())))
    .query(({ ctx, input }) => listSplits(ctx.sql, ctx.workspaceId, input.datasetId)),

  versions: workspaceProcedure
    .input(z.object({ datasetId: uuid }))
    .output(answers(z.array(wireVersion)))
    .query(({ ctx, input }) => listVersions(ctx.sql, ctx.workspaceId, input.datasetId, { offset: 0, limit: 100 })),

  tagVersion: workspaceWriteProcedure
    .input(z.object({ datasetId: uuid, asOf: z.string().min(1), tag: z.string().trim().min(1, "name the tag").max(200) }))
    .output(answers(wireVersion))
    .mutation(({ ctx, input }) => setTag(ctx.sql, ctx.workspaceId, input.datasetId, { as_of: input.asOf, tag: input.tag })),

  /** The examples editor: inputs and reference outputs as JSON objects, splits as names. */
  createExample: workspaceWriteProcedure
    .input(
      z.object({
        datasetId: uuid,
        inputs: z.record(z.string(), z.unknown()),
        outputs: z.record(z.string(), z.unknown()).nullable(),
        split,
      }),
    )
    .output(answers(wireExample))
    .mutation(({ ctx, input }) =>
      createExampleJson(ctx.sql, ctx.workspaceId, {
        dataset_id: input.datasetId,
        inputs: input.inputs,
        outputs: input.outputs,
        split: input.split,
      }),
    ),

  updateExample: workspaceWriteProcedure
    .input(
      z.object({
        exampleId: uuid,
        inputs: z.record(z.string(), z.unknown()),
        outputs: z.record(z.string(), z.unknown()).nullable(),
        split,
      }),
    )
    .mutation(({ ctx, input }) =>
      updateExampleJson(ctx.sql, ctx.workspaceId, input.exampleId, { inputs: input.inputs, outputs: input.outputs, split: input.split }),
    ),

  deleteExamples: workspaceWriteProcedure
    .input(z.object({ exampleIds: z.array(uuid).min(1).max(1000) }))
    .output(answers(wireExamplesDeleted))
    .mutation(({ ctx, input }) => deleteExamples(ctx.sql, ctx.workspaceId, input.exampleIds)),

  /** A new dataset from a CSV file read in the browser. */
  uploadCsv: workspaceWriteProcedure
    .input(
      z.object({
        name: z.string().max(200),
        csv: z.string().max(20_000_000, "the CSV file is larger than 20 MB"),
        dataType: dataType.optional(),
        inputKeys: z.array(z.string()).max(200),
        outputKeys: z.array(z.string()).max(200),
      }),
    )
    .output(answers(wireDataset))
    .mutation(({ ctx, input }) => datasetFromCsv(ctx.sql, ctx.workspaceId, input)),
});
