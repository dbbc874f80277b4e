import { z } from "zod";
import { uuid } from "../../core/uuid";
import { queueItemsPage, queueOverview, queuesWithProgress, reviewRun } from "../../review/queues/progress";
import { queueEditor, saveQueue } from "../../review/queues/editor";
import { deleteQueue } from "../../review/queues/queues";
import { addRuns, exportQueueRuns } from "../../review/queues/service";
import { addQueueRunToDataset, reviewSubmit, submitAsUser, toDataset } from "../../review/queues/submit";
import { reviewerChoices, setQueueReviewers, wireQueueReviewers } from "../../review/queues/reviewers";
import { router, workspaceProcedure, workspaceReviewProcedure, workspaceWriteProcedure } from "../init";
import { answers } from "../output";

const queueRef = z.object({ queueId: uuid });

export const queuesRouter = router({
  /** The queues page: every queue with its progress and what waits for the viewer. */
  list: workspaceProcedure.query(({ ctx }) =>
    queuesWithProgress(ctx.sql, ctx.workspaceId, ctx.userId, ctx.role, { ids: [], offset: 0, limit: 1000 }),
  ),

  get: workspaceProcedure.input(queueRef).query(({ ctx, input }) => queueOverview(ctx.sql, ctx.workspaceId, ctx.userId, input.queueId)),

  items: workspaceProcedure
    .input(queueRef.extend({ offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(200).default(50) }))
    .query(({ ctx, input }) => queueItemsPage(ctx.sql, ctx.workspaceId, input.queueId, input)),

  /** Create (no queueId) or edit a queue, with feedback configs for new rubric keys. */
  save: workspaceWriteProcedure.input(queueEditor).mutation(({ ctx, input }) => saveQueue(ctx.sql, ctx.workspaceId, input)),

  delete: workspaceWriteProcedure.input(queueRef).mutation(({ ctx, input }) => deleteQueue(ctx.sql, ctx.workspaceId, input.queueId)),

  /** The done runs with their feedback, as CSV. */
  exportCsv: workspaceProcedure
    .input(queueRef)
    .query(({ ctx, input }) => exportQueueRuns(ctx.sql, ctx.workspaceId, input.queueId, { format: "csv", include_annotator_detail: true })),

  /** "Add to queue" from the runs table or a run's panel. */
  addRuns: workspaceWriteProcedure.input(queueRef.extend({ runIds: z.array(uuid).min(1).max(1000) })).mutation(async ({ ctx, input }) => ({
    added: (
      await addRuns(
        ctx.sql,
        ctx.workspaceId,
        input.queueId,
        input.runIds.map((run_id) => ({ run_id })),
      )
    ).length,
  })),

  /** The reviewer's next run (reserved for them), or one they saw before by its item id (annotators: assigned queues only). */
  review: workspaceReviewProcedure
    .input(queueRef.extend({ itemId: uuid.optional() }))
    .query(({ ctx, input }) => reviewRun(ctx.sql, ctx.workspaceId, ctx.userId, ctx.role, input.queueId, input.itemId)),

  submit: workspaceReviewProcedure
    .input(reviewSubmit)
    .mutation(({ ctx, input }) => submitAsUser(ctx.sql, ctx.workspaceId, ctx.userId, ctx.role, input)),

  /** The members who may be assigned to review the queue (annotators review only their queues). */
  reviewers: workspaceProcedure.input(queueRef).query(({ ctx, input }) => reviewerChoices(ctx.sql, ctx.workspaceId, input.queueId)),

  setReviewers: workspaceWriteProcedure
    .input(queueRef.extend({ userIds: z.array(uuid).max(500) }))
    .output(answers(wireQueueReviewers))
    .mutation(({ ctx, input }) => setQueueReviewers(ctx.sql, ctx.workspaceId, input.queueId, input.userIds)),

  addToDataset: workspaceWriteProcedure
    .input(toDataset)
    .mutation(({ ctx, input }) => addQueueRunToDataset(ctx.sql, ctx.workspaceId, input)),
});
