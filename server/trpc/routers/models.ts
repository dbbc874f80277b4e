import { z } from "zod";
import { uuid } from "../../core/uuid";
import {
  connectionCreate,
  connectionUpdate,
  createConnection,
  DEFAULT_CONNECTION,
  deleteConnection,
  listConnections,
  testConnection,
  updateConnection,
  wireConnection,
  wireConnectionTest,
} from "../../models/connections";
import { router, workspaceAdminProcedure, workspaceProcedure, workspaceWriteProcedure } from "../init";
import { answers } from "../output";

/** Settings → Model connections. */
export const modelsRouter = router({
  connections: workspaceProcedure.output(answers(z.array(wireConnection))).query(({ ctx }) => listConnections(ctx.sql, ctx.workspaceId)),
  create: workspaceAdminProcedure
    .input(connectionCreate)
    .output(answers(wireConnection))
    .mutation(({ ctx, input }) => createConnection(ctx.sql, ctx.workspaceId, input)),
  update: workspaceAdminProcedure
    .input(z.object({ connectionId: uuid, change: connectionUpdate }))
    .output(answers(wireConnection))
    .mutation(({ ctx, input }) => updateConnection(ctx.sql, ctx.workspaceId, input.connectionId, input.change)),
  delete: workspaceAdminProcedure
    .input(z.object({ connectionId: uuid }))
    .mutation(({ ctx, input }) => deleteConnection(ctx.sql, ctx.workspaceId, input.connectionId)),
  test: workspaceWriteProcedure
    .input(z.object({ connectionId: z.union([uuid, z.literal(DEFAULT_CONNECTION)]) }))
    .output(answers(wireConnectionTest))
    .mutation(({ ctx, input }) => testConnection(ctx.sql, ctx.workspaceId, input.connectionId)),
});
