import { z } from "zod";
import { uuid } from "../../core/uuid";
import { compareExperiments, comparisonQuery } from "../../experiments/compare";
import { listExperiments } from "../../experiments/list";
import { router, workspaceProcedure } from "../init";

export const experimentsRouter = router({
  /** A dataset's experiments with their statistics and feedback averages. */
  list: workspaceProcedure
    .input(z.object({ datasetId: uuid }))
    .query(({ ctx, input }) => listExperiments(ctx.sql, ctx.workspaceId, input.datasetId)),

  /** One experiment example by example, or several side by side against a baseline. */
  compare: workspaceProcedure.input(comparisonQuery).query(({ ctx, input }) => compareExperiments(ctx.sql, ctx.workspaceId, input)),
});
