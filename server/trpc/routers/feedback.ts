import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { feedbackCreate, uuid } from "../../feedback/schema";
import { createFeedback, deleteFeedback } from "../../feedback/service";
import { feedbackOnRunAndTrace } from "../../feedback/trace";
import { readRun } from "../../runs/read";
import { router, workspaceProcedure, workspaceWriteProcedure } from "../init";

export const feedbackRouter = router({
  /** Feedback on the run and on every run of its trace, newest first. */
  forRun: workspaceProcedure.input(z.object({ runId: uuid, traceId: uuid.nullish() })).query(({ ctx, input }) =>
    feedbackOnRunAndTrace(ctx.sql, ctx.workspaceId, input.runId, input.traceId ?? null)),

  /** A reviewer's feedback from the run view, recorded with the app as its source and the user in its metadata. */
  create: workspaceWriteProcedure
    .input(z.object({
      runId: uuid,
      key: z.string().trim().min(1, "must not be empty").max(256),
      score: z.number().finite().nullish(),
      value: z.unknown().optional(),
      comment: z.string().max(10_000).nullish(),
      correction: z.unknown().optional(),
    }))
    .mutation(async ({ ctx, input }) => {
      if (!(await readRun(ctx.sql, ctx.workspaceId, input.runId))) throw new TRPCError({ code: "NOT_FOUND", message: `Run ${input.runId} not found.` });
      return createFeedback(ctx.sql, ctx.workspaceId, feedbackCreate.parse({
        run_id: input.runId,
        key: input.key,
        score: input.score ?? null,
        value: input.value ?? null,
        comment: input.comment || null,
        correction: input.correction ?? null,
        feedback_source: { type: "app", metadata: { user_id: ctx.userId } },
      }));
    }),

  delete: workspaceWriteProcedure.input(z.object({ id: uuid })).mutation(({ ctx, input }) => deleteFeedback(ctx.sql, ctx.workspaceId, input.id)),
});
