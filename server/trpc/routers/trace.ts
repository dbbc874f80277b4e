import { z } from "zod";
import { uuid } from "../../core/uuid";
import { traceOutline } from "../../runs/trace-outline";
import { router, workspaceProcedure } from "../init";

export const traceRouter = router({
  /**
   * A trace's outline in tree order: the fields the tree shows, as one JSON text of tuples
   * (`decodeTraceOutline` reads it); a run's inputs and outputs come from runs.get when it is selected.
   */
  get: workspaceProcedure
    .input(z.object({ traceId: uuid }))
    .query(({ ctx, input }) => traceOutline(ctx.sql, ctx.workspaceId, input.traceId)),
});
