import { z } from "zod";
import { uuid } from "../../core/uuid";
import { traceRuns } from "../../runs/trace";
import { router, workspaceProcedure } from "../init";

export const traceRouter = router({
  /** Every run of a trace in tree order, with the fields the tree shows (read one run whole with runs.get). */
  get: workspaceProcedure.input(z.object({ traceId: uuid })).query(({ ctx, input }) => traceRuns(ctx.sql, ctx.workspaceId, input.traceId)),
});
