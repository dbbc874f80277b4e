import { z } from "zod";
import { projectChartSeries, wireChart } from "../../charts/series";
import { listRefusals, wireRefusal } from "../../ingest/errors-log";
import { uuid } from "../../core/uuid";
import { listSessions, readSession } from "../../sessions/service";
import { router, workspaceProcedure } from "../init";
import { answers } from "../output";
import { wireProjectWithStats } from "../../sessions/schema";

const DAY_MS = 86_400_000;

export const projectsRouter = router({
  /** Projects of the workspace, newest first, with their statistics. */
  list: workspaceProcedure
    .input(
      z.object({
        nameContains: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(1000).default(200),
        offset: z.number().int().min(0).default(0),
      }),
    )
    .output(answers(z.array(wireProjectWithStats)))
    .query(async ({ ctx, input }) => {
      // Experiments live with their dataset, not among the tracing projects.
      return listSessions(ctx.sql, ctx.workspaceId, {
        includeStats: true,
        referenceFree: true,
        nameContains: input.nameContains,
        limit: input.limit,
        offset: input.offset,
      });
    }),

  get: workspaceProcedure
    .input(z.object({ projectId: uuid }))
    .output(answers(wireProjectWithStats))
    .query(({ ctx, input }) => readSession(ctx.sql, ctx.workspaceId, input.projectId)),

  /** Runs the project's ingest requests could not store lately, and why (newest first). */
  ingestErrors: workspaceProcedure
    .input(z.object({ projectId: uuid }))
    .output(answers(z.array(wireRefusal)))
    .query(({ ctx, input }) => listRefusals(ctx.sql, ctx.workspaceId, { projectId: input.projectId, limit: 50 })),

  /** Runs and errors per day over the last `days` days: the projects list's sparkline. */
  activity: workspaceProcedure
    .input(z.object({ projectId: uuid, days: z.number().int().min(1).max(90).default(14) }))
    .output(answers(wireChart))
    .query(({ ctx, input }) => {
      const end = Math.ceil(Date.now() / DAY_MS) * DAY_MS;
      return projectChartSeries(ctx.sql, ctx.workspaceId, input.projectId, {
        selection: { isRoot: true },
        metrics: ["run_count", "error_count"],
        bucket: "1d",
        startTime: end - input.days * DAY_MS,
        endTime: end,
      });
    }),
});
