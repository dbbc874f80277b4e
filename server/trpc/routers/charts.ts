import { z } from "zod";
import { chartQueryFromWire, chartRequest, chartSetCreate, chartSetRender, chartSetUpdate } from "../../charts/schema";
import { chartSeries, projectChartSeries, wireChart } from "../../charts/series";
import {
  createChartSet,
  deleteChartSet,
  listChartSets,
  readChartSet,
  renderChartSet,
  updateChartSet,
  wireChartSet,
  wireRenderedChartSet,
} from "../../charts/sets";
import { uuid } from "../../core/uuid";
import { router, workspaceProcedure, workspaceReadProcedure, workspaceWriteProcedure } from "../init";
import { answers } from "../output";

const setId = z.object({ id: uuid });

export const chartsRouter = router({
  /** Time-bucketed run metrics over the workspace, or one project when `projectId` is given. */
  series: workspaceReadProcedure
    .input(z.object({ projectId: uuid.nullish(), request: chartRequest }))
    .output(answers(wireChart))
    .query(({ ctx, input }) =>
      input.projectId
        ? projectChartSeries(ctx.sql, ctx.workspaceId, input.projectId, chartQueryFromWire(input.request))
        : chartSeries(ctx.sql, ctx.workspaceId, chartQueryFromWire(input.request)),
    ),

  sets: router({
    list: workspaceProcedure
      .input(z.object({ projectId: uuid.nullish() }))
      .output(answers(z.array(wireChartSet)))
      .query(({ ctx, input }) => listChartSets(ctx.sql, ctx.workspaceId, input.projectId ?? undefined)),
    get: workspaceProcedure
      .input(setId)
      .output(answers(wireChartSet))
      .query(({ ctx, input }) => readChartSet(ctx.sql, ctx.workspaceId, input.id)),
    render: workspaceReadProcedure
      .input(setId.extend({ range: chartSetRender }))
      .output(answers(wireRenderedChartSet))
      .query(({ ctx, input }) => renderChartSet(ctx.sql, ctx.workspaceId, input.id, input.range)),
    create: workspaceWriteProcedure
      .input(z.object({ set: chartSetCreate }))
      .output(answers(wireChartSet))
      .mutation(({ ctx, input }) => createChartSet(ctx.sql, ctx.workspaceId, input.set)),
    update: workspaceWriteProcedure
      .input(setId.extend({ change: chartSetUpdate }))
      .output(answers(wireChartSet))
      .mutation(({ ctx, input }) => updateChartSet(ctx.sql, ctx.workspaceId, input.id, input.change)),
    delete: workspaceWriteProcedure.input(setId).mutation(({ ctx, input }) => deleteChartSet(ctx.sql, ctx.workspaceId, input.id)),
  }),
});
