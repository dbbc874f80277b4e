import { z } from "zod";
import { listFeedbackConfigs, wireFeedbackConfig } from "../../feedback/configs";
import { uuid } from "../../core/uuid";
import { createReview, createThreadReview, deleteReview, reviewsOnRun, reviewsOnThread, updateReview } from "../../review/feedback";
import { router, workspaceFeedbackProcedure, workspaceProcedure } from "../init";
import { answers } from "../output";

const review = z.object({
  score: z
    .number()
    .finite()
    .nullish()
    .transform((v) => v ?? null),
  value: z.unknown().optional(),
  comment: z
    .string()
    .max(10_000)
    .nullish()
    .transform((v) => v || null),
  correction: z.unknown().optional(),
});

export const feedbackRouter = router({
  /** Feedback on the run and on every run of its trace, newest first, with the reviewer's name. */
  forRun: workspaceProcedure
    .input(z.object({ runId: uuid, traceId: uuid.nullish() }))
    .query(({ ctx, input }) => reviewsOnRun(ctx.sql, ctx.workspaceId, ctx.userId, input.runId, input.traceId ?? null)),

  /** Feedback on a whole thread, newest first, with the reviewer's name. */
  forThread: workspaceProcedure
    .input(z.object({ projectId: uuid, threadId: z.string().min(1).max(1_000) }))
    .query(({ ctx, input }) => reviewsOnThread(ctx.sql, ctx.workspaceId, ctx.userId, input.projectId, input.threadId)),

  /** A reviewer's feedback on a whole thread (LangSmith's thread feedback), signed with the user. */
  createOnThread: workspaceFeedbackProcedure
    .input(
      review.extend({
        projectId: uuid,
        threadId: z.string().min(1).max(1_000),
        key: z.string().trim().min(1, "must not be empty").max(256),
      }),
    )
    .mutation(({ ctx, input }) => createThreadReview(ctx.sql, ctx.workspaceId, ctx.userId, input.projectId, input.threadId, input)),

  /** The workspace's feedback keys with how each is scored (continuous, categorical, free text). */
  configs: workspaceProcedure
    .output(answers(z.array(wireFeedbackConfig)))
    .query(({ ctx }) => listFeedbackConfigs(ctx.sql, ctx.workspaceId, { key: [], offset: 0, limit: 1000 })),

  /** A reviewer's feedback from the run view, checked against its key's config and signed with the user. */
  create: workspaceFeedbackProcedure
    .input(review.extend({ runId: uuid, key: z.string().trim().min(1, "must not be empty").max(256) }))
    .mutation(({ ctx, input }) => createReview(ctx.sql, ctx.workspaceId, ctx.userId, input.runId, input)),

  update: workspaceFeedbackProcedure
    .input(review.extend({ id: uuid }))
    .mutation(({ ctx, input }) => updateReview(ctx.sql, ctx.workspaceId, ctx.userId, input.id, input)),

  delete: workspaceFeedbackProcedure
    .input(z.object({ id: uuid }))
    .mutation(({ ctx, input }) => deleteReview(ctx.sql, ctx.workspaceId, ctx.userId, input.id, ctx.role === "admin")),
});
