import { z } from "zod";
import { alertCreate, alertUpdate, wireAlertEvent, wireAlertSeries, wireAlertTest } from "../../alerts/schema";
import { alertSeries } from "../../alerts/series";
import { alertHistory, createAlert, deleteAlert, listAlerts, readAlert, testAlert, updateAlert } from "../../alerts/service";
import { uuid } from "../../core/uuid";
import { router, workspaceProcedure, workspaceReadProcedure, workspaceWriteProcedure } from "../init";
import { answers } from "../output";

const alertId = z.object({ alertId: uuid });

/** The Alerts pages (a project's tab and the workspace's): rules, their chart, history and tests. */
export const alertsRouter = router({
  list: workspaceProcedure
    .input(z.object({ projectId: uuid.nullish() }))
    .query(({ ctx, input }) => listAlerts(ctx.sql, ctx.workspaceId, { session_id: input.projectId ?? undefined, limit: 1000, offset: 0 })),
  get: workspaceProcedure.input(alertId).query(({ ctx, input }) => readAlert(ctx.sql, ctx.workspaceId, input.alertId)),
  series: workspaceReadProcedure
    .input(alertId)
    .output(answers(wireAlertSeries))
    .query(({ ctx, input }) => alertSeries(ctx.sql, ctx.workspaceId, input.alertId)),
  history: workspaceProcedure
    .input(alertId)
    .output(answers(z.array(wireAlertEvent)))
    .query(({ ctx, input }) => alertHistory(ctx.sql, ctx.workspaceId, input.alertId, { limit: 50, offset: 0 })),
  create: workspaceWriteProcedure
    .input(z.object({ alert: alertCreate }))
    .mutation(({ ctx, input }) => createAlert(ctx.sql, ctx.workspaceId, input.alert)),
  update: workspaceWriteProcedure
    .input(alertId.extend({ change: alertUpdate }))
    .mutation(({ ctx, input }) => updateAlert(ctx.sql, ctx.workspaceId, input.alertId, input.change)),
  delete: workspaceWriteProcedure.input(alertId).mutation(({ ctx, input }) => deleteAlert(ctx.sql, ctx.workspaceId, input.alertId)),
  test: workspaceWriteProcedure
    .input(alertId)
    .output(answers(wireAlertTest))
    .mutation(({ ctx, input }) => testAlert(ctx.sql, ctx.workspaceId, input.alertId)),
});
