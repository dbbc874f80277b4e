import { z } from "zod";
import { uuid } from "../../core/uuid";
import { addRunsToQueue } from "../../review/queues/items";
import { queueItemsPage, queueOverview, queuesWithProgress, reviewerNames, reviewRun } from "../../review/queues/progress";
import { queueEditor, saveQueue } from "../../review/queues/editor";
import { deleteQueue, loadQueue } from "../../review/queues/queues";
import { exportQueueRuns } from "../../review/queues/service";
import { addQueueRunToDataset, reviewSubmit, submitReview, toDataset } from "../../review/queues/submit";
import { router, workspaceProcedure, workspaceWriteProcedure } from "../init";

const queueRef = z.object({ queueId: uuid });

export const queuesRouter = router({
  /** The queues page: every queue with its progress and what waits for the viewer. */
  list: workspaceProcedure.query(({ ctx }) =>
    queuesWithProgress(ctx.sql, ctx.workspaceId, ctx.userId, { ids: [], offset: 0, limit: 1000 }),
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
  addRuns: workspaceWriteProcedure.input(queueRef.extend({ runIds: z.array(uuid).min(1).max(1000) })).mutation(async ({ ctx, input }) => {
    await loadQueue(ctx.sql, ctx.workspaceId, input.queueId);
    const items = await addRunsToQueue(
      ctx.sql,
      ctx.workspaceId,
      input.queueId,
      input.runIds.map((run_id) => ({ run_id })),
    );
    return { added: items.length };
  }),

  /** The reviewer's next run (reserved for them), or one they saw before by its item id. Reviewing is for members. */
  review: workspaceWriteProcedure
    .input(queueRef.extend({ itemId: uuid.optional() }))
    .query(({ ctx, input }) => reviewRun(ctx.sql, ctx.workspaceId, ctx.userId, input.queueId, input.itemId)),

  submit: workspaceWriteProcedure.input(reviewSubmit).mutation(async ({ ctx, input }) => {
    const name = (await reviewerNames(ctx.sql, [ctx.userId])).get(ctx.userId)!;
    const item = await submitReview(ctx.sql, ctx.workspaceId, { id: ctx.userId, name }, input);
    return { done: item.archived };
  }),

  addToDataset: workspaceWriteProcedure
    .input(toDataset)
    .mutation(({ ctx, input }) => addQueueRunToDataset(ctx.sql, ctx.workspaceId, input)),
});
