import { z } from "zod";
import { uuid } from "../../core/uuid";
import { compareExperiments, comparisonQuery } from "../../experiments/compare";
import { listExperiments } from "../../experiments/list";
import {
  listComparativeExperiments,
  pairwiseSummary,
  preferenceInput,
  recordPreference,
  startPairwise,
  wirePairwiseSummary,
} from "../../experiments/pairwise";
import { router, workspaceProcedure, workspaceWriteProcedure } from "../init";
import { answers } from "../output";

export const experimentsRouter = router({
  /** A dataset's experiments with their statistics and feedback averages. */
  list: workspaceProcedure
    .input(z.object({ datasetId: uuid }))
    .query(({ ctx, input }) => listExperiments(ctx.sql, ctx.workspaceId, input.datasetId)),

  /** One experiment example by example, or several side by side against a baseline. */
  compare: workspaceProcedure.input(comparisonQuery).query(({ ctx, input }) => compareExperiments(ctx.sql, ctx.workspaceId, input)),

  /** A dataset's pairwise comparisons with their win rates. */
  pairwiseList: workspaceProcedure
    .input(z.object({ datasetId: uuid }))
    .output(answers(z.array(wirePairwiseSummary)))
    .query(({ ctx, input }) => listComparativeExperiments(ctx.sql, ctx.workspaceId, input.datasetId)),

  pairwise: workspaceProcedure
    .input(z.object({ comparativeId: uuid }))
    .query(({ ctx, input }) => pairwiseSummary(ctx.sql, ctx.workspaceId, input.comparativeId)),

  startPairwise: workspaceWriteProcedure
    .input(z.object({ experimentIds: z.array(uuid).length(2, "pick exactly two experiments") }))
    .mutation(({ ctx, input }) => startPairwise(ctx.sql, ctx.workspaceId, input)),

  /** A reviewer's pick of the better output for one example (or a tie). */
  prefer: workspaceWriteProcedure
    .input(preferenceInput)
    .mutation(({ ctx, input }) => recordPreference(ctx.sql, ctx.workspaceId, ctx.userId, input)),
});
