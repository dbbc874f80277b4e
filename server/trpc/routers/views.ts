import { z } from "zod";
import { uuid } from "../../core/uuid";
import { viewCreate, viewUpdate, wireView } from "../../views/schema";
import { createView, defaultView, deleteView, listViews, updateView } from "../../views/service";
import { router, workspaceProcedure } from "../init";
import { answers } from "../output";

/** Saved views; who may change which is decided in the service (viewers keep private views only). */
export const viewsRouter = router({
  list: workspaceProcedure
    .input(z.object({ projectId: uuid }))
    .output(answers(z.array(wireView)))
    .query(({ ctx, input }) => listViews(ctx.sql, ctx.workspaceId, { userId: ctx.userId, role: ctx.role }, input.projectId)),

  /** The view the project opens on without state in its address, or null. */
  default: workspaceProcedure
    .input(z.object({ projectId: uuid }))
    .query(({ ctx, input }) => defaultView(ctx.sql, ctx.workspaceId, { userId: ctx.userId, role: ctx.role }, input.projectId)),

  create: workspaceProcedure
    .input(viewCreate)
    .output(answers(wireView))
    .mutation(({ ctx, input }) => createView(ctx.sql, ctx.workspaceId, { userId: ctx.userId, role: ctx.role }, input)),

  update: workspaceProcedure
    .input(viewUpdate.extend({ id: uuid }))
    .output(answers(wireView))
    .mutation(({ ctx, input: { id, ...change } }) =>
      updateView(ctx.sql, ctx.workspaceId, { userId: ctx.userId, role: ctx.role }, id, change),
    ),

  delete: workspaceProcedure
    .input(z.object({ id: uuid }))
    .mutation(({ ctx, input }) => deleteView(ctx.sql, ctx.workspaceId, { userId: ctx.userId, role: ctx.role }, input.id)),
});
