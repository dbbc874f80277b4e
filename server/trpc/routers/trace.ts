import { z } from "zod";
import { uuid } from "../../runs/schema";
import { traceRuns } from "../../runs/trace";
import { router, workspaceProcedure } from "../init";
import type { RunSummary } from "../types";

export const traceRouter = router({
  /** Every run of a trace in tree order, without inputs and outputs (read one run with runs.get). */
  get: workspaceProcedure.input(z.object({ traceId: uuid })).query(async ({ ctx, input }) => {
    const trace = await traceRuns(ctx.sql, ctx.workspaceId, input.traceId);
    return { runs: trace.runs as unknown as RunSummary[], truncated: trace.truncated };
  }),
});
